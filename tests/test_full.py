"""Shipped full-profile results (rnnrepro.book.full) and the opt-in paper-scale runs (-m full)."""

import json
import os
import subprocess
import sys

import pytest

from rnnrepro.book import full, machine
from rnnrepro.book.chapters import all_chapters
from rnnrepro.errors import RnnreproError
from rnnrepro.book.paths import REPO
from rnnrepro.data import sha256_file


def _ship_fake(folder, key="dynamics", source="x"):
    folder.mkdir(parents=True)
    ledger = {"chapter": key, "source_sha256": source, "claims": [{"id": f"{key}.a.b", "measured": 1.5}]}
    (folder / f"{key}.ledger.json").write_text(json.dumps(ledger))
    manifest = {"files": {f"{key}.ledger.json": sha256_file(folder / f"{key}.ledger.json")}}
    (folder / full.MANIFEST).write_text(json.dumps(manifest))


def test_shipped_full_reads_checks_and_flags_stale(tmp_path, monkeypatch):
    monkeypatch.setattr(full, "full_dir", lambda key: tmp_path / key / "full")
    assert full.shipped_full("dynamics") is None
    _ship_fake(tmp_path / "dynamics" / "full")
    ledger = full.shipped_full("dynamics")
    assert ledger["stale"] is True and ledger["manifest"]["files"]
    assert full.full_claim("dynamics", "dynamics.a.b")["measured"] == 1.5
    assert full.full_claim("dynamics", "dynamics.a.c") is None
    (tmp_path / "dynamics" / "full" / "dynamics.ledger.json").write_text("{}")
    with pytest.raises(RnnreproError, match="corrupted"):
        full.shipped_full("dynamics")


@pytest.mark.parametrize("key", sorted(all_chapters()))
def test_every_shipped_full_result_is_current(key):
    """A shipped full result was made from the chapter's code cells as they are (paths.code_sha256, the test the
    page's 'stale' note uses): a code-cell change, a re-check cell added included, needs a re-ship."""
    ledger = full.shipped_full(key)
    if ledger is None:
        pytest.skip(f"no full result shipped for {key}")
    assert not ledger["stale"], (f"{key}: the shipped full result (commit {ledger['manifest'].get('commit', '?')[:7]}) "
                                 f"was made from other code cells than {all_chapters()[key].notebook} has now: "
                                 f"commit, then re-ship it from the clean tree with `python -m rnnrepro ship-full "
                                 f"{key} --lower-isa`")


@pytest.mark.parametrize("key", sorted(all_chapters()))
def test_every_shipped_full_result_is_intact(key):
    ledger = full.shipped_full(key)   # raises when a shipped file differs from its sha256
    if ledger is None:
        pytest.skip(f"no full result shipped for {key}")
    assert ledger["profile"] == "full" and ledger["chapter"] == key
    assert ledger["manifest"]["runs"]["native"]["wall_time_s"] > 0


@pytest.mark.chapter
@pytest.mark.full
@pytest.mark.parametrize("lower", [False, True], ids=["native", "lower_isa"])
@pytest.mark.parametrize("key", sorted(all_chapters()))
def test_full_profile_passes(key, lower, tmp_path):
    env = dict(os.environ)
    if lower:
        try:
            env.update(machine.lower_isa_env())
        except ValueError as exc:
            pytest.skip(str(exc))
    res = subprocess.run([sys.executable, "-m", "rnnrepro", "run", key, "--profile", "full", "--out", str(tmp_path)],
                         env=env, capture_output=True, text=True, cwd=REPO)
    where = "lower ISA" if lower else "native"
    assert res.returncode == 0, f"{key} full ({where}):\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"


def test_ship_full_records_the_commit_as_it_was_before_the_run(tmp_path, monkeypatch):
    """The manifest's commit is read before the shipped files are written (they are tracked by git, so a
    commit read afterwards would always say '-dirty')."""
    calls = []

    def fake_commit():
        calls.append("commit")
        return "abc123"

    def fake_run(key, out, env=None):
        calls.append("run")
        (out / f"{key}.figures").mkdir(parents=True)
        (out / f"{key}.ledger.json").write_text(json.dumps(
            {"environment": {"cpu": {"model": "x"}}, "counts": {"reproduced": 1}}))
        return 0, 0.1, ""

    monkeypatch.setattr(full, "_git_commit", fake_commit)
    monkeypatch.setattr(full, "_run_full", fake_run)
    monkeypatch.setattr(full, "full_dir", lambda key: tmp_path / key / "full")
    manifest = full.ship_full("dynamics", log=lambda *a: None)
    assert calls == ["commit", "run"] and manifest["commit"] == "abc123"


def _git(repo, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                   capture_output=True)


@pytest.mark.parametrize("change", ["modified", "untracked", "no git"])
def test_ship_full_refuses_an_uncommitted_tree_with_one_line_in_seconds(tmp_path, monkeypatch, capsys, change):
    """ship-full records the commit the result came from, so it refuses a tree with uncommitted changes (or no
    git at all) before anything runs."""
    import time

    from rnnrepro.book import cli

    if change != "no git":
        _git(tmp_path, "init", "-q")
        (tmp_path / "a.py").write_text("x = 1\n")
        _git(tmp_path, "add", "a.py")
        _git(tmp_path, "commit", "-q", "-m", "a")
        (tmp_path / ("a.py" if change == "modified" else "new.py")).write_text("x = 2\n")
    monkeypatch.setattr(full, "REPO", tmp_path)
    monkeypatch.setattr(full, "_run_full", lambda *a, **k: pytest.fail("ship-full ran a dirty tree"))
    t0 = time.perf_counter()
    assert cli.main(["ship-full", "dynamics", "--lower-isa"]) == 2
    assert time.perf_counter() - t0 < 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    if change == "no git":
        assert "is not a git checkout" in err
    else:
        assert f"uncommitted changes ({'a.py' if change == 'modified' else 'new.py'}): commit them" in err


def test_git_state_reads_the_commit_of_a_clean_tree(tmp_path, monkeypatch):
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    _git(tmp_path, "add", "a.py")
    _git(tmp_path, "commit", "-q", "-m", "a")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True, text=True).stdout.strip()
    assert full.git_state(tmp_path) == (head, [])
    monkeypatch.setattr(full, "REPO", tmp_path)
    assert full._git_commit() == head
