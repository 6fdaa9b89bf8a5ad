"""The bibliography's labels in the author–year form the text cites with ("Ribeiro et al. 2020"),
instead of pybtex's alpha labels ("[ComputationalMGroupUoSouthampton24]"). Registered as the pybtex
formatting style ``authoryear`` (``bibtex_default_style`` in ``_config.yml``).

Its entries are list items for assistive technology: docutils writes the bibliography as a
``<div role="list">`` of ``<div role="doc-biblioentry">``, a role ARIA 1.2 deprecates and that a list
may not hold, so axe-core finds the list without its required children (critical) and every entry with
a role it does not allow; each entry gets ``role="listitem"`` (:func:`accessible_citations`)."""

from __future__ import annotations

from collections import Counter

from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from pybtex.database import Entry
    from sphinx.application import Sphinx

STYLE = "authoryear"


def author_year(entry: Entry) -> str:
    """``Last 2020``, ``Last and Other 2020`` or ``Last et al. 2020`` (organisations named whole)."""
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [" ".join(p.last_names) or " ".join(p.first_names) for p in people]
    if "others" in names[1:]:          # "A and others": et al.
        names = names[:1] + ["", ""]
    who = (names[0] if len(names) == 1 else f"{names[0]} and {names[1]}" if len(names) == 2
           else f"{names[0]} et al." if names else entry.key)
    return f"{who.replace('{', '').replace('}', '')} {entry.fields.get('year', 'n.d.')}"


class AuthorYearLabels(BaseLabelStyle):
    """Author–year labels; equal ones get a, b, … in order."""

    def format_labels(self, sorted_entries: Iterable[Entry]) -> Iterator[str]:
        entries = list(sorted_entries)
        labels = [author_year(e) for e in entries]
        repeated, seen = Counter(labels), Counter()
        for label in labels:
            if repeated[label] > 1:
                yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label]]
                seen[label] += 1
            else:
                yield label


class AuthorYearStyle(UnsrtStyle):
    default_label_style = AuthorYearLabels


_ENTRY_ROLE = 'role="doc-biblioentry"'


def accessible_citations(body: str) -> str:
    """A page's HTML body with every bibliography entry's deprecated ``doc-biblioentry`` role replaced by
    ``listitem``, the role its ``role="list"`` container requires."""
    return body.replace(_ENTRY_ROLE, 'role="listitem"')


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    if _ENTRY_ROLE in context.get("body", ""):
        context["body"] = accessible_citations(context["body"])


def setup(app: Sphinx) -> dict:
    register_plugin("pybtex.style.formatting", STYLE, AuthorYearStyle)
    app.connect("html-page-context", _on_page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
