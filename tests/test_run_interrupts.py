"""`python -m rnnrepro run` stopped by Ctrl-C, or pointed at a folder it cannot write: one line each,
no traceback, and nothing left that `list` could take for a result."""

import errno
import signal
import subprocess
import sys
import time

import pytest

from rnnrepro.book import cli, runner
from rnnrepro.errors import RnnreproError


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def test_ctrl_c_prints_one_line_exits_130_and_keeps_no_partial_result(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "rnnrepro", "run", "dynamics", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out / "dynamics.section").is_file():          # the chapter's first section has started
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    lines = _lines(stderr)
    assert len(lines) == 1 and lines[0].startswith("interrupted: dynamics stopped after"), stderr
    assert sorted(p.name for p in out.iterdir()) == ["dynamics.failed.txt"]
    status = cli.ledger_status(out / "dynamics.ledger.json")
    assert status.startswith("FAILED") and "interrupted (Ctrl-C)" in status, status


def test_ctrl_c_while_a_cell_is_being_scheduled_still_prints_one_line(tmp_path):
    """Ctrl-C can land between nbclient's creating a cell's coroutine and awaiting it (seen once in CI): the
    coroutine is then never awaited, and Python's warning about it must not follow the one line."""
    code = ("import sys\n"
            "from rnnrepro.book import cli\n"
            "async def cell():\n"
            "    pass\n"
            "def interrupted(*args, **kwargs):\n"
            "    scheduled = cell()\n"
            "    raise KeyboardInterrupt\n"
            "cli.run_chapter = interrupted\n"
            f"sys.exit(cli.main(['run', 'dynamics', '--out', {str(tmp_path / 'out')!r}]))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    lines = _lines(res.stderr)
    assert res.returncode == 130 and len(lines) == 1, res.stderr
    assert lines[0].startswith("interrupted: dynamics stopped after"), res.stderr


def test_a_folder_that_cannot_hold_the_output_gives_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    res = subprocess.run([sys.executable, "-m", "rnnrepro", "run", "dynamics", "--out", str(blocker / "sub")],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    lines = _lines(res.stderr)
    assert len(lines) == 1 and lines[0].startswith(f"error: cannot write to the output folder {blocker / 'sub'}")
    assert "--out" in lines[0] and res.stdout == ""


def test_a_read_only_folder_is_refused_before_anything_runs(tmp_path, monkeypatch):
    """A read-only mount (EROFS; root may write into a chmod-ed folder, so the error is injected)."""
    import tempfile

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", read_only)
    with pytest.raises(RnnreproError, match=r"cannot write to the output folder .*\(Read-only file system\): "
                                            r"choose a writable folder with --out"):
        runner.writable_out(tmp_path)
    assert cli.main(["run", "dynamics", "--out", str(tmp_path)]) == 2
    assert list(tmp_path.iterdir()) == []


def test_discard_partial_run_removes_only_that_chapters_outputs(tmp_path):
    for name in ("li.ipynb", "li.section", "li.ledger.json", "li.failed.txt", "dynamics.ipynb"):
        (tmp_path / name).write_text("x")
    (tmp_path / "li.figures").mkdir()
    (tmp_path / "li.figures" / "fig1.npz").write_text("x")
    runner.discard_partial_run(tmp_path, "li")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dynamics.ipynb", "li.failed.txt"]


def test_what_a_kernel_writes_to_its_stderr_still_reaches_ours(capfd):
    """The kernel's stderr is kept in a file while it runs (so that Ctrl-C can drop it) and forwarded
    when the kernel shuts down normally."""
    import nbformat
    import papermill

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('import os; os.write(2, b"from-the-kernel\\n")')])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    papermill.execute_notebook(nb, None, kernel_name="python3", progress_bar=False,
                               kernel_manager_class=runner.ipc_kernel_manager())
    assert "from-the-kernel" in capfd.readouterr().err


def test_forward_kernel_stderr_copies_and_closes(tmp_path, capsys):
    handle = open(tmp_path / "kernel.stderr", "w+b")
    handle.write(b"a warning\n")
    km = type("KM", (), {"_stderr": handle})()
    runner.forward_kernel_stderr(km)
    assert capsys.readouterr().err == "a warning\n" and handle.closed and km._stderr is None
    runner.forward_kernel_stderr(km)            # nothing left to forward


def test_a_failed_run_leaves_only_its_failed_txt_and_list_says_it_failed(tmp_path, capsys):
    """A run stopped by a failing claim (dynamics' first exercise, which stops within seconds) leaves no
    partial notebook, no section marker and no figure data: only ``<key>.failed.txt``, which ``list`` shows."""
    import papermill

    from rnnrepro.book.chapters import get_chapter
    from rnnrepro.book.exercises import read_exercises
    from rnnrepro.book.paths import REPO

    chapter = get_chapter("dynamics")
    exercise = next(ex for ex in read_exercises((REPO / chapter.notebook).read_text()) if ex.kind == "predict")
    overrides = {name: chapter.param(name).parse(value) for name, value in exercise.overrides}
    with pytest.raises(papermill.PapermillExecutionError):
        runner.run_chapter("dynamics", "fast", overrides, tmp_path, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dynamics.failed.txt"]
    assert cli.main(["list", "--out", str(tmp_path)]) == 0
    assert "last run: FAILED " in capsys.readouterr().out
    assert exercise.claim in cli.ledger_status(tmp_path / "dynamics.ledger.json")


def test_after_ctrl_c_a_dying_kernel_is_not_logged_and_other_errors_still_are(caplog):
    """What papermill's client and asyncio log when the kernel that Ctrl-C stopped dies under a cell still waiting
    for its reply (seen in a CI run: "Kernel died while waiting for execute reply" and "Task exception was never
    retrieved" with a DeadKernelError traceback after the one line) is dropped; any other error is printed."""
    import logging

    from nbclient.exceptions import DeadKernelError

    from rnnrepro.book import runner

    log, aio = logging.getLogger("papermill"), logging.getLogger("asyncio")
    try:
        runner.quiet_dying_kernels()
        log.error("Kernel died while waiting for execute reply.")
        try:
            raise DeadKernelError("Kernel died")
        except DeadKernelError as err:
            aio.error("Task exception was never retrieved", exc_info=(type(err), err, err.__traceback__))
        log.error("another error")
        aio.error("another task error", exc_info=(ValueError, ValueError("x"), None))
    finally:
        log.removeFilter(runner._DYING_KERNEL)
        aio.removeFilter(runner._DYING_KERNEL)
    logged = [record.getMessage() for record in caplog.records]
    assert logged == ["another error", "another task error"], logged
