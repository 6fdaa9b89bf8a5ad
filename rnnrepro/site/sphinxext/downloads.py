"""Sphinx extension: put each chapter's ledger JSON and figure data beside its HTML page, and offer
its PDF in the page's download menu.

The chapter's "Cite this chapter" block links to ``<key>.ledger.json`` and ``<key>.figures.zip``
(see :func:`rnnrepro.book.cite.cite_block_markdown`); after an HTML build this copies the ledger that
the build wrote and zips the figure arrays next to ``<key>.html``, with a ``README.txt`` saying which
file is which figure of the page and what each array is. Each chapter page's download menu offers
``_pdf/<key>.pdf`` (in place of the theme's "print this page"), which ``python -m rnnrepro.site.pdf``
prints from the built page after the build (``.ci/run`` does; the link checker fails a site without it).
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


def offer_pdf(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    """``html-page-context`` (after the theme's buttons): on a chapter page, the download menu's ".pdf"
    is the chapter's PDF (``_pdf/<key>.pdf``), not the browser's print dialog."""
    from rnnrepro.site.pdf import PDF_DIR

    key = chapter_of_page(pagename)
    group = next((b for b in context.get("header_buttons", []) if b.get("label") == "download-buttons"), None)
    if key is None or group is None:
        return
    button = {"type": "link", "url": context["pathto"](f"{PDF_DIR}/{key}.pdf", 1), "text": ".pdf",
              "icon": "fas fa-file-pdf", "tooltip": "Download this chapter as a PDF", "label": PDF_BUTTON}
    group["buttons"] = [b for b in group["buttons"] if b.get("label") != "download-pdf-button"] + [button]


def _on_build_finished(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        copy_chapter_data(Path(app.outdir), app.env.found_docs)


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", _on_build_finished)
    app.connect("html-page-context", offer_pdf, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
