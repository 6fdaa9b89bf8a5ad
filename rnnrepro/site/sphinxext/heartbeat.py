"""A line every 30 s while a page is read: executing a chapter takes minutes, and Sphinx prints nothing
between "Executing notebook" and "Executed notebook". The line names the page, how long it has run and,
for a chapter, the section of it being executed (which the chapter's ledger writes to ``<key>.section``
beside its executed notebook)."""

from __future__ import annotations

import threading
import time

from pathlib import Path

from sphinx.util import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)


class Heartbeat:
    """Calls ``say(message)`` every ``every`` seconds while a page is being read (one daemon thread);
    ``section_of(page)`` (optional) names the part of the page being executed, or returns ""."""

    def __init__(self, say, every: float = 30.0, section_of=None):
        self.say, self.every, self.section_of = say, every, section_of
        self.page, self.since = None, 0.0
        self._lock, self._stop = threading.Lock(), threading.Event()
        self._thread = None

    def reading(self, page: str) -> None:
        """``page`` is now being read (replaces the previous one)."""
        with self._lock:
            self.page, self.since = page, time.monotonic()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            with self._lock:
                page, since = self.page, self.since
            if page is not None and time.monotonic() - since >= self.every / 2:   # not a page just begun
                section = self.section_of(page) if self.section_of else ""
                self.say(f"still reading {page}: {time.monotonic() - since:.0f} s"
                         + (f", section {section}" if section else ""))


def chapter_section(page: str) -> str:
    """The section a chapter page's execution is in (``<key>.section`` beside its executed notebook), or ""."""
    from rnnrepro.book.chapters import chapter_of_page, get_chapter
    from rnnrepro.book.paths import output_dir

    key = chapter_of_page(page)
    if key is None:
        return ""
    try:
        return (Path(output_dir(get_chapter(key).notebook)) / f"{key}.section").read_text().strip()
    except OSError:
        return ""


def setup(app: Sphinx) -> dict:
    beat = Heartbeat(lambda message: logger.info(f"[rnnrepro] {message}"), section_of=chapter_section)
    app.connect("source-read", lambda app, docname, source: beat.reading(docname))
    app.connect("env-updated", lambda app, env: beat.stop())
    app.connect("build-finished", lambda app, exc: beat.stop())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
