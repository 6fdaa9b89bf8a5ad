"""Sphinx extension: put each chapter's ledger JSON and figure data beside its HTML page.

The chapter's "Cite this chapter" block links to ``<key>.ledger.json`` and ``<key>.figures.zip``
(see :func:`rnnrepro.book.cite.cite_block_markdown`); after an HTML build this copies the ledger that
the build wrote and zips the figure arrays next to ``<key>.html``.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.paths import output_dir, toc_files


def copy_chapter_data(outdir: Path) -> list[Path]:
    """Copy every built chapter's ledger and zip its figure data into ``outdir``; return the files written.

    Raises FileNotFoundError when a chapter in the table of contents has no ledger (it did not run).
    """
    written = []
    in_toc = set(toc_files())
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
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for npz in sorted((source / f"{key}.figures").glob("*.npz")):
                zf.write(npz, f"{key}.figures/{npz.name}")
        written.append(archive)
    return written


def _on_build_finished(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        copy_chapter_data(Path(app.outdir))


def setup(app):
    app.connect("build-finished", _on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
