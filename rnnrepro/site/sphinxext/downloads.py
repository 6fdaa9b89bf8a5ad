"""Sphinx extension: put each chapter's ledger JSON and figure data beside its HTML page, and offer
its PDF in the page's download menu.

The chapter's "Cite this chapter" block links to ``<key>.ledger.json`` and ``<key>.figures.zip``
(see :func:`rnnrepro.book.cite.cite_block_markdown`); after an HTML build this copies the ledger that
the build wrote and zips the figure arrays next to ``<key>.html``, with a ``README.txt`` saying which
file is which figure of the page and what each array is. Each chapter page's download menu offers
``_pdf/<key>.pdf`` (in place of the theme's "print this page") and the landing page's the whole book's
PDF and a zip of the executed notebooks, which the build itself makes (:mod:`.printed`); where this
build prints no PDF (no Chromium), no page offers one.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

from rnnrepro.book.chapters import all_chapters, chapter_of_page
from rnnrepro.book.paths import REPO, output_dir, toc_files
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def figure_captions(notebook: Path) -> dict[str, str]:
    """{figure id: caption} for every code cell of a MyST notebook that calls ``ledger.figure("<id>", ...)``
    and carries a ``mystnb.figure.caption`` in its metadata."""
    import jupytext

    captions = {}
    for cell in jupytext.read(notebook).cells:
        caption = cell.metadata.get("mystnb", {}).get("figure", {}).get("caption")
        for fig_id in re.findall(r'ledger\.figure\(\s*"([a-z0-9_]+)"', cell.source) if cell.cell_type == "code" else []:
            if caption:
                captions[fig_id] = caption
    return captions


def figure_readme(key: str, ledger: dict, captions: dict[str, str]) -> str:
    """The README.txt of a chapter's figure-data zip: per figure file, the page's figure name, its caption
    and the shape of every array (from the ledger's ``figures`` record)."""
    lines = [f"Figure data of the rnnrepro chapter '{key}' (profile {ledger.get('profile', '?')}).",
             "One .npz file per figure of the page (read with numpy.load); <id>.npz holds the arrays the",
             f"figure named fig-{key}-<id> on the page was drawn from.", ""]
    for fig_id, record in sorted(ledger.get("figures", {}).items()):
        digest = record.get("sha256", "?")
        lines.append(f"{key}.figures/{fig_id}.npz  (page figure fig-{key}-{fig_id}; sha256 {digest})")
        if fig_id in captions:
            lines.append(f"  caption: {captions[fig_id]}")
        lines += [f"  {name}: shape {tuple(shape)}" for name, shape in record.get("arrays", {}).items()]
        lines.append("")
    return "\n".join(lines)


def copy_chapter_data(outdir: Path, docnames=None) -> list[Path]:
    """Copy every built chapter's ledger and zip its figure data into ``outdir``; return the files written.
    ``docnames``: the pages the build read (default: the book's table of contents).

    Raises FileNotFoundError when a chapter in the table of contents has no ledger (it did not run).
    """
    written = []
    in_toc = set(toc_files() if docnames is None else docnames)
    for key, chapter in all_chapters().items():
        if chapter.notebook.removesuffix(".md") not in in_toc:
            continue
        source = output_dir(chapter.notebook)
        target = Path(outdir) / Path(chapter.notebook).parent
        target.mkdir(parents=True, exist_ok=True)
        ledger = source / f"{key}.ledger.json"
        if not ledger.is_file():
            raise FileNotFoundError(f"no ledger for chapter {key} in {source}: the chapter did not run")
        written.append(Path(shutil.copy2(ledger, target / ledger.name)))
        archive = target / f"{key}.figures.zip"
        readme = figure_readme(key, json.loads(ledger.read_text()), figure_captions(REPO / chapter.notebook))
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for npz in sorted((source / f"{key}.figures").glob("*.npz")):
                zf.write(npz, f"{key}.figures/{npz.name}")
            zf.writestr(f"{key}.figures/README.txt", readme)
        written.append(archive)
    return written


PDF_BUTTON = "download-chapter-pdf-button"
BOOK_PDF_BUTTON = "download-book-pdf-button"
NOTEBOOKS_BUTTON = "download-notebooks-button"


def offer_pdf(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    """``html-page-context`` (after the theme's buttons): on a chapter page, the download menu's ".pdf"
    is the chapter's PDF (``_pdf/<key>.pdf``), not the browser's print dialog; on the landing page the
    menu offers the whole book's PDF and a zip of every executed notebook. A PDF is offered only when
    this build prints them (:func:`.printed.pdf_offered`); otherwise the menu has no ".pdf" at all (the
    theme's print-dialog item is removed too)."""
    from rnnrepro.site.pdf import BOOK_PDF, PDF_DIR
    from rnnrepro.site.sphinxext.printed import NOTEBOOKS_DIR, NOTEBOOKS_ZIP, pdf_offered

    group = next((b for b in context.get("header_buttons", []) if b.get("label") == "download-buttons"), None)
    if group is None:
        return
    key = chapter_of_page(pagename)
    root = pagename == getattr(getattr(app, "config", None), "root_doc", "book/intro")
    if key is None and not root:
        return
    group["buttons"] = [b for b in group["buttons"] if b.get("label") != "download-pdf-button"]
    offered = pdf_offered(app)
    if key is not None and offered:
        group["buttons"].append({"type": "link", "url": context["pathto"](f"{PDF_DIR}/{key}.pdf", 1), "text": ".pdf",
                                 "icon": "fas fa-file-pdf", "tooltip": "Download this chapter as a PDF",
                                 "label": PDF_BUTTON})
    if root and offered:
        group["buttons"].append({"type": "link", "url": context["pathto"](f"{PDF_DIR}/{BOOK_PDF}", 1),
                                 "text": "book .pdf", "icon": "fas fa-book",
                                 "tooltip": "Download the whole book as one PDF", "label": BOOK_PDF_BUTTON})
    if root and any((Path(app.outdir).parent / "jupyter_execute").rglob("*.ipynb")):
        group["buttons"].append({"type": "link", "url": context["pathto"](f"{NOTEBOOKS_DIR}/{NOTEBOOKS_ZIP}", 1),
                                 "text": "notebooks .zip", "icon": "fas fa-file-archive",
                                 "tooltip": "Download every executed notebook of the book (.ipynb, one zip)",
                                 "label": NOTEBOOKS_BUTTON})


def _on_build_finished(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        copy_chapter_data(Path(app.outdir), app.env.found_docs)


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", _on_build_finished)
    app.connect("html-page-context", offer_pdf, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
