"""Every chapter, executed end to end with the `fast` profile, then re-executed by nbval.

The first execution (papermill, as `python -m rnnrepro run`) fails if any claim fails. nbval then
re-executes the executed notebook and compares the outputs of the ledger-summary cell (marked
``# NBVAL_CHECK_OUTPUT``): a second run must reproduce the same numbers. Deselect with
``-m "not chapter"`` for a quick unit-test run.
"""

import json
import os
import subprocess
import sys

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.cli import run_chapter
from rnnrepro.book.ledger import STATUSES, VERIFIED


@pytest.mark.chapter
@pytest.mark.parametrize("key", list(all_chapters()))
def test_chapter_fast_profile_and_determinism(key, tmp_path):
    ledger = run_chapter(key, "fast", out=tmp_path / "run", progress=False)
    assert ledger["profile"] == "fast" and ledger["claims"]
    assert all(c["holds"] and c["status"] in (*STATUSES, VERIFIED) for c in ledger["claims"])
    assert all((c["control"] is None) != (not c["no_control"]) for c in ledger["claims"])
    assert all(c["control_holds"] in (None, False) for c in ledger["claims"])
    assert (tmp_path / "run" / f"{key}.ipynb").is_file()
    for fig in ledger["figures"].values():
        assert (tmp_path / "run" / fig["file"]).is_file()
    env = dict(os.environ, RNNREPRO_OUT=str(tmp_path / "rerun"))
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "--nbval-lax", "--rootdir", str(tmp_path), str(tmp_path / "run" / f"{key}.ipynb")],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert res.returncode == 0, res.stdout[-4000:]
    again = json.loads((tmp_path / "rerun" / f"{key}.ledger.json").read_text())
    assert [c["measured"] for c in again["claims"]] == [c["measured"] for c in ledger["claims"]]
