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


def _readme_verdict(counts: dict, findings: int) -> str:
    """The README's wording of a chapter's paper-claim counts, e.g. '42 paper claims: 22 reproduced, 13 partial,
    4 not reproduced, 3 errata; 7 findings of ours' (statuses with no claim left out)."""
    total = sum(counts.values())
    names = {"reproduced": "reproduced", "partial": "partial", "not reproduced": "not reproduced", "erratum": "errata"}
    if counts.get("reproduced") == total:
        text = f"{total} paper claims, all reproduced"
    else:
        text = f"{total} paper claims: " + ", ".join(f"{n} {names[k]}" for k, n in counts.items() if n)
    if findings:
        text += f"; {findings} finding{'s' if findings > 1 else ''} of ours"
    return text


@pytest.mark.parametrize("key", sorted(all_chapters()))
def test_readme_states_the_shipped_full_counts(key):
    """The README's chapter table quotes each chapter's paper-claim counts at the shipped full profile."""
    shipped = full.shipped_full(key)
    if shipped is None:
        pytest.skip(f"{key}: no shipped full result")
    row = next(line for line in (REPO / "README.md").read_text().splitlines() if line.startswith(f"| `{key}` |"))
    expected = _readme_verdict(shipped["counts"], shipped.get("findings", 0))
    assert expected in row, f"README row of {key} should say: {expected}"
