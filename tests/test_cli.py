import subprocess
import sys

import pytest

from rnnrepro.book import cli
from rnnrepro.book.chapters import all_chapters, get_chapter
from rnnrepro.book.errors import ConfigError


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "rnnrepro", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, words", [
    (["run", "nosuch"], "unknown chapter 'nosuch': choose one of dynamics"),
    (["run", "dynamics", "--profile", "medium"], "unknown profile 'medium': choose one of fast, full"),
    (["run", "dynamics", "-p", "nosuch", "1"], "has no parameter 'nosuch': valid parameters are seed"),
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
        "fast: 2 reproduced; 0 findings of ours; 3 integrity checks (2026-01-01T00:00:00+00:00)"


def test_ledger_status_shows_a_failed_run(tmp_path):
    (tmp_path / "x.failed.txt").write_text("2026-01-01T00:00:00 fast: ClaimFailed: x.a.b: measured 2\n")
    assert cli.ledger_status(tmp_path / "x.ledger.json") == \
        "FAILED 2026-01-01T00:00:00 fast: ClaimFailed: x.a.b: measured 2"


def test_last_ledger_prefers_out_then_the_newest(tmp_path):
    chapter = get_chapter("dynamics")
    assert cli.last_ledger(chapter, str(tmp_path)) == tmp_path / "dynamics.ledger.json"
    assert cli.last_ledger(chapter, None).name == "dynamics.ledger.json"
