"""Execute a chapter notebook with papermill: what ``run``, the tests and the sensitivity runs share."""

from __future__ import annotations

import json
import logging
import os
import sys
import signal
import threading
import time
import weakref
from contextlib import contextmanager
from pathlib import Path

from rnnrepro.book.chapters import get_chapter
from rnnrepro.book.explore import select_section
from rnnrepro.book.paths import DEFAULT_OUT, OUT_ENV, REPO
from rnnrepro.book.profiles import check_profile
from rnnrepro.errors import RnnreproError


def run_chapter(key: str, profile: str = "fast", overrides: dict | None = None, out: Path = DEFAULT_OUT,
                progress: bool | None = None, only: str | None = None) -> dict:
    """Execute a chapter notebook with papermill; return its ledger (the parsed JSON).

    ``only`` names a section (:func:`~rnnrepro.book.explore.section_names`): then only the chapter's first cells,
    that section's, the cells they need and its last cell run (:func:`~rnnrepro.book.explore.select_section`), as
    strictly as the whole chapter, and the ledger is marked ``"only": <section>`` (an exercise's run: a result of
    one section, never the chapter's). An unknown section raises ConfigError before a kernel starts.

    Writes ``<out>/<key>.ipynb``, ``<out>/<key>.ledger.json`` and ``<out>/<key>.figures/``.
    Raises ``papermill.PapermillExecutionError`` if a cell fails (a claim included); the failure is
    then recorded in ``<out>/<key>.failed.txt`` (what ``list`` shows) until the next successful run, and
    the run's partial outputs (the notebook executed up to the failure, the section marker, the figure
    data) are removed, so that only ``failed.txt`` remains (in a sensitivity run, ``$RNNREPRO_PERTURB``, the
    ledger that collected the failing rows is kept: it is that run's result).
    An interrupted run (KeyboardInterrupt) removes its partial outputs, records the interruption the
    same way and re-raises. An output folder that cannot be written is refused before anything runs.
    """
    import papermill

    from rnnrepro.book.ledger import ONLY_ENV
    source, notebook = checked_notebook(key, profile, overrides, only)
    out = writable_out(out)
    ledger_path, failed_path = out / f"{key}.ledger.json", out / f"{key}.failed.txt"
    ledger_path.unlink(missing_ok=True)
    failed_path.unlink(missing_ok=True)
    t0 = time.perf_counter()
    try:
        with environment({OUT_ENV: str(out), ONLY_ENV: only or ""}):
            execute(notebook, source.parent, out / f"{key}.ipynb", profile, overrides, progress)
    except papermill.PapermillExecutionError as exc:
        if not failed_path.is_file():   # a failing claim has written it already (Ledger._fail)
            first = exc.evalue.splitlines()[0] if exc.evalue else ""
            failed_path.write_text(f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {profile}: {exc.ename}: {first}\n")
        from rnnrepro.book.ledger import PERTURB_ENV

        discard_partial_run(out, key, keep_ledger=bool(os.environ.get(PERTURB_ENV)))
        raise
    except KeyboardInterrupt:
        kill_kernels()
        discard_partial_run(out, key)
        failed_path.write_text(f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {profile}: interrupted (Ctrl-C) after "
                               f"{time.perf_counter() - t0:.0f} s; its partial outputs were removed\n")
        raise
    if not ledger_path.is_file():
        raise RnnreproError(f"{key} ran but wrote no ledger: its last cell must call ledger.finish()")
    return json.loads(ledger_path.read_text())


def checked_notebook(key: str, profile: str, overrides: dict | None, only: str | None = None):
    """(path, notebook read by jupytext) of chapter ``key``'s page, reduced to section ``only`` when given
    (:func:`~rnnrepro.book.explore.select_section`), once the profile, the overrides, the section and the
    chapter's data are known to be good: a bad one raises ConfigError or DataError before a kernel starts."""
    import jupytext

    chapter = get_chapter(key)
    check_profile(profile)
    chapter.resolve(profile, overrides)
    source = REPO / chapter.notebook
    notebook = jupytext.read(source)
    if only is not None:
        notebook = select_section(notebook, only, key)
    check_chapter_data(chapter)
    return source, notebook


def execute(notebook, cwd: Path, path: Path, profile: str, overrides: dict | None, progress: bool | None,
            **engine) -> None:
    """Execute ``notebook`` (a chapter read by jupytext) with papermill in folder ``cwd``, writing the executed
    notebook to ``path``; ``engine`` goes to nbclient (``allow_errors=True``: an exploration run goes on past a
    cell that raised). Raises ``papermill.PapermillExecutionError`` for the first cell that raised."""
    import papermill

    with noting_interrupts():
        papermill.execute_notebook(
            notebook, str(path), parameters={"profile": profile, "overrides": dict(overrides or {})},
            cwd=str(cwd), kernel_name="python3", log_output=False,
            progress_bar=sys.stderr.isatty() if progress is None else progress,
            kernel_manager_class=ipc_kernel_manager(), engine_name=_sparing_engine(), **engine)


#: The least time between two writes of the executed notebook while a chapter runs (seconds).
SAVE_EVERY_S = 30.0


def _sparing_engine() -> str:
    """The name under which papermill knows the runner's engine: its nbclient engine with the writes of the
    executed notebook spaced :data:`SAVE_EVERY_S` apart. papermill writes the whole notebook, figures and all,
    when each cell starts and ends, which cost a `fast` run about a fifth of its time on top (flynn: 11 s of CPU
    in a 50 s run); papermill still writes it whole when the run ends or a cell raises (``papermill.execute``),
    so only the snapshots in between are fewer."""
    from papermill.engines import NBClientEngine, papermill_engines

    class SparingEngine(NBClientEngine):
        @classmethod
        def execute_managed_notebook(cls, nb_man, kernel_name, **kwargs):
            save = nb_man.save

            def save_now_and_then(**kw):
                if (nb_man.now() - nb_man.last_save_time).total_seconds() >= SAVE_EVERY_S:
                    save(**kw)

            nb_man.save = save_now_and_then
            return super().execute_managed_notebook(nb_man, kernel_name, **kwargs)

    papermill_engines.register("rnnrepro", SparingEngine)             # again on each call: the same engine
    return "rnnrepro"


@contextmanager
def environment(values: dict[str, str]):
    """Set the environment variables ``values`` (inherited by the kernels started meanwhile); restore them after."""
    previous = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in previous.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def writable_out(out: Path) -> Path:
    """``out`` resolved and created, after checking that a file can be written there; raises
    RnnreproError (one line naming the folder and ``--out``) when it cannot, before anything runs."""
    import tempfile

    out = Path(out).resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise RnnreproError(f"cannot write to the output folder {out} ({exc.strerror or exc}): "
                            f"choose a writable folder with --out") from None
    return out


def discard_partial_run(out: Path, key: str, *, keep_ledger: bool = False) -> None:
    """Remove what a failed or interrupted run of chapter ``key`` left in ``out`` (its executed notebook,
    figure data, section marker and, unless ``keep_ledger``, its ledger), so that nothing of it can pass for
    a result; its ``failed.txt`` stays."""
    import shutil

    for name in (f"{key}.ipynb", f"{key}.section") + (() if keep_ledger else (f"{key}.ledger.json",)):
        (out / name).unlink(missing_ok=True)
    shutil.rmtree(out / f"{key}.figures", ignore_errors=True)


def check_chapter_data(chapter) -> None:
    """Raise DataError (naming the folder and ``fetch-data``) unless the chapter's data files are there."""
    if chapter.data:
        from rnnrepro.data import check_files

        check_files(chapter.data, who=f"chapter {chapter.key}")


_LIVE_KERNELS = weakref.WeakSet()   # the kernel managers of ipc_kernel_manager(), for kill_kernels()
_INTERRUPTED = threading.Event()    # set by Ctrl-C during a run: kernels' stderr is then dropped


class _DyingKernel(logging.Filter):
    """Drops the records that a kernel stopped by Ctrl-C makes papermill's client and asyncio log: "Kernel died
    while waiting for execute reply" and the cell task's DeadKernelError that nobody awaits any more ("Task
    exception was never retrieved", with its traceback). The run's own one line says what happened."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (type(error).__name__ == "DeadKernelError" or "Kernel died" in record.getMessage())


_DYING_KERNEL = _DyingKernel()


def quiet_dying_kernels() -> None:
    """After Ctrl-C, for the rest of the process: what :class:`_DyingKernel` drops is not printed."""
    for name in ("papermill", "asyncio"):
        logging.getLogger(name).addFilter(_DYING_KERNEL)


@contextmanager
def noting_interrupts():
    """Ctrl-C (SIGINT) raises KeyboardInterrupt as usual, after noting it, so that the kernels shut down
    on the way out do not forward what the interruption made them print (:func:`forward_kernel_stderr`), nor
    papermill and asyncio log the kernel's death (:func:`quiet_dying_kernels`)."""
    _INTERRUPTED.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def note(signum, frame):
        _INTERRUPTED.set()
        quiet_dying_kernels()
        signal.default_int_handler(signum, frame)

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def kill_kernels() -> None:
    """Kill every kernel this process started that is still running, and drop what it wrote to its
    stderr (after Ctrl-C: nbclient's own shutdown is cut short, it may have interrupted the kernel, and
    a kernel left to notice its closed sockets prints a traceback)."""
    import shutil

    for km in list(_LIVE_KERNELS):
        process = getattr(getattr(km, "provisioner", None), "process", None)
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        if getattr(km, "_stderr", None) is not None:
            km._stderr.close()
            km._stderr = None
        shutil.rmtree(km._ipc_folder, ignore_errors=True)


def forward_kernel_stderr(km) -> None:
    """Copy what kernel manager ``km``'s kernel wrote to its stderr (kept in a file while it ran, so
    that Ctrl-C can drop it) to this process's stderr, unless the run was interrupted; close the file."""
    handle, km._stderr = getattr(km, "_stderr", None), None
    if handle is None:
        return
    if _INTERRUPTED.is_set():            # an interrupted kernel's complaints: not the user's business
        handle.close()
        return
    with handle:
        handle.seek(0)
        text = handle.read().decode(errors="replace")
    if text:
        sys.stderr.write(text)
        sys.stderr.flush()


def ipc_kernel_manager():
    """A kernel manager whose kernel talks over local IPC sockets, not TCP: nothing is sent over the
    network, and ipykernel has no reason to warn about TCP without encryption. Each kernel's sockets
    live in a fresh temporary folder (jupyter_client's default, ``kernel-ipc-N`` in the working
    directory, left socket files beside the chapters, and a second kernel in one process collided
    with the first's). On Windows, whose ZeroMQ has no IPC sockets, the kernel talks over TCP on 127.0.0.1."""
    import shutil
    import tempfile

    from jupyter_client import AsyncKernelManager

    class IPCKernelManager(AsyncKernelManager):
        def __init__(self, **kwargs):
            base = tempfile.gettempdir()
            if len(base) > 60 and os.path.isdir("/tmp"):      # a socket's path must stay under ~100 characters
                base = "/tmp"
            self._ipc_folder = tempfile.mkdtemp(prefix="rnnrepro-kernel-", dir=base)
            where = (dict(transport="tcp", ip="127.0.0.1") if sys.platform == "win32"
                     else dict(transport="ipc", ip=os.path.join(self._ipc_folder, "kernel-ipc")))
            super().__init__(**where, **kwargs)
            _LIVE_KERNELS.add(self)

        async def _async_launch_kernel(self, kernel_cmd, **kw) -> None:
            self._stderr = open(os.path.join(self._ipc_folder, "kernel.stderr"), "w+b")
            await super()._async_launch_kernel(kernel_cmd, **dict(kw, stderr=self._stderr))

        async def _async_cleanup_resources(self, restart: bool = False) -> None:
            await super()._async_cleanup_resources(restart=restart)
            if not restart:
                forward_kernel_stderr(self)
                shutil.rmtree(self._ipc_folder, ignore_errors=True)

    return IPCKernelManager
