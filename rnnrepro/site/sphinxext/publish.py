"""Sphinx extension: the book's public address on every page, once the build is given one, through the
maintained extensions (sphinxext-opengraph, sphinx-sitemap).

The address is one setting (:func:`rnnrepro.book.cite.public_url`: ``$RNNREPRO_BASE_URL``, which the
publishing workflow passes, else ``url`` in ``CITATION.cff``). Every page gets its Open Graph preview
(``og:title``, ``og:type``, ``og:site_name``, ``og:description`` and ``<meta name="description">``:
sphinxext-opengraph). With an address:

- ``html_baseurl`` is set to it, so Sphinx writes each page's ``<link rel="canonical">``;
- the preview carries ``og:url``, the page's address, and a social card (an image of the page's title,
  drawn offline by sphinxext-opengraph with matplotlib);
- ``sitemap.xml`` lists every page of the book by its address (sphinx-sitemap, loaded only then: without
  an address it warns, and ``-W`` would fail the build), and ``robots.txt`` names the sitemap.

Without an address the preview has no ``og:url`` and no card, and no sitemap or canonical link is
written (each would need an absolute address).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

SITEMAP = "sitemap.xml"
#: An Open Graph description is cut to about this many characters (sphinxext-opengraph).
DESCRIPTION = 200


def _address() -> str | None:
    from rnnrepro.book.cite import public_url

    return public_url()


def configure(app: Sphinx, config) -> None:
    """``config-inited``: ``html_baseurl`` and the Open Graph settings from the book's public address."""
    url = _address()
    config.ogp_type = "article"
    config.ogp_site_name = config.html_title or config.project
    config.ogp_description_length = DESCRIPTION
    if url:
        config.html_baseurl = url + "/"
        config.ogp_site_url = url + "/"
        config.sitemap_url_scheme = "{link}"
        config.sitemap_excludes = ["search.html", "genindex.html"]
    if config.ogp_social_cards is None:
        config.ogp_social_cards = {"enable": bool(url)}   # a card's address is absolute


_OG_URL = re.compile(r'<meta property="og:url" content="[^"]*" />\n?')


def drop_relative_og_url(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """``html-page-context`` (after sphinxext-opengraph's): without an address, no ``og:url`` (the
    extension writes the page's relative path, which no reader of a preview can follow)."""
    if not app.config.html_baseurl and "metatags" in context:
        context["metatags"] = _OG_URL.sub("", context["metatags"])


def write_robots(app: Sphinx, exception) -> None:
    """``build-finished``: ``robots.txt`` naming the sitemap, when the book has a public address."""
    if exception is not None or app.builder.format != "html" or not app.config.html_baseurl:
        return
    Path(app.outdir, "robots.txt").write_text(f"User-agent: *\nAllow: /\nSitemap: {app.config.html_baseurl}{SITEMAP}\n")


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinxext.opengraph")
    if _address():
        app.setup_extension("sphinx_sitemap")
    app.connect("config-inited", configure)
    app.connect("html-page-context", drop_relative_og_url, priority=600)
    app.connect("build-finished", write_robots)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
