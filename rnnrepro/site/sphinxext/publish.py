"""Sphinx extension: the book's public address on every page, once the build is given one.

The address is one setting (:func:`rnnrepro.book.cite.public_url`: ``$RNNREPRO_BASE_URL``, which the
publishing workflow passes, else ``url`` in ``CITATION.cff``). With it:

- ``html_baseurl`` is set to it, so Sphinx writes each page's ``<link rel="canonical">``;
- ``sitemap.xml`` lists every page of the book by its address, and ``robots.txt`` names the sitemap;
- each page's Open Graph preview (``og:title``, ``og:description``, ``og:site_name``, ``og:type``)
  carries ``og:url``, the page's address.

Without an address the preview has no ``og:url``, and no sitemap or canonical link is written (each
would need an absolute address).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

SITEMAP = "sitemap.xml"
#: An Open Graph description is cut (at a word) to this many characters.
DESCRIPTION = 200


def set_baseurl(app: Sphinx, config) -> None:
    """``config-inited``: ``html_baseurl`` from the book's public address (Sphinx's canonical links)."""
    from rnnrepro.book.cite import public_url

    url = public_url()
    if url:
        config.html_baseurl = url + "/"


def page_address(app: Sphinx, pagename: str) -> str | None:
    """The page's public address, or None while the book has none."""
    base = app.config.html_baseurl
    if not base:
        return None
    return base.rstrip("/") + "/" + app.builder.get_target_uri(pagename)


def first_paragraph(doctree, limit: int = DESCRIPTION) -> str:
    """The text of the page's first paragraph of prose (outside admonitions and code), cut at a word to
    ``limit`` characters: the page's preview text."""
    for node in doctree.findall(nodes.paragraph):
        if any(isinstance(a, (nodes.Admonition, nodes.literal_block, nodes.raw)) for a in _ancestors(node)):
            continue
        text = " ".join(node.astext().split())
        if len(text) < 40:           # a caption or a label, not a paragraph
            continue
        if len(text) <= limit:
            return text
        cut = text[:limit - 1]
        return cut[:cut.rindex(" ")].rstrip(" ,;:") + "…"
    return ""


def _ancestors(node):
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def open_graph_tags(*, title: str, site: str, description: str, url: str | None) -> str:
    """The Open Graph ``<meta>`` tags of a page (escaped)."""
    tags = {"og:title": title, "og:type": "article", "og:site_name": site}
    if description:
        tags["og:description"] = description
    if url:
        tags["og:url"] = url
    return "\n".join(f'<meta property="{name}" content="{html.escape(value, quote=True)}" />'
                     for name, value in tags.items()) + "\n"


def add_open_graph(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """``html-page-context``: the page's Open Graph preview in its ``<head>``."""
    if doctree is None:            # the search page, the index
        return
    title = _plain(html.unescape(context.get("title") or ""))
    tags = open_graph_tags(title=title, site=app.config.html_title or app.config.project,
                           description=first_paragraph(doctree), url=page_address(app, pagename))
    context["metatags"] = context.get("metatags", "") + tags


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def sitemap_xml(addresses: list[str]) -> str:
    """A sitemap (sitemaps.org 0.9) listing ``addresses``."""
    urls = "".join(f"  <url><loc>{escape(a)}</loc></url>\n" for a in addresses)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + urls + "</urlset>\n")


def write_sitemap(app: Sphinx, exception) -> None:
    """``build-finished``: ``sitemap.xml`` (every page of the book) and ``robots.txt``, when the book
    has a public address."""
    if exception is not None or app.builder.format != "html" or not app.config.html_baseurl:
        return
    pages = sorted(app.env.found_docs, key=lambda doc: (doc != app.config.root_doc, doc))
    addresses = [page_address(app, doc) for doc in pages]
    out = Path(app.outdir)
    (out / SITEMAP).write_text(sitemap_xml(addresses), encoding="utf-8")
    (out / "robots.txt").write_text(f"User-agent: *\nAllow: /\nSitemap: {app.config.html_baseurl}{SITEMAP}\n")


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", set_baseurl)
    app.connect("html-page-context", add_open_graph)
    app.connect("build-finished", write_sitemap)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
