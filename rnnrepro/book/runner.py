"""Execute a chapter notebook with papermill: what ``run``, the tests and the sensitivity runs share."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from rnnrepro.book.chapters import get_chapter
from rnnrepro.book.paths import DEFAULT_OUT, OUT_ENV, REPO
from rnnrepro.book.profiles import check_profile
from rnnrepro.errors import RnnreproError


def run_chapter(key: str, profile: str = "fast", overrides: dict | None = None, out: Path = DEFAULT_OUT,
                progress: bool | None = None) -> dict:
    """Execute a chapter notebook with papermill; return its ledger (the parsed JSON).

    Writes ``<out>/<key>.ipynb``, ``<out>/<key>.ledger.json`` and ``<out>/<key>.figures/``.
    Raises ``papermill.PapermillExecutionError`` if a cell fails (a claim included); the failure is
    then recorded in ``<out>/<key>.failed.txt`` (what ``list`` shows) until the next successful run.
    """
    chapter = get_chapter(key)
    check_profile(profile)
    chapter.resolve(profile, overrides)  # fail before starting a kernel
    check_chapter_data(chapter)
    import jupytext
    import papermill
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    ledger_path, failed_path = out / f"{key}.ledger.json", out / f"{key}.failed.txt"
    ledger_path.unlink(missing_ok=True)
    failed_path.unlink(missing_ok=True)
    source = REPO / chapter.notebook
    previous = os.environ.get(OUT_ENV)
    os.environ[OUT_ENV] = str(out)
    try:
        papermill.execute_notebook(
            jupytext.read(source), str(out / f"{key}.ipynb"),
            parameters={"profile": profile, "overrides": dict(overrides or {})},
            cwd=str(source.parent), kernel_name="python3", log_output=False,
            progress_bar=sys.stderr.isatty() if progress is None else progress,
            kernel_manager_class=ipc_kernel_manager())
    except papermill.PapermillExecutionError as exc:
        if not failed_path.is_file():   # a failing claim has written it already (Ledger._fail)
            first = exc.evalue.splitlines()[0] if exc.evalue else ""
            failed_path.write_text(f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {profile}: {exc.ename}: {first}\n")
        raise
    finally:
        if previous is None:
            os.environ.pop(OUT_ENV, None)
        else:
            os.environ[OUT_ENV] = previous
    if not ledger_path.is_file():
        raise RnnreproError(f"{key} ran but wrote no ledger: its last cell must call ledger.finish()")
    return json.loads(ledger_path.read_text())


def check_chapter_data(chapter) -> None:
    """Raise DataError (naming the folder and ``fetch-data``) unless the chapter's data files are there."""
    if chapter.data:
        from rnnrepro.data import check_files

        check_files(chapter.data, who=f"chapter {chapter.key}")


def ipc_kernel_manager():
    """A kernel manager whose kernel talks over local IPC sockets, not TCP: nothing is sent over the
    network, and ipykernel has no reason to warn about TCP without encryption. Each kernel's sockets
    live in a fresh temporary folder (jupyter_client's default, ``kernel-ipc-N`` in the working
    directory, left socket files beside the chapters, and a second kernel in one process collided
    with the first's)."""
    import shutil
    import tempfile

    from jupyter_client import AsyncKernelManager

    class IPCKernelManager(AsyncKernelManager):
        def __init__(self, **kwargs):
            base = tempfile.gettempdir()
            if len(base) > 60 and os.path.isdir("/tmp"):      # a socket's path must stay under ~100 characters
                base = "/tmp"
            self._ipc_folder = tempfile.mkdtemp(prefix="rnnrepro-kernel-", dir=base)
            super().__init__(transport="ipc", ip=os.path.join(self._ipc_folder, "kernel-ipc"), **kwargs)

        async def _async_cleanup_resources(self, restart: bool = False) -> None:
            await super()._async_cleanup_resources(restart=restart)
            if not restart:
                shutil.rmtree(self._ipc_folder, ignore_errors=True)

    return IPCKernelManager
