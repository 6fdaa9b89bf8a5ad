"""Each page's scripts, once: sphinx-thebe adds its inline configuration (``const THEBE_JS_URL = …``)
every time documents are read, and a second copy stops the page with "Identifier 'THEBE_JS_URL' has
already been declared". This drops repeated script entries from the page context."""

from __future__ import annotations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def unique_scripts(scripts: list) -> list:
    """``scripts`` without repeats (same file, or same inline body, and same attributes), order kept.

    An inline script's file name is ``None`` or ``""`` depending on how it was registered: both
    count as no file."""
    seen, kept = set(), []
    for js in scripts:
        key = (str(getattr(js, "filename", js) or ""), tuple(sorted(getattr(js, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            kept.append(js)
    return kept


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    if "script_files" in context:
        context["script_files"] = unique_scripts(context["script_files"])


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", _on_page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
