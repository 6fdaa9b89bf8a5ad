"""Every chapter, executed end to end with the `fast` profile, then re-executed by nbval one instruction
set lower: each chapter executes twice, and the second execution checks determinism and portability.

The first execution fails if any claim fails. It is a papermill run (``python -m rnnrepro run``),
or, when ``$RNNREPRO_EXECUTED`` names the folder of a book build's executed notebooks
(``_build/jupyter_execute/book/chapters``; CI builds the book first), the book build's own execution:
the book build fails on any failing claim too, so each chapter runs once instead of twice.

nbval then re-executes the executed notebook with torch's (ATen, MKL, oneDNN) and numpy's kernels forced
one instruction set below the machine's (:func:`rnnrepro.book.machine.lower_isa_env`: AVX-512 → AVX2,
AVX2 → SSE4; on a machine with nothing lower, natively). Claims must hold on any x86-64 CPU, and float32
results differ in their last bits between instruction sets, so a claim that a last bit decides fails
here rather than on a reader's machine (every cell must run without error: a failing claim raises).
nbval compares the ledger-summary cell (``# NBVAL_CHECK_OUTPUT``) exactly, each row's id and status,
with the measured numbers left out (:data:`SANITIZE`); the two ledgers are then compared by
:func:`rnnrepro.book.rerun.compare_ledgers`: statuses, verdicts, criteria, strings and integers exactly,
floats within what a changed instruction set can do to them (determinism: an unseeded draw or an order
that depends on the process shows here).

The re-run is also the run on a machine without a C++ compiler (:func:`rnnrepro.book.machine.no_compiler_env`:
``CXX`` names a missing program, ``RNNREPRO_BUILD_DIR`` is an empty folder, so no cached extension loads): ribeiro's
fused LSTM trainer then falls back to the pure-PyTorch one, its ledger must record that it did
(``environment.fallbacks``), and its verdicts must match the build's, which trained with the compiled one. Every
other chapter compiles nothing and must record no fallback. Deselect with ``-m "not chapter"`` for a quick
unit-test run.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rnnrepro.book import machine
from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.ledger import OBSERVED, STATUSES, VERIFIED
from rnnrepro.book.rerun import compare_ledgers, largest_difference
from rnnrepro.book.runner import run_chapter
from rnnrepro.ribeiro.fused_lstm import FALLBACK as FUSED_FALLBACK

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

#: nbval's sanitizer for the re-run: the summary's rows compared without their measured numbers (those are
#: compared by compare_ledgers, within what a changed instruction set allows).
SANITIZE = """[measured values]
regex: (?m); measured .*$
replace: ; measured (compared in the ledgers)
"""


def lower_isa() -> dict[str, str]:
    """The environment that forces the kernels one instruction set lower ({} where nothing is lower)."""
    try:
        return machine.lower_isa_env()
    except ValueError:
        return {}


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
@pytest.mark.portability
@pytest.mark.parametrize("key", list(all_chapters()))
def test_chapter_fast_profile_deterministic_and_portable(key, tmp_path):
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
    (tmp_path / "sanitize.cfg").write_text(SANITIZE)
    forced = lower_isa()
    (tmp_path / "no-build").mkdir()
    env = dict(os.environ, RNNREPRO_OUT=str(tmp_path / "rerun"), **forced,
               **machine.no_compiler_env(str(tmp_path / "no-build")))
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "--nbval-lax", "--nbval-sanitize-with", str(tmp_path / "sanitize.cfg"),
                          "--rootdir", str(tmp_path), str(notebook)],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert res.returncode == 0, f"{key} re-run under {forced or 'the native kernels'}:\n{res.stdout[-4000:]}"
    again = json.loads((tmp_path / "rerun" / f"{key}.ledger.json").read_text())
    if forced:
        assert again["environment"]["cpu"]["capability"] == forced["ATEN_CPU_CAPABILITY"].upper()
    took = again["environment"].get("fallbacks", {})
    if key == "ribeiro":          # the one chapter with compiled code: it ran without it, and says why
        assert set(took) == {FUSED_FALLBACK} and "no C++ compiler" in took[FUSED_FALLBACK], took
        assert not list((tmp_path / "no-build").rglob("*.so")), "an extension was compiled without a compiler"
    else:
        assert not took, f"{key} fell back without a C++ compiler: {took}"
    problems = compare_ledgers(ledger, again)
    diff, where = largest_difference(ledger, again)
    print(f"{key}: re-run under {forced.get('ATEN_CPU_CAPABILITY', 'native').upper()} without a C++ compiler"
          f"{' (' + ', '.join(took) + ' fell back)' if took else ''}: largest relative difference "
          f"{diff:.2e} ({where or 'none'}) in {again['wall_time_s']['total']:.0f} s")
    assert not problems, "\n".join(problems)
