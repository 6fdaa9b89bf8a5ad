import os
import subprocess
import sys

import pytest

from rnnrepro.book import cli, paths, runner
from rnnrepro.book.chapters import all_chapters, get_chapter
from rnnrepro.errors import ConfigError


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "rnnrepro", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, words", [
    (["run", "nosuch"], "unknown chapter 'nosuch': choose one of dynamics"),
    (["run", "dynamics", "--profile", "medium"], "unknown profile 'medium': choose one of fast, full"),
    (["run", "dynamics", "-p", "nosuch", "1"], "has no parameter 'nosuch': valid parameters are seed"),
    (["run", "mille"], "unknown chapter 'mille': did you mean 'miller'? choose one of dynamics"),
    (["run", "miller", "-p", "lamda", "0.9"], "has no parameter 'lamda': did you mean 'lam'? valid parameters are"),
    (["run", "dynamics", "-p", "n_hidden", "many"], "not a valid int"),
    (["run", "dynamics", "-p", "n_hidden", "0"], "out of range"),
])
def test_bad_input_gives_one_clear_line(args, words):
    res = run_cli(*args)
    assert res.returncode == 2
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], res.stderr


def test_list(tmp_path):
    res = run_cli("list", "--out", str(tmp_path))
    assert res.returncode == 0
    for key in all_chapters():
        assert key in res.stdout
    assert "not run" in res.stdout


def test_parse_overrides():
    chapter = get_chapter("dynamics")
    assert cli.parse_overrides(chapter, [["n_hidden", "8"], ["contraction", "0.5"]]) == {
        "n_hidden": 8, "contraction": 0.5}
    with pytest.raises(ConfigError):
        cli.parse_overrides(chapter, [["contraction", "2"]])


def test_ledger_status(tmp_path):
    assert cli.ledger_status(tmp_path / "x.json") == "not run"
    (tmp_path / "x.json").write_text('{"profile": "fast", "counts": {"reproduced": 2, "partial": 0}, '
                                     '"integrity_checks": 3, "created_utc": "2026-01-01T00:00:00+00:00"}')
    assert cli.ledger_status(tmp_path / "x.json") == \
        "fast: experiments: 2 reproduced; 0 findings of ours; 3 integrity checks (2026-01-01T00:00:00+00:00)"


def test_ledger_status_shows_a_failed_run(tmp_path):
    (tmp_path / "x.failed.txt").write_text("2026-01-01T00:00:00 fast: ClaimFailed: x.a.b: measured 2\n")
    assert cli.ledger_status(tmp_path / "x.ledger.json") == \
        "FAILED 2026-01-01T00:00:00 fast: ClaimFailed: x.a.b: measured 2"


def test_last_ledger_prefers_out_then_the_newest(tmp_path):
    chapter = get_chapter("dynamics")
    assert paths.last_ledger(chapter, str(tmp_path)) == tmp_path / "dynamics.ledger.json"
    assert paths.last_ledger(chapter, None).name == "dynamics.ledger.json"


