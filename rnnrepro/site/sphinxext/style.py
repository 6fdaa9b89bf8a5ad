"""The book's own style sheet (``static/rnnrepro.css``): claims tables that fit the page width."""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent / "static"
CSS = "rnnrepro.css"


def _add_static(app, config) -> None:
    config.html_static_path.append(str(STATIC))


def setup(app):
    app.connect("config-inited", _add_static)
    app.add_css_file(CSS)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
