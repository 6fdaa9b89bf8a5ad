"""Every figure's image says what it shows: its ``alt`` text is the first sentence of the figure's
caption (without one, HTML readers and screen readers meet the image's hashed file name)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: Words whose full stop does not end a sentence (``Fig. 1``, ``eq. (4)``, ``e.g. Adam``).
ABBREVIATIONS = {"fig", "figs", "eq", "eqs", "prop", "props", "thm", "sec", "app", "ref", "refs", "e.g", "i.e",
                 "cf", "vs", "al", "approx", "no"}
_END = re.compile(r"(\S*)[.!?](?=\s)")


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (whitespace collapsed, the closing full stop kept): it ends at a
    full stop, ! or ? before a space that does not follow an abbreviation."""
    text = " ".join(text.split())
    for m in _END.finditer(text):
        word = m.group(1).lstrip("([").lower()
        if word not in ABBREVIATIONS:
            return text[:m.end()]
    return text


def set_alt_text(doctree: nodes.Node) -> int:
    """Give every image inside a captioned figure that has no ``alt`` the caption's first sentence;
    return how many were set."""
    count = 0
    for figure in doctree.findall(nodes.figure):
        captions = list(figure.findall(nodes.caption))
        if not captions:
            continue
        alt = first_sentence(captions[0].astext())
        for image in figure.findall(nodes.image):
            if alt and not image.get("alt"):
                image["alt"] = alt
                count += 1
    return count


def _on_doctree_resolved(app, doctree, docname) -> None:
    set_alt_text(doctree)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", _on_doctree_resolved)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
