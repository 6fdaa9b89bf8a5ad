"""The ``rnnrepro-book-table`` and ``rnnrepro-book-result`` directives: the book-wide table (chapter ×
paper claims per status) and the book-wide result in one sentence, on a page that Sphinx reads *before*
the chapters execute (the intro).

The directive leaves a placeholder; the table is made when the page is written (``doctree-resolved``),
after every page, chapters included, has been read and executed, from the ledgers of the same build
(:func:`rnnrepro.book.scorecard.book_table_html`, the table the scorecard shows;
:func:`rnnrepro.book.scorecard.book_result_html`). Pages holding a directive are rewritten on every
build, so they never show an earlier build's ledgers.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.util.docutils import SphinxDirective
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

ENV_KEY = "rnnrepro_book_table_docs"


class book_table(nodes.General, nodes.Element):
    """Placeholder for the book-wide table (``what="table"``) or sentence (``what="result"``)."""


class BookTable(SphinxDirective):
    has_content = False
    what = "table"

    def run(self) -> list[nodes.Node]:
        docs = getattr(self.env, ENV_KEY, set())
        docs.add(self.env.docname)
        setattr(self.env, ENV_KEY, docs)
        return [book_table(what=self.what)]


class BookResult(BookTable):
    what = "result"


def _resolve(app, doctree, docname) -> None:
    placeholders = list(doctree.findall(book_table))
    if not placeholders:
        return
    from rnnrepro.book.chapters import all_chapters
    from rnnrepro.book.scorecard import book_result_html, book_table_html, full_ledgers, load_ledgers

    ledgers = load_ledgers()
    fulls = full_ledgers(ledgers)
    notebooks = {key: ch.notebook.removesuffix(".md") for key, ch in all_chapters().items()}
    scorecard = app.builder.get_relative_uri(docname, "book/scorecard")
    made = {"table": lambda: book_table_html(ledgers, fulls, scorecard=scorecard,
                                             page_of=lambda key: app.builder.get_relative_uri(docname, notebooks[key])),
            "result": lambda: book_result_html(ledgers, fulls, scorecard=scorecard)}
    for node in placeholders:
        node.replace_self(nodes.raw("", made[node.get("what", "table")](), format="html"))


def _purge(app, env, docname) -> None:
    getattr(env, ENV_KEY, set()).discard(docname)


def _merge(app, env, docnames, other) -> None:
    setattr(env, ENV_KEY, getattr(env, ENV_KEY, set()) | getattr(other, ENV_KEY, set()))


def _always_outdated(app, env, added, changed, removed) -> list[str]:
    return sorted(getattr(env, ENV_KEY, set()) - set(removed))


def setup(app: Sphinx) -> dict:
    app.add_node(book_table)
    app.add_directive("rnnrepro-book-table", BookTable)
    app.add_directive("rnnrepro-book-result", BookResult)
    app.connect("doctree-resolved", _resolve)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-get-outdated", _always_outdated)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
