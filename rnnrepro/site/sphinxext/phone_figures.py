"""Sphinx extension: on a phone, each figure shows its phone variant, its panels stacked in one column.

In a chapter this build executes (this extension sets ``$RNNREPRO_PHONE_FIGURES``, which its kernels
inherit; a chapter run outside a book build makes none), ``ledger.figure`` writes beside the chapter's figure
data a phone variant of every figure wider than a phone's column
(:func:`rnnrepro.book.plotting.phone_variant_svg`, ``<key>.figures/<fig_id>.phone.svg``); every figure's SVG
names its variant (:func:`rnnrepro.book.plotting.phone_gid`). When a chapter page is
written (``html-page-context``), every ``<img>`` of the page whose SVG carries such a name becomes a
``<picture>``: the phone variant (copied to ``<key>.phone/<fig_id>.svg`` beside the page) on screens up
to :data:`~rnnrepro.book.plotting.PHONE_MEDIA`, the desktop image elsewhere and in print. A tap opens
the desktop image at full size (``rnnrepro.js``); a figure with no phone variant is scaled to the column
(``rnnrepro.css``).
"""

from __future__ import annotations

import html
import os
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

_IMG = re.compile(r'<img\b[^>]*\bsrc="(?P<src>[^"]*?_images/(?P<name>[^"/]+\.svg))"[^>]*>')
_GID = re.compile(r'<g id="(rnnrepro-fig-[a-z0-9_-]+)"')


def phone_variants(key: str, folder: Path) -> dict[str, Path]:
    """``{gid: phone variant}`` of chapter ``key``'s figures in its output ``folder``."""
    from rnnrepro.book.plotting import phone_gid

    return {phone_gid(f"{key}.{svg.name.removesuffix('.phone.svg')}"): svg
            for svg in sorted((Path(folder) / f"{key}.figures").glob("*.phone.svg"))}


def svg_gid(svg: Path) -> str | None:
    """The phone-variant name written in an SVG figure (its figure group's id), or None."""
    with open(svg, encoding="utf-8", errors="replace") as f:
        found = _GID.search(f.read(20000))
    return found.group(1) if found else None


def with_phone_pictures(body: str, key: str, variants: dict[str, Path], images: list[Path],
                        page_dir: Path) -> str:
    """``body`` (a page's HTML) with every ``<img>`` of a figure that has a phone variant wrapped in a
    ``<picture>`` offering it to narrow screens; the variants used are copied to ``page_dir/<key>.phone/``.
    ``images``: the folders where the page's images are found by name."""
    from rnnrepro.book.plotting import PHONE_MEDIA

    def replace(m: re.Match) -> str:
        source = next((folder / m["name"] for folder in images if (folder / m["name"]).is_file()), None)
        gid = svg_gid(source) if source is not None else None
        if gid not in variants:
            return m.group()
        target = Path(page_dir) / f"{key}.phone" / f"{variants[gid].name.removesuffix('.phone.svg')}.svg"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(variants[gid], target)
        srcset = html.escape(f"{key}.phone/{target.name}", quote=True)
        return (f'<picture class="rnnrepro-phone-figure"><source media="{PHONE_MEDIA}" srcset="{srcset}" '
                f'type="image/svg+xml" />{m.group()}</picture>')

    return _IMG.sub(replace, body)


def offer_phone_figures(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """``html-page-context``: a chapter page's figures with their phone variants (:func:`with_phone_pictures`)."""
    from rnnrepro.book.chapters import all_chapters, chapter_of_page
    from rnnrepro.book.paths import output_dir

    key = chapter_of_page(pagename)
    if key is None or "body" not in context:
        return
    variants = phone_variants(key, output_dir(all_chapters()[key].notebook))
    if not variants:
        return
    outdir = Path(app.outdir)
    images = [outdir / "_images", outdir.parent / "jupyter_execute"]
    context["body"] = with_phone_pictures(context["body"], key, variants, images,
                                          (outdir / pagename).parent)


def setup(app: Sphinx) -> dict:
    from rnnrepro.book.plotting import PHONE_FIGURES_ENV

    os.environ[PHONE_FIGURES_ENV] = "1"        # the chapters this build executes write their phone variants
    app.connect("html-page-context", offer_phone_figures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
