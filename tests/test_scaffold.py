"""A one-claim contribution: `scaffold-claim` adds a draft row (its module, its unit test, a draft cell); the draft
row is recorded marked draft, never stops the run, and leaves the shipped full result current."""
import json
import os
import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest

from rnnrepro.book.chapters import get_chapter
from rnnrepro.book.criteria import AtMost
from rnnrepro.book.ledger import DRAFT_PREFIX, Ledger
from rnnrepro.book.paths import REPO, code_sha256
from rnnrepro.book.scaffold import scaffold_claim
from rnnrepro.errors import ConfigError


def test_a_draft_row_is_recorded_marked_draft_and_never_stops_the_run(tmp_path):
    ledger = Ledger(get_chapter("dynamics"), SimpleNamespace(profile="fast"), publish=lambda *a: None, out=tmp_path)
    row = ledger.draft("dynamics.draft.demo", "A factor below one.", ref="(draft)", measured=1.5,
                       criterion=AtMost(1.0), control=0.5, control_note="a control that meets it")   # both wrong
    assert row.statement.startswith(DRAFT_PREFIX) and row.kind == "finding"
    assert row.holds is False and row.control_holds is True and ledger.drafts == ["dynamics.draft.demo"]
    assert not (tmp_path / "dynamics.failed.txt").exists()
    assert ledger.to_json()["drafts"] == ["dynamics.draft.demo"]


def test_a_drafts_quote_is_read_and_checked_like_a_claims(tmp_path):
    """A draft may carry the sentence it will test (``quote=``): the quote test reads it (an empty one is not yet
    a quote), and the row keeps it."""
    from rnnrepro.book.quotes import notebook_quotes

    page = tmp_path / "p.md"
    page.write_text("# T\n\n```{code-cell} ipython3\n:tags: [draft]\n\nledger.draft('k.draft.a', 'S.', ref='r', "
                    "measured=1, criterion=c, control=2, quote='A sentence of the paper.')\n"
                    "ledger.draft('k.draft.b', 'S.', ref='r', measured=1, criterion=c, control=2, quote='')\n```\n")
    a, b = notebook_quotes(page)
    assert (a.id, a.quote, a.draft) == ("k.draft.a", "A sentence of the paper.", True) and b.quote == "" and b.draft
    ledger = Ledger(get_chapter("dynamics"), SimpleNamespace(profile="fast"), publish=lambda *a: None, out=tmp_path)
    row = ledger.draft("dynamics.draft.q", "S.", ref="(draft)", measured=0.5, criterion=AtMost(1.0), control=2.0,
                       quote="A sentence of the paper.")
    assert row.quote == "A sentence of the paper."


def _copy(dest):
    for name in ("rnnrepro", "tests", "book"):
        shutil.copytree(REPO / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("_toc.yml", "_config.yml", "pyproject.toml", "README.md", "CONTRIBUTING.md", "CITATION.cff"):
        shutil.copy2(REPO / name, dest / name)


def test_scaffold_refuses_a_bad_name_or_a_second_draft_of_that_name(tmp_path):
    (tmp_path / "book" / "chapters").mkdir(parents=True)
    (tmp_path / "rnnrepro" / "dynamics").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "book" / "chapters" / "dynamics.md").write_text("# T\n\n## A\n\ntext\n\n## Behind this page\n\nx\n")
    with pytest.raises(ConfigError, match="lowercase letters"):
        scaffold_claim("dynamics", "Bad-Name", root=tmp_path)
    written = scaffold_claim("dynamics", "demo", root=tmp_path)
    page = (tmp_path / "book" / "chapters" / "dynamics.md").read_text()
    assert page.index(":tags: [draft, hide-input]") < page.index("## Behind this page")
    assert [p.name for p in written] == ["draft_demo.py", "test_dynamics_draft_demo.py", "dynamics.md"]
    with pytest.raises(ConfigError, match="already has a draft 'demo'"):
        scaffold_claim("dynamics", "demo", root=tmp_path)


@pytest.mark.chapter
def test_the_scaffolded_draft_runs_shows_marked_draft_and_keeps_the_shipped_result_current(tmp_path):
    """In a copy of the repository: scaffold a draft in dynamics, run its unit test, run its section alone in an
    exploration run (the row is recorded, marked draft, and met), and check that the chapter's code hash, which a
    shipped full result is compared with, did not change."""
    root = tmp_path / "copy"
    root.mkdir()
    _copy(root)
    page = root / "book" / "chapters" / "dynamics.md"
    before = code_sha256(page)
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")
    env.pop("RNNREPRO_OUT", None)

    def python(*args):
        return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True)

    res = python("-m", "rnnrepro", "scaffold-claim", "dynamics", "my_bound")
    assert res.returncode == 0 and "wrote rnnrepro/dynamics/draft_my_bound.py" in res.stdout, res.stderr
    assert code_sha256(page) == before
    res = python("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_dynamics_draft_my_bound.py")
    assert res.returncode == 0, res.stdout[-2000:]
    res = python("-m", "rnnrepro", "run", "dynamics", "--explore", "--only", "draft_my_bound", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    ledger = json.loads((tmp_path / "dynamics.ledger.json").read_text())
    [row] = [c for c in ledger["claims"] if c["id"] == "dynamics.draft.my_bound"]
    assert row["statement"].startswith(DRAFT_PREFIX) and row["holds"] and row["control_holds"] is False
    assert ledger["drafts"] == ["dynamics.draft.my_bound"] and ledger["explore_errors"] == []
    assert "draft.my_bound" in res.stdout
