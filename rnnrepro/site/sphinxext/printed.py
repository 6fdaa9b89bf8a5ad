"""Sphinx extension: the build itself makes every file the pages offer for download beyond the page.

After an HTML build (``build-finished``, after :mod:`.downloads` has put each chapter's ledger and figure
data beside its page):

- each chapter's PDF, ``_pdf/<key>.pdf``, printed from its built page by headless Chromium
  (:mod:`rnnrepro.site.pdf`: every folded section open, no buttons), and the whole book in one PDF,
  ``_pdf/rnnrepro.pdf`` (the landing page, then every chapter); a PDF newer than its page is kept, so a
  rebuild that changed nothing prints nothing;
- every executed notebook of the book in one zip, ``_notebooks/rnnrepro-notebooks.zip`` (the executed
  ``.ipynb`` that each page offers, under its page's path).

Printing needs Chromium and poppler (Debian: ``chromium``, ``poppler-utils``) and is skipped when
``RNNREPRO_PDF=0``. Without them the build says so in one line (not a warning: ``-W`` does not fail on a
machine without a browser) and no page offers a PDF (:func:`pdf_offered`, read by :mod:`.downloads`).
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

NOTEBOOKS_DIR = "_notebooks"
NOTEBOOKS_ZIP = "rnnrepro-notebooks.zip"
#: ``RNNREPRO_PDF=0`` builds without printing (a quick build while writing; the pages then offer no PDF).
ENV = "RNNREPRO_PDF"


def pdf_offered(app: Sphinx) -> bool:
    """Whether this build prints the PDFs (and so whether pages offer them): decided once, when the
    builder starts (:func:`_decide`)."""
    return bool(getattr(app, "rnnrepro_pdf", False))


def why_no_pdf() -> str | None:
    """Why this build makes no PDF, in one line, or None when it makes them."""
    from rnnrepro.site.pdf import missing_tools

    if os.environ.get(ENV, "1") == "0":
        return f"{ENV}=0"
    missing = missing_tools()
    if missing:
        return f"{', '.join(missing)} not installed (Debian: apt-get install chromium poppler-utils)"
    return None


def _decide(app: Sphinx) -> None:
    app.rnnrepro_pdf = False
    if app.builder.format != "html":
        return
    reason = why_no_pdf()
    app.rnnrepro_pdf = reason is None
    if reason:
        logger.info(f"[rnnrepro] no chapter or book PDF in this build ({reason}): the pages do not offer one")


def notebooks_zip(outdir: Path, pages: list[str]) -> Path | None:
    """Zip the executed notebooks of ``pages`` (``_sources/<page>.ipynb``, put there by :mod:`.launch`)
    into ``<outdir>/_notebooks/rnnrepro-notebooks.zip``; None when no page has one."""
    outdir = Path(outdir)
    found = [(outdir / "_sources" / f"{page}.ipynb", f"{page}.ipynb") for page in pages]
    found = [(path, name) for path, name in found if path.is_file()]
    if not found:
        return None
    target = outdir / NOTEBOOKS_DIR / NOTEBOOKS_ZIP
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, name in found:
            zf.write(path, f"rnnrepro/{name}")
    return target


def make_prints(app: Sphinx, exception) -> None:
    """``build-finished``: the notebooks zip; with Chromium and poppler, every chapter's PDF and the book's."""
    if exception is not None or app.builder.format != "html":
        return
    from rnnrepro.book.paths import toc_files

    notebooks_zip(Path(app.outdir), toc_files())
    if not pdf_offered(app):
        return
    from rnnrepro.site.browser_check import find_chromium
    from rnnrepro.site.pdf import make_book_pdf, make_pdfs

    chromium = find_chromium()
    logger.info("[rnnrepro] printing each chapter's PDF and the book's (headless Chromium)")
    outdir = Path(app.outdir)
    chapters = make_pdfs(outdir, chromium, stale_only=True)
    make_book_pdf(outdir, chromium, chapters, app.builder.get_target_uri(app.config.root_doc), stale_only=True)


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _decide)
    app.connect("build-finished", make_prints, priority=800)   # after .downloads (500) copied the ledgers
    return {"parallel_read_safe": True, "parallel_write_safe": True}
