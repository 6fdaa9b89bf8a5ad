"""Every chapter, executed end to end with the `fast` profile, then re-executed by nbval.

The first execution fails if any claim fails. It is a papermill run (``python -m rnnrepro run``),
or, when ``$RNNREPRO_EXECUTED`` names the folder of a book build's executed notebooks
(``_build/jupyter_execute/book/chapters``; CI builds the book first), the book build's own execution:
the book build fails on any failing claim too, so each chapter runs once instead of twice. nbval then
re-executes the executed notebook and compares the outputs of the ledger-summary cell (marked
``# NBVAL_CHECK_OUTPUT``), and the second run's ledger values must equal the first's (determinism).
Deselect with ``-m "not chapter"`` for a quick unit-test run.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.runner import run_chapter
from rnnrepro.book.ledger import OBSERVED, STATUSES, VERIFIED

EXECUTED_ENV = "RNNREPRO_EXECUTED"
#: nbval's conftest for the re-execution: a glue record (``myst_nb.glue(..., display=False)``, e.g. the verdict
#: table ``ledger.finish`` glues) is data for the page, not a displayed output, and the book build drops it from
#: the executed notebook it stores; so the comparison skips every ``application/papermill.record/*`` field.
NBVAL_CONFTEST = """
GLUE_RECORD = "application/papermill.record/"


class _SkipGlueRecords(tuple):
    def __contains__(self, key):
        return tuple.__contains__(self, key) or str(key).startswith(GLUE_RECORD)


def pytest_collection_modifyitems(session, config, items):
    for item in items:
        if hasattr(item.parent, "skip_compare"):
            item.parent.skip_compare = _SkipGlueRecords(item.parent.skip_compare)
"""


def first_execution(key: str, run_dir: Path) -> tuple[dict, Path]:
    """The chapter's first `fast` execution: (its ledger, the folder holding its notebook and figures)."""
    executed = os.environ.get(EXECUTED_ENV)
    if not executed:
        return run_chapter(key, "fast", out=run_dir, progress=False), run_dir
    folder = Path(executed).resolve()
    ledger_path = folder / f"{key}.ledger.json"
    if not (folder / f"{key}.ipynb").is_file() or not ledger_path.is_file():
        pytest.fail(f"${EXECUTED_ENV}={executed} holds no executed {key}.ipynb and {key}.ledger.json: "
                    f"build the book first (jupyter-book build --all .) or unset {EXECUTED_ENV}")
    return json.loads(ledger_path.read_text()), folder


@pytest.mark.chapter
@pytest.mark.parametrize("key", list(all_chapters()))
def test_chapter_fast_profile_and_determinism(key, tmp_path):
    ledger, folder = first_execution(key, tmp_path / "run")
    assert ledger["profile"] == "fast" and ledger["claims"]
    assert all(c["holds"] and c["status"] in (*STATUSES, OBSERVED, VERIFIED) for c in ledger["claims"])
    assert all((c["control"] is None) != (not c["no_control"]) for c in ledger["claims"])
    assert all(c["control_holds"] in (None, False) for c in ledger["claims"])
    for fig in ledger["figures"].values():
        assert (folder / fig["file"]).is_file()
    notebook = tmp_path / "nbval" / f"{key}.ipynb"
    notebook.parent.mkdir()
    shutil.copyfile(folder / f"{key}.ipynb", notebook)
    (tmp_path / "conftest.py").write_text(NBVAL_CONFTEST)
    env = dict(os.environ, RNNREPRO_OUT=str(tmp_path / "rerun"))
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "--nbval-lax", "--rootdir", str(tmp_path), str(notebook)],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert res.returncode == 0, res.stdout[-4000:]
    again = json.loads((tmp_path / "rerun" / f"{key}.ledger.json").read_text())
    assert [c["measured"] for c in again["claims"]] == [c["measured"] for c in ledger["claims"]]