def test_a_bad_chapter_is_refused_without_heavy_imports():
    """`run nosuch` imports neither papermill, torch nor the ledger (issue 18 §4: well under a second)."""
    heavy = "('papermill', 'torch', 'matplotlib', 'rnnrepro.book.ledger')"
    code = ("import sys; from rnnrepro.book import cli; rc = cli.main(['run', 'nosuch']); "
            f"print(rc, sorted(m for m in {heavy} if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.stdout.split("\n")[0] == "2 []", res.stdout + res.stderr


@pytest.mark.parametrize("key", list(all_chapters()))
def test_params_lists_every_parameter_with_profiles_and_range(key, capsys):
    chapter = get_chapter(key)
    assert cli.main(["params", key]) == 0
    out = capsys.readouterr().out
    for p in chapter.params:
        line = next(line for line in out.splitlines() if line.split()[:1] == [p.name])
        assert repr(p.fast) in line and repr(p.full) in line and p.describe() in line and p.help in line


def test_list_shows_the_last_runs_parameters(tmp_path, capsys):
    (tmp_path / "dynamics.ledger.json").write_text(
        '{"profile": "fast", "counts": {"reproduced": 1}, "integrity_checks": 0, "created_utc": "2026-01-01", '
        '"parameters": {"profile": "fast", "seed": 3, "n_hidden": 16}}')
    assert cli.main(["list", "--out", str(tmp_path)]) == 0
    assert "last run's parameters (* = not the profile's value): seed=3* n_hidden=16" in capsys.readouterr().out


def test_list_into_a_closed_pipe_ends_quietly():
    """`python -m rnnrepro list | head -1`: no BrokenPipe traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "rnnrepro", "list"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0 and "Traceback" not in err, err


def test_a_data_chapter_without_data_fails_at_once_naming_folder_and_command(tmp_path):
    """`run miller` with an empty data folder: one error line within seconds, before any kernel."""
    import os
    import time

    key = next(k for k, ch in all_chapters().items() if ch.data)
    env = dict(os.environ, RNNREPRO_DATA=str(tmp_path))
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "rnnrepro", "run", key, "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=60, env=env)
    assert time.perf_counter() - t0 < 5 and res.returncode == 2, res.stderr
    err = res.stderr.strip()
    assert err.count("\n") == 0 and str(tmp_path) in err and ".venv/bin/python -m rnnrepro fetch-data" in err
    assert not (tmp_path / "out" / f"{key}.ipynb").exists()


def test_kernels_use_ipc_not_tcp():
    assert runner.ipc_kernel_manager()().transport == "ipc"


def test_a_console_without_utf8_prints_the_math_characters_as_question_marks(monkeypatch):
    import io

    out = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    monkeypatch.setattr(sys, "stdout", out)
    assert cli.main(["params", "li"]) == 0          # its parameter help has characters cp1252 lacks
    out.flush()
    assert b"?" in out.buffer.getvalue()


def test_on_windows_kernels_use_tcp_on_the_loopback_address(monkeypatch):
    monkeypatch.setattr(runner.sys, "platform", "win32")
    km = runner.ipc_kernel_manager()()
    assert (km.transport, km.ip) == ("tcp", "127.0.0.1")


@pytest.mark.parametrize("latex, plain", [
    (r"the negative control ($W = 1.05 Q$ (no $k \le 60$ suffices; counted as 61)) = 0.251",
     "the negative control (W = 1.05 Q (no k ≤ 60 suffices; counted as 61)) = 0.251"),
    (r"$\lambda^{k-1}$ and $\|W\|_2 \leq 1$", "λ^(k-1) and ‖W‖_2 ≤ 1"),
    (r"$\frac{\eta}{2} \ge \sqrt{d}$, $\mathrm{err}_{t+1} \approx e^{-\lambda t}$", "η/2 ≥ √d, err_(t+1) ≈ e^(-λ t)"),
    (r"$\frac{\log(1/\delta)}{n}$ with $\left(1+\epsilon\right)$", "(log(1/δ))/n with (1+ε)"),
    ("set $RNNREPRO_DATA (or $RNNREPRO_SECTION_LIMIT_S); it costs $5",
     "set $RNNREPRO_DATA (or $RNNREPRO_SECTION_LIMIT_S); it costs $5"),   # the shell's and a lone dollar stay
    ("no math here: 0.25 ≤ 1", "no math here: 0.25 ≤ 1"),
])
def test_without_latex_prints_math_as_a_terminal_shows_it(latex, plain):
    assert cli.without_latex(latex) == plain


def _failed_run(folder, text="2026-11-28T22:10:00 fast: ControlPassed: dynamics.a.b: $k \\le 60$"):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dynamics.failed.txt").write_text(text + "\n")


def _passing_run(folder):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dynamics.ledger.json").write_text(
        '{"profile": "fast", "counts": {"holds": 4}, "integrity_checks": 1, "created_utc": "2026-11-28T21:00:00"}')


def test_list_shows_the_users_failed_run_not_the_older_passing_build(tmp_path, monkeypatch, capsys):
    """The book build passed, then the user's `run` failed: `list` says the last run failed (and the other
    way round: a build newer than the failure shows its counts)."""
    import os

    cli_dir, build_dir = tmp_path / "runs", tmp_path / "jupyter_execute"
    monkeypatch.setattr(cli, "ledger_paths", lambda ch: [cli_dir / f"{ch.key}.ledger.json",
                                                         build_dir / f"{ch.key}.ledger.json"])
    _passing_run(build_dir)
    _failed_run(cli_dir)
    os.utime(build_dir / "dynamics.ledger.json", (1e9, 1e9))          # the build ran first
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out                                     # (the other chapters: not run)
    assert "last run: FAILED 2026-11-28T22:10:00 fast: ControlPassed: dynamics.a.b: k ≤ 60" in out, out
    os.utime(cli_dir / "dynamics.failed.txt", (1e8, 1e8))              # now the build is the newer run
    assert cli.last_run(get_chapter("dynamics")) == build_dir / "dynamics.ledger.json"
    assert cli.ledger_status(cli.last_run(get_chapter("dynamics"))).startswith("fast: statements: 4 hold")


def test_a_failure_newer_than_a_ledger_in_one_folder_is_the_status(tmp_path):
    import os

    _passing_run(tmp_path)
    _failed_run(tmp_path)
    os.utime(tmp_path / "dynamics.ledger.json", (1e9, 1e9))
    assert cli.ledger_status(tmp_path / "dynamics.ledger.json").startswith("FAILED")
    assert cli.run_parameters(get_chapter("dynamics"), tmp_path / "dynamics.ledger.json") == ""


def test_run_prints_a_failure_without_latex_and_says_when_the_shipped_full_result_is_stale(tmp_path, monkeypatch,
                                                                                           capsys):
    import papermill

    def failing(key, profile, overrides, out, only=None):
        raise papermill.PapermillExecutionError(3, 3, "", "ControlPassed",
                                                r"dynamics.a.b: the control ($W = 1.05 Q$) also satisfies $\le 1$",
                                                [])

    monkeypatch.setattr(cli, "run_chapter", failing)
    monkeypatch.setattr(cli, "stale_full_note", lambda key: f"note: the shipped full result of {key} is stale")
    assert cli.main(["run", "dynamics", "--out", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert "note: the shipped full result of dynamics is stale" in out
    assert err.startswith("FAILED dynamics after ") and "$" not in err and "\\" not in err, err
    assert "ControlPassed: dynamics.a.b: the control (W = 1.05 Q) also satisfies ≤ 1" in err


@pytest.mark.parametrize("shipped", ["current", "stale", "none"])
def test_the_stale_note_follows_the_shipped_full_result(monkeypatch, shipped):
    import rnnrepro.book.full as full_mod

    def fake(key):
        return None if shipped == "none" else {"stale": shipped == "stale", "manifest": {"commit": "0123456789abcdef"}}

    monkeypatch.setattr(full_mod, "shipped_full", fake)
    note = cli.stale_full_note("li")
    if shipped in ("current", "none"):
        assert note == ""
    else:
        assert note.startswith("note: the shipped full result of li is stale") and "0123456789ab)" in note
        assert "`python -m rnnrepro ship-full li --lower-isa`" in note and "book/artifacts/li/full" in note
        assert note.count("\n") == 0


def test_the_stale_note_names_a_damaged_shipped_result(monkeypatch):
    from rnnrepro.book import full
    from rnnrepro.errors import RnnreproError

    def damaged(key):
        raise RnnreproError(f"shipped full result of {key} is missing or corrupted: restore it with git")

    monkeypatch.setattr(full, "shipped_full", damaged)
    assert cli.stale_full_note("li") == "note: shipped full result of li is missing or corrupted: restore it with git"


# ---------------------------------------------------------------------- exploration runs (`run KEY --explore`)
@pytest.mark.chapter
def test_explore_runs_past_a_failing_row_and_prints_every_rows_value(tmp_path):
    """An override that fails a claim (dynamics at 10 contraction steps: `contraction.single_point`, among others):
    the exploration run exits 0, leaves the executed notebook and the ledger (marked explore, the failing rows
    recorded), and prints one line per row with its measured value, criterion and verdict."""
    import json

    from rnnrepro.book.rows import show

    res = subprocess.run([sys.executable, "-m", "rnnrepro", "run", "dynamics", "--explore", "-p", "n_steps", "10",
                          "--out", str(tmp_path)], capture_output=True, text=True)     # a whole chapter: no timeout
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "dynamics.ipynb").is_file() and not (tmp_path / "dynamics.failed.txt").exists()
    ledger = json.loads((tmp_path / "dynamics.ledger.json").read_text())
    assert ledger["explore"] is True and ledger["explore_errors"] == []
    failed = {row_id for _, row_id, _ in ledger["failures"]}
    assert "dynamics.contraction.single_point" in failed
    lines = res.stdout.splitlines()
    for claim in ledger["claims"]:
        short = claim["id"].removeprefix("dynamics.")
        [line] = [line for line in lines if line.split()[:1] == [short]]
        assert show(claim["measured"], claim["fmt"]) in line
        assert line.rstrip().endswith("met") != (claim["id"] in failed) or "CONTROL MET" in line, line
    assert "FAILED" in next(line for line in lines if line.startswith("contraction.single_point "))
    value = run_cli("value", "dynamics", "contraction.single_point", "--out", str(tmp_path))
    assert value.returncode == 0 and float(value.stdout) == ledger["claims"][1]["measured"]


@pytest.mark.parametrize("explore", [["--explore"], []], ids=["explore", "strict"])
def test_a_section_run_refuses_an_unknown_section_before_a_kernel_starts(explore, tmp_path):
    res = run_cli("run", "dynamics", *explore, "--only", "nosuch", "--out", str(tmp_path))
    assert res.returncode == 2 and "dynamics has no section 'nosuch': choose one of lstm, contraction" in res.stderr
    assert "running" not in res.stdout and not any(tmp_path.iterdir())


@pytest.mark.chapter
def test_a_strict_section_run_checks_that_section_alone_and_marks_its_ledger(tmp_path):
    """`run KEY --only SECTION` (a predict exercise's command): the section's rows only, every criterion checked as
    in a whole run; the ledger and the execution log say which section ran (never taken for the chapter's result)."""
    import json

    log = tmp_path / "executions.jsonl"
    res = subprocess.run([sys.executable, "-m", "rnnrepro", "run", "dynamics", "--only", "lyapunov", "--out",
                          str(tmp_path)], capture_output=True, text=True, env={**os.environ,
                          "RNNREPRO_EXECUTION_LOG": str(log)})                    # a chapter's section: no timeout
    assert res.returncode == 0, res.stderr
    assert ", section lyapunov only" in res.stdout and "dynamics, section lyapunov: " in res.stdout
    ledger = json.loads((tmp_path / "dynamics.ledger.json").read_text())
    ids = [c["id"] for c in ledger["claims"]]
    assert ledger["only"] == "lyapunov" and "explore" not in ledger
    assert any(i.startswith("dynamics.lyapunov.") for i in ids), ids
    assert not any(i.startswith("dynamics.contraction.") for i in ids), ids
    assert [json.loads(line)["only"] for line in log.read_text().splitlines()] == ["lyapunov", "lyapunov"]


def test_one_section_keeps_the_cells_it_needs():
    import jupytext

    from rnnrepro.book.explore import needed_cells, select_section

    code = {0: "import math\np = 1", 1: "a = p + 1", 2: "b = 2", 3: "b[0] = 3", 4: "c = b + math.pi",
            5: "def f(x):\n    return x + b", 6: "print(c, f(1), len(a))", 7: "%matplotlib inline"}
    assert needed_cells(code, {0, 4}) == {0, 2, 3, 4}               # b's definition and its change in place
    assert needed_cells(code, {0, 6}) == {0, 1, 2, 3, 4, 5, 6}      # builtins (print, len) are not looked up
    assert needed_cells(code, {7}) == {7}                           # IPython syntax: no names
    nb = jupytext.read(paths.REPO / get_chapter("dynamics").notebook)
    sources = [c.source for c in select_section(nb, "lyapunov", "dynamics").cells]
    assert any('ledger.section("lyapunov")' in s for s in sources) and "ledger.finish()" in sources[-1]
    assert not any('ledger.section("memory")' in s for s in sources)
    assert 'run = start("dynamics"' in "".join(sources)


def test_value_reads_a_row_or_a_value_back(tmp_path, capsys):
    import json

    ledger = {"chapter": "dynamics", "profile": "fast", "created_utc": "2026-01-01T00:00:00+00:00", "explore": True,
              "claims": [{"id": "dynamics.a.b", "kind": "paper", "type": "statement", "measured": 0.25, "fmt": ".3g",
                          "criterion": r"$\le 1$", "holds": True, "control": 2.0, "control_holds": True}],
              "values": {"dynamics.a.steps": 124}}
    (tmp_path / "dynamics.ledger.json").write_text(json.dumps(ledger))
    assert cli.main(["value", "dynamics", "a.b", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "0.25\n"
    assert cli.main(["value", "dynamics", "dynamics.a.steps", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "124\n"
    assert cli.main(["value", "dynamics", "a.step", "--out", str(tmp_path)]) == 2
    assert "did you mean dynamics.a.steps" in capsys.readouterr().err
    assert cli.main(["value", "dynamics", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "a.b statement 0.25 ≤ 1 2 met, CONTROL MET" in " ".join(out.split()) and "a.steps = 124" in out
    assert cli.main(["value", "dynamics", "a.b", "--out", str(tmp_path / "none")]) == 2
    assert "run `python -m rnnrepro run dynamics --explore` first" in capsys.readouterr().err


# ---------------------------------------------------------------------- a student edition (no solutions)
def test_the_student_config_is_the_books_with_hide_solutions():
    import yaml

    book = yaml.safe_load((paths.REPO / "_config.yml").read_text())
    student = cli.student_config(book)
    assert student["sphinx"]["config"]["hide_solutions"] is True
    assert "hide_solutions" not in (book["sphinx"].get("config") or {}) or \
        book["sphinx"]["config"]["hide_solutions"] is False                   # the book itself shows them
    del student["sphinx"]["config"]["hide_solutions"]
    book["sphinx"].setdefault("config", {})
    book["sphinx"]["config"].pop("hide_solutions", None)
    assert student == book                                                     # nothing else changes
    assert cli.student_config({})["sphinx"]["config"] == {"hide_solutions": True}


def test_the_student_edition_shares_the_book_builds_execution_cache(tmp_path):
    """With the book build's cache (what `student-edition` passes) the student edition executes no chapter that
    the book build executed: Jupyter Book's ``execute.cache`` names that folder, the other execute settings stay."""
    import yaml

    book = yaml.safe_load((paths.REPO / "_config.yml").read_text())
    student = cli.student_config(book, cli.BOOK_CACHE)
    assert cli.BOOK_CACHE == paths.REPO / "_build" / ".jupyter_cache"           # jupyter-book build .'s own
    assert student["execute"] == dict(book["execute"], cache=str(cli.BOOK_CACHE))
    assert "cache" not in cli.student_config(book)["execute"]
    from jupyter_book.config import yaml_to_sphinx

    assert yaml_to_sphinx(student)[0]["nb_execution_cache_path"] == str(cli.BOOK_CACHE)      # what Sphinx gets


def test_hide_solutions_leaves_every_solution_out_of_a_page(tmp_path):
    """The mechanism of the student edition, on a one-page Sphinx project with the book's exercise syntax: with
    hide_solutions the exercise stays and its solution is gone; without it both are on the page."""
    import subprocess

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["myst_parser", "sphinx_exercise"]\n'
                                 'myst_enable_extensions = ["colon_fence", "dollarmath"]\n')
    (src / "index.md").write_text("# Page\n\n:::{exercise} A question\n:label: ex-demo-one\n\n"
                                  "What is $1 + 1$?\n:::\n\n"
                                  ":::{solution} ex-demo-one\n:class: dropdown\n\n"
                                  "The answer is two, said plainly.\n:::\n")
    pages = {}
    for hide in (False, True):
        out = tmp_path / f"html-{hide}"
        res = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-D", f"hide_solutions={int(hide)}",
                              str(src), str(out)], capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
        pages[hide] = (out / "index.html").read_text()
    assert "A question" in pages[True] and "A question" in pages[False]
    assert "The answer is two" in pages[False] and "The answer is two" not in pages[True]
