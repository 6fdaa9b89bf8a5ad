"""The book-wide table and result directives, in a small Sphinx build (no notebooks, no theme)."""

from sphinx.application import Sphinx

from rnnrepro.book import scorecard


def test_the_directive_becomes_the_book_table_when_the_page_is_written(tmp_path, monkeypatch):
    ledger = {"chapter": "cayci", "title": "Cayci", "profile": "fast",
              "claims": [{"id": "cayci.a.b", "kind": "paper", "status": "partial"},
                         {"id": "cayci.a.c", "kind": "finding", "status": "observed"}]}
    monkeypatch.setattr(scorecard, "load_ledgers", lambda: {"cayci": ledger})
    monkeypatch.setattr(scorecard, "full_ledgers", lambda ledgers: {"cayci": None})
    src = tmp_path / "src"
    (src / "book" / "chapters").mkdir(parents=True)
    (src / "conf.py").write_text('extensions = ["rnnrepro.site.sphinxext.book_table"]\nroot_doc = "book/intro"\n')
    (src / "book" / "intro.rst").write_text("Intro\n=====\n\n.. rnnrepro-book-result::\n\n.. rnnrepro-book-table::\n\n"
                                            ".. toctree::\n\n   scorecard\n   chapters/cayci\n")
    for name in ("book/scorecard", "book/chapters/cayci"):
        (src / f"{name}.rst").write_text(f"{name}\n{'=' * len(name)}\n")
    app = Sphinx(str(src), str(src), str(tmp_path / "html"), str(tmp_path / "doctrees"), "html",
                 status=None, warning=None, freshenv=True)
    app.build()
    page = (tmp_path / "html" / "book" / "intro.html").read_text()
    assert '<table class="rnnrepro-book-table">' in page
    assert '<a href="chapters/cayci.html#claims-paper">Cayci</a>' in page
    assert '<a href="scorecard.html?chapter=cayci&status=partial">1</a>' in page
    assert ('<p class="rnnrepro-book-result"><strong>The result.</strong> Across the 1 chapter that tests a paper, '
            'of the 0 statements they print that we checked, 0 hold and 0 are errata; of the 1 experiment we reran, '
            '0 are reproduced, <a href="scorecard.html?status=partial">1</a> partial and 0 not reproduced.</p>') in page
    assert page.index("rnnrepro-book-result") < page.index("rnnrepro-book-table")
