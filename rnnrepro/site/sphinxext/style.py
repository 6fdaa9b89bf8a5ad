"""The book's own style sheet and scripts (``static/``): claims tables that fit the page width (cards on
a phone), status badges readable in light and dark mode, pages that never scroll sideways, the
scorecard's filter (``rnnrepro.js``); MathJax on every page (the claims tables are raw HTML, whose
math Sphinx does not see), and the theme's colour mode given a valid default (else pydata-sphinx-theme
logs "Got invalid theme mode" on every page)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

STATIC = Path(__file__).parent / "static"
CSS = "rnnrepro.css"
JS = "rnnrepro.js"   # the scorecard's filter
DEFAULT_MODE = "auto"   # one of pydata-sphinx-theme's modes: light, dark, auto


#: The primary sidebar: the theme's own less its search field (the header's search button is the one
#: search box, on a phone too).
SIDEBAR = ["navbar-logo.html", "icon-links.html", "sbt-sidebar-nav.html"]


def _configure(app, config) -> None:
    config.html_static_path.append(str(STATIC))
    config.html_sidebars = {"**": SIDEBAR, **(getattr(config, "html_sidebars", None) or {})}
    config.html_context = {**(config.html_context or {})}
    config.html_context.setdefault("default_mode", DEFAULT_MODE)


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", _configure)
    app.add_css_file(CSS)
    app.add_js_file(JS, defer="defer")
    app.set_html_assets_policy("always")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
