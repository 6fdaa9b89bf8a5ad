"""Every figure's image says what it shows: its ``alt`` text is the first sentence of the figure's
caption (without one, HTML readers and screen readers meet the image's hashed file name)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: A sentence ends at . ! or ? before a space and a capital letter or an opening bracket, not after a
#: common abbreviation (``Fig. 1``, ``e.g. Adam`` stay whole).
_END = re.compile(r"(?<!\bFig)(?<!\bFigs)(?<!\bEq)(?<!\bEqs)(?<!\bProp)(?<!\bThm)(?<!\bSec)(?<!\be\.g)(?<!\bi\.e)"
                  r"(?<!\bcf)(?<!\bvs)(?<!\bal)[.!?](?=\s+[A-Z(\[])")


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (whitespace collapsed, the closing full stop kept)."""
    text = " ".join(text.split())
    m = _END.search(text)
    return text[:m.end()] if m else text


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
