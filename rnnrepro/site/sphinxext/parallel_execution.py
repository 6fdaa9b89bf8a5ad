"""Sphinx extension: the chapters execute side by side, as many at once as the machine has cores.

myst-nb executes a notebook when Sphinx reads its page, one page after another; every chapter runs on
one thread (:func:`rnnrepro.book.determinism.seed_everything`), so on a two-core machine half the
machine idles through the longest part of the build. Before any page is read (``builder-inited``,
after :mod:`.execution_cache` has dropped what is stale), this executes every chapter page that the
execution cache does not hold, in a pool of worker processes, and puts each executed notebook into
the cache exactly as myst-nb would. When Sphinx then reads the pages, myst-nb finds them in the cache
("Using cached notebook") and executes nothing again: each chapter still executes once per build.

- **How many at once.** ``$RNNREPRO_BUILD_JOBS`` when set (``1`` turns this off: myst-nb executes each
  page as it reads it), else the number of cores this process may use, at most the number of chapters
  to execute. The longest chapters start first (their last ledger's wall time, else the recorded `fast`
  time of rnnrepro.book.fast_budget.RECORDED on a fresh clone, else their size).
- **No budget.** The per-cell timeout of ``_config.yml`` (``execute: timeout``) is a hang guard, the same
  one myst-nb applies. A line every 30 s names the chapters executing, their sections and how long
  they have run.
- **A failing chapter** stops the build as soon as it fails, with its error (the chapter's
  ``<key>.failed.txt`` names the claim); the chapters still executing are stopped.
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.errors import ExtensionError
from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx

LOGGER = logging.getLogger(__name__)
JOBS_ENV = "RNNREPRO_BUILD_JOBS"
HEARTBEAT_S = 30.0


def build_jobs(n_pages: int, environ=os.environ) -> int:
    """How many chapters execute at once: ``$RNNREPRO_BUILD_JOBS``, else the usable cores; at most
    ``n_pages``, at least 1. Raises ValueError (what to set) for a value that is not a positive integer."""
    raw = environ.get(JOBS_ENV, "").strip()
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise ValueError(f"${JOBS_ENV}={raw!r}: set it to a positive integer (1 executes the chapters one "
                             f"after another), or unset it to use every core")
        jobs = int(raw)
    else:
        from rnnrepro.book.machine import usable_cores

        jobs = usable_cores()
    return max(1, min(jobs, n_pages))


def longest_first(pages: list[tuple[str, Path]], last_wall_time) -> list[tuple[str, Path]]:
    """``pages`` ((docname, source path)) ordered longest first: by ``last_wall_time(docname)`` (seconds,
    or None when unknown), unknown ones after the known, by source size."""
    def key(page):
        seconds = last_wall_time(page[0])
        return (0, -seconds) if seconds is not None else (1, -page[1].stat().st_size)
    return sorted(pages, key=key)


def _execute(notebook, cwd: str, timeout: int | None):
    """Worker: execute ``notebook`` in place in ``cwd`` (myst-nb's call, its kernels over IPC);
    return (the executed notebook, seconds, error text or None)."""
    from jupyter_cache.executors.utils import single_nb_execution

    from rnnrepro.site.sphinxext.ipc_kernels import use_ipc_kernels

    use_ipc_kernels()
    result = single_nb_execution(notebook, cwd=cwd, allow_errors=False, timeout=timeout, meta_override=True)
    return notebook, result.time, (result.exc_string or repr(result.err)) if result.err is not None else None


def _chapter_pages(app: Sphinx) -> list[tuple[str, Path]]:
    """(docname, source path) of every chapter of the registry that this build reads."""
    from rnnrepro.book.chapters import all_chapters
    from rnnrepro.book.paths import REPO

    docnames = app.env.found_docs
    pages = []
    for chapter in all_chapters().values():
        path = (REPO / chapter.notebook).resolve()
        docname = str(Path(chapter.notebook).with_suffix(""))
        if docname in docnames and path.is_file():
            pages.append((docname, path))
    return pages


def _last_wall_time(docname: str) -> float | None:
    """The chapter's wall time in this folder's last build, else its recorded `fast` time
    (rnnrepro.book.fast_budget.RECORDED, for a fresh clone), else None."""
    from rnnrepro.book.chapters import chapter_of_page, get_chapter
    from rnnrepro.book.fast_budget import recorded_seconds
    from rnnrepro.site.sphinxext.execution_cache import built_ledger

    key = chapter_of_page(docname)
    try:
        return float(json.loads(built_ledger(get_chapter(key)).read_text())["wall_time_s"]["total"])
    except (OSError, KeyError, TypeError, ValueError):
        return recorded_seconds(key)


def _read_notebook(app: Sphinx, path: Path):
    """The page read as myst-nb reads it (so that the cache matches it when Sphinx reads the page)."""
    from myst_nb.core.read import create_nb_reader

    text = path.read_text(encoding="utf8")
    reader = create_nb_reader(str(path), app.env.myst_config, app.env.mystnb_config, text)
    return reader.read(text), reader.read_fmt


def _on_builder_inited(app: Sphinx) -> None:
    config = getattr(app.env, "mystnb_config", None)
    if config is None or config.execution_mode != "cache":
        return
    from jupyter_cache import get_cache

    cache = get_cache(str(config.execution_cache_path))
    todo = []
    for docname, path in _chapter_pages(app):
        notebook, read_fmt = _read_notebook(app, path)
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            todo.append((docname, path, notebook, read_fmt))
    try:
        jobs = build_jobs(len(todo))
    except ValueError as exc:
        raise ExtensionError(str(exc)) from None
    if len(todo) < 2 or jobs < 2:
        return                                    # myst-nb executes what is left as it reads each page
    order = {doc: i for i, (doc, _) in enumerate(longest_first([(d, p) for d, p, _, _ in todo], _last_wall_time))}
    todo.sort(key=lambda item: order[item[0]])
    LOGGER.info(f"[rnnrepro] executing {len(todo)} chapters, {jobs} at once: "
                + ", ".join(Path(d).name for d, *_ in todo))
    execute_all(todo, jobs, cache, config.execution_timeout)


def execute_all(todo, jobs: int, cache, timeout: int | None) -> None:
    """Execute ``todo`` ((docname, path, notebook, read format)) ``jobs`` at once and cache each executed
    notebook under its path, as myst-nb does; raise ExtensionError at the first that fails."""
    from jupyter_cache.base import CacheBundleIn

    from rnnrepro.site.sphinxext.heartbeat import chapter_section

    started, running = time.monotonic(), {}
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"))
    try:
        for docname, path, notebook, read_fmt in todo:
            cache.add_nb_to_project(str(path), **({"read_data": read_fmt} if read_fmt is not None else {}))
            running[pool.submit(_execute, notebook, str(path.parent), timeout)] = (docname, path)
        pending = set(running)
        while pending:
            done, pending = wait(pending, timeout=HEARTBEAT_S, return_when=FIRST_COMPLETED)
            for future in done:
                docname, path = running[future]
                executed, seconds, error = future.result()
                if error is not None:
                    raise ExtensionError(f"executing {docname} failed after {seconds:.0f} s "
                                         f"(reproduce: python -m rnnrepro run {Path(docname).name}):\n"
                                         + error[-3000:])
                cache.cache_notebook_bundle(CacheBundleIn(executed, str(path), data={"execution_seconds": seconds}),
                                            check_validity=False, overwrite=True)
                LOGGER.info(f"[rnnrepro] executed {docname} in {seconds:.1f} s")
            if pending and not done:
                sections = {running[f][0]: chapter_section(running[f][0]) for f in pending}
                busy = [f"{Path(doc).name} ({section})" for doc, section in sections.items() if section]
                LOGGER.info(f"[rnnrepro] executing {', '.join(busy) or 'the chapters (starting)'}; "
                            f"{len(pending) - len(busy)} more to run or starting; "
                            f"{time.monotonic() - started:.0f} s in all")
    except BaseException:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()                   # chapters still executing stop with the build
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _on_builder_inited, priority=950)   # after execution_cache's guard (900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
