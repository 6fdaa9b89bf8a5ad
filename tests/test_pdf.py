"""A PDF of each chapter (rnnrepro.site.pdf): printed by headless Chromium from the built page, with its
math typeset and its figures in place, and offered in the page's download menu.

The unit tests print small pages of their own; the built-book tests run only when ``RNNREPRO_BUILT_BOOK``
names a built site (the build prints the PDFs itself when Chromium and poppler are installed).
"""

import os
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from rnnrepro.site import pdf
from rnnrepro.site.browser_check import find_chromium
from rnnrepro.site.local_server import serve
from rnnrepro.site.sphinxext import downloads

HTML = Path(os.environ["RNNREPRO_BUILT_BOOK"]) if os.environ.get("RNNREPRO_BUILT_BOOK") else None


def _tools():
    chromium = find_chromium()
    missing = [t for t in ("pdftotext", "pdfinfo") if shutil.which(t) is None] + ([] if chromium else ["chromium"])
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install {missing} (Debian: chromium, poppler-utils) for the PDF checks")
        pytest.skip(f"{missing} not installed (Debian: apt-get install chromium poppler-utils)")
    return chromium


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>
<h1>A chapter on memory<a class="headerlink" href="#">#</a></h1>
<p>The paper claims that BODY decays.</p>
<figure><svg width="200" height="100"><rect width="200" height="100" fill="teal"/></svg>
<figcaption><p><span class="caption-number">Fig. 1 </span>The decay of the error with the window $k$
against the bound.</p>
</figcaption></figure>
</body></html>"""


def _print(tmp_path, body: str, caption_in_pdf: bool = True):
    chromium = _tools()
    page = PAGE.replace("BODY", body)
    if not caption_in_pdf:
        page = page.replace("<figure>", '<figure style="display:none">')
    (tmp_path / "page.html").write_text(page)
    with serve(tmp_path) as base:
        out = pdf.print_pdf(chromium, f"{base}/page.html", tmp_path / "page.pdf", budget_ms=2000)
    return out, PAGE.replace("BODY", body)


def test_page_facts_reads_title_and_captions():
    title, captions = pdf.page_facts(PAGE)
    assert title == "A chapter on memory"
    assert captions == ["Fig. 1 The decay of the error with the window $k$ against the bound."]


def test_caption_words_skip_formulas():
    assert pdf.caption_words(r"Fig. 2 \(k\) The bound \(L_f^k\) of a contraction against the window size k") == \
        "of a contraction against the window size k"
    assert pdf.caption_words("Fig. 1 The decay of the error with the window $k$ against the bound.") == \
        "fig 1 the decay of the error with"


def test_a_clean_page_prints_to_a_pdf_with_no_problem(tmp_path):
    out, html = _print(tmp_path, "the error")
    assert pdf.pdf_pages(out) >= 1 and "A chapter on memory" in pdf.pdf_text(out)
    assert pdf.pdf_problems(out, html) == []


@pytest.mark.parametrize("raw", [r"\(k\lambda^k\)", r"$$x^2$$", r"\[x\]"])
def test_raw_tex_in_the_pdf_is_a_problem(tmp_path, raw):
    out, html = _print(tmp_path, raw)
    assert any("raw TeX" in p for p in pdf.pdf_problems(out, html))


def test_a_figure_missing_from_the_pdf_is_a_problem(tmp_path):
    out, html = _print(tmp_path, "the error", caption_in_pdf=False)
    (problem,) = pdf.pdf_problems(out, html)
    assert problem.startswith("page.pdf: the figure captioned 'Fig. 1 The decay of the error")
    assert problem.endswith("is not in it")


def _menu(*labels):
    return {"pathto": lambda name, resource: f"../../{name}",
            "header_buttons": [{"label": "download-buttons", "buttons": [{"label": x} for x in labels]}]}


def test_the_chapter_page_offers_its_pdf_instead_of_the_print_dialog(tmp_path):
    app = SimpleNamespace(rnnrepro_pdf=True, outdir=str(tmp_path / "html"),
                          config=SimpleNamespace(root_doc="book/intro"))
    context = _menu("download-source-button", "download-pdf-button")
    downloads.offer_pdf(app, "book/chapters/li", "page.html", context, None)
    buttons = context["header_buttons"][0]["buttons"]
    assert [b["label"] for b in buttons] == ["download-source-button", downloads.PDF_BUTTON]
    assert buttons[-1]["url"] == "../../_pdf/li.pdf" and buttons[-1]["text"] == ".pdf"
    other = _menu("download-pdf-button")
    downloads.offer_pdf(app, "book/scorecard", "page.html", other, None)
    assert other["header_buttons"][0]["buttons"] == [{"label": "download-pdf-button"}]


def test_a_build_that_prints_no_pdf_offers_none(tmp_path):
    """No Chromium (or RNNREPRO_PDF=0): no chapter offers a PDF, not even the browser's print dialog."""
    app = SimpleNamespace(rnnrepro_pdf=False, outdir=str(tmp_path / "html"),
                          config=SimpleNamespace(root_doc="book/intro"))
    context = _menu("download-source-button", "download-pdf-button")
    downloads.offer_pdf(app, "book/chapters/li", "page.html", context, None)
    assert [b["label"] for b in context["header_buttons"][0]["buttons"]] == ["download-source-button"]
    root = _menu("download-source-button")
    downloads.offer_pdf(app, "book/intro", "page.html", root, None)
    assert [b["label"] for b in root["header_buttons"][0]["buttons"]] == ["download-source-button"]


def test_the_landing_page_offers_the_book_pdf_and_the_notebooks_zip(tmp_path):
    executed = tmp_path / "jupyter_execute" / "book" / "chapters"
    executed.mkdir(parents=True)
    (executed / "li.ipynb").write_text("{}")
    app = SimpleNamespace(rnnrepro_pdf=True, outdir=str(tmp_path / "html"),
                          config=SimpleNamespace(root_doc="book/intro"))
    root = _menu("download-source-button", "download-pdf-button")
    downloads.offer_pdf(app, "book/intro", "page.html", root, None)
    buttons = root["header_buttons"][0]["buttons"]
    assert [b["label"] for b in buttons] == ["download-source-button", downloads.BOOK_PDF_BUTTON,
                                             downloads.NOTEBOOKS_BUTTON]
    assert [b["url"] for b in buttons[1:]] == ["../../_pdf/rnnrepro.pdf", "../../_notebooks/rnnrepro-notebooks.zip"]


def test_the_build_says_in_one_line_why_it_prints_no_pdf(monkeypatch):
    from rnnrepro.site.sphinxext import printed

    monkeypatch.setenv(printed.ENV, "0")
    assert printed.why_no_pdf() == "RNNREPRO_PDF=0"
    monkeypatch.delenv(printed.ENV)
    monkeypatch.setattr(pdf, "missing_tools", lambda: ["chromium"])
    assert printed.why_no_pdf().startswith("chromium not installed")
    monkeypatch.setattr(pdf, "missing_tools", lambda: [])
    assert printed.why_no_pdf() is None


def test_the_notebooks_zip_holds_every_executed_notebook(tmp_path):
    import zipfile

    from rnnrepro.site.sphinxext import printed

    sources = tmp_path / "_sources" / "book" / "chapters"
    sources.mkdir(parents=True)
    for name in ("first", "second"):
        (sources / f"{name}.ipynb").write_text("{}")
    out = printed.notebooks_zip(tmp_path, ["book/intro", "book/chapters/first", "book/chapters/second"])
    assert zipfile.ZipFile(out).namelist() == ["rnnrepro/book/chapters/first.ipynb",
                                               "rnnrepro/book/chapters/second.ipynb"]
    assert printed.notebooks_zip(tmp_path / "empty", ["book/intro"]) is None


FOLDED = """<details class="sd-sup sd-dropdown sd-card"><summary class="sd-summary-title"><span>Response to
review</span></summary><div class="sd-summary-content"><p>The latest review found the bound tight.</p></div></details>
<details class="rnnrepro-apparatus" id="claims"><summary>The claims ledger: 2 paper claims</summary>
<table><tr><td><code>lemma2.<wbr>term_b</code></td><td>the second term holds</td></tr></table></details>
<div class="solution dropdown admonition" id="sol-1"><p class="admonition-title">Solution to Exercise 1</p>
<section><p>The run stops at the contraction check with ClaimFailed.</p></section></div>"""


def test_folded_sections_are_read_with_their_titles():
    assert pdf.folded_sections(FOLDED) == [
        ("Response to review", "The latest review found the bound tight."),
        ("The claims ledger: 2 paper claims", "lemma2.term_b the second term holds"),
        ("Solution to Exercise 1", "The run stops at the contraction check with ClaimFailed.")]


def test_a_printed_page_opens_its_folds_and_prints_no_toggle(tmp_path):
    """The print style (pdf.PRINT_CSS, injected by the server that prints) opens every fold and hides
    the screen's toggles: the PDF holds the ledger, the response and the solution, and no "Show code"."""
    chromium = _tools()
    cell = ('<div class="cell tag_hide-input"><details class="hide above-input"><summary aria-label="Toggle">'
            '<p class="collapsed admonition-title">Show code cell source</p></summary>'
            '<div class="cell_input"><pre>x = "$a^2$"</pre></div></details>'
            '<div class="cell_output"><p>y is 2</p></div></div>')
    body = FOLDED + cell + '<p><a href="page.html#claims">the ledger</a>, <a href="other.html">elsewhere</a></p>'
    page = PAGE.replace("BODY", body)
    (tmp_path / "page.html").write_text(page)
    with serve(tmp_path, inject=pdf.PRINT_CSS) as base:
        out = pdf.print_pdf(chromium, f"{base}/page.html", tmp_path / "page.pdf", budget_ms=3000)
    assert pdf.pdf_problems(out, page, ["li.lemma2.term_b"]) == []
    assert "y is 2" in pdf.pdf_text(out) and "a^2" not in pdf.pdf_text(out)   # the output, not the folded code
    assert b"/URI (http://127.0.0.1" not in out.read_bytes()      # the ledger link lands inside the PDF


def test_a_pdf_with_a_closed_fold_or_a_toggle_is_a_problem(tmp_path):
    out, html = _print(tmp_path, FOLDED + "<p>Show code cell source</p>")   # printed without the print style
    problems = pdf.pdf_problems(out, html, ["li.lemma2.term_b", "li.prop5.missing"])
    assert any("prints the screen's 'Show code cell'" in p for p in problems)
    # printed without the print style, the closed <details> print only their titles
    assert any("the folded section 'Response to review' is not printed open" in p for p in problems)
    assert any("the folded section 'The claims ledger: 2 paper claims' is not printed open" in p for p in problems)
    assert not any("Solution to Exercise 1" in p for p in problems)    # an open one is no problem
    assert any("2 of the ledger's 2 claims are not in it" in p for p in problems)


@pytest.mark.parametrize("missing", [None, "chromium", "pdftotext", "pdfinfo"])
def test_cli_refuses_missing_tools_and_a_folder_without_a_built_chapter(tmp_path, capsys, monkeypatch, missing):
    import rnnrepro.site.browser_check as bc

    monkeypatch.setattr(bc, "find_chromium", lambda: None if missing == "chromium" else "/usr/bin/chromium")
    monkeypatch.setattr(pdf.shutil, "which", lambda tool: None if tool == missing else f"/usr/bin/{tool}")
    assert pdf.main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert ("needs Chromium" in err) == (missing is not None)
    assert ("no built chapter page" in err) == (missing is None)


built = pytest.mark.skipif(HTML is None, reason="set RNNREPRO_BUILT_BOOK to a built book's HTML folder")


@built
def test_every_chapter_has_its_pdf_with_math_typeset_figures_ledger_and_solutions_and_no_toggle():
    """Each chapter's PDF, made by the build: math typeset, figures in place, every folded section
    printed open (the claims ledger with every claim, the response to review, the deviations, each
    exercise's solution), no "Show code cell" toggle, no link to the server that printed it."""
    _tools()
    pages = pdf.chapter_pages(HTML)
    assert pages, f"no chapter pages in {HTML}"
    problems = []
    for key, page in pages.items():
        out = pdf.pdf_path(HTML, key)
        assert out.is_file(), f"{key}: no {out.relative_to(HTML)}: the build prints it when Chromium is installed"
        html = (HTML / page).read_text(encoding="utf-8")
        assert f'href="{"../" * page.count("/")}{pdf.PDF_DIR}/{key}.pdf"' in html, f"{key}: no PDF in the menu"
        assert pdf.page_facts(html)[1], f"{key}: the page has no figure"
        assert pdf.folded_sections(html), f"{key}: the page folds nothing (no claims ledger?)"
        claims = pdf.ledger_claim_ids(HTML, page, key)
        assert claims, f"{key}: no ledger beside the page"
        problems += pdf.pdf_problems(out, html, claims)
    assert not problems, "\n".join(problems)


@built
def test_the_whole_book_pdf_holds_every_chapter():
    _tools()
    book = HTML / pdf.PDF_DIR / pdf.BOOK_PDF
    assert book.is_file(), f"no {book}: the build prints it when Chromium is installed"
    chapters = [pdf.pdf_path(HTML, key) for key in pdf.chapter_pages(HTML)]
    assert pdf.pdf_pages(book) > sum(pdf.pdf_pages(c) for c in chapters)
    text = pdf._words(pdf.pdf_text(book))
    for key, page in pdf.chapter_pages(HTML).items():
        title, _ = pdf.page_facts((HTML / page).read_text(encoding="utf-8"))
        assert pdf._words(title) in text, f"the book PDF lacks {key} ({title})"


def test_chapter_pdfs_print_side_by_side_largest_first_and_come_back_in_order(tmp_path, monkeypatch):
    """make_pdfs prints ``jobs`` pages at once (a Chromium keeps about one core busy), the largest page first,
    and returns the PDFs in the order asked; with ``stale_only``, a PDF printed from the page as it is now is kept
    (a page written again byte for byte, as a rebuild with ``--all`` does, included)."""
    import threading
    import time

    from rnnrepro.book.chapters import all_chapters, chapter_page

    keys = list(all_chapters())[:3]
    for size, key in enumerate(keys):
        page = tmp_path / (chapter_page(key) + ".html")
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text("x" * (100 * (size + 1)))                 # the last key's page is the largest
    running, most, started, lock = set(), [0], [], threading.Lock()

    def fake_print(chromium, url, out, budget_ms):
        with lock:
            running.add(out.name)
            most[0] = max(most[0], len(running))
            started.append(out.stem)
        time.sleep(0.3)
        out.write_bytes(b"%PDF")
        with lock:
            running.discard(out.name)
        return out

    monkeypatch.setattr(pdf, "print_pdf", fake_print)
    written = pdf.make_pdfs(tmp_path, "chromium", keys, jobs=2)
    assert [p.stem for p in written] == keys and most[0] == 2 and started[0] == keys[-1]
    started.clear()
    (tmp_path / (chapter_page(keys[0]) + ".html")).write_text("changed")     # not what its PDF was printed from
    assert [p.stem for p in pdf.make_pdfs(tmp_path, "chromium", keys, stale_only=True, jobs=2)] == keys
    assert started == [keys[0]]
    started.clear()
    page = tmp_path / (chapter_page(keys[1]) + ".html")
    page.write_text(page.read_text())            # written again, the same (a rebuild with --all): still current
    pdf.make_pdfs(tmp_path, "chromium", keys, stale_only=True, jobs=2)
    assert started == []
    pdf.make_pdfs(tmp_path, "chromium", keys[1:2], jobs=2)           # without stale_only: printed again
    assert started == [keys[1]]


def test_the_book_pdf_is_made_again_only_from_a_changed_front_page_or_chapter(tmp_path, monkeypatch):
    (tmp_path / "index.html").write_text("front")
    chapters = [tmp_path / "_pdf" / f"{k}.pdf" for k in ("a", "b")]
    chapters[0].parent.mkdir()
    for path in chapters:
        path.write_bytes(b"%PDF " + path.stem.encode())
    made = []

    def fake_print(chromium, url, out, budget_ms):
        made.append(url)
        out.write_bytes(b"%PDF front")
        return out

    monkeypatch.setattr(pdf, "print_pdf", fake_print)
    monkeypatch.setattr(pdf.subprocess, "run", lambda cmd, **kw: (Path(cmd[-1]).write_bytes(b"%PDF book"),
                                                                  subprocess.CompletedProcess(cmd, 0, "", ""))[1])
    pdf.make_book_pdf(tmp_path, "chromium", chapters, "index.html", stale_only=True)
    pdf.make_book_pdf(tmp_path, "chromium", chapters, "index.html", stale_only=True)        # nothing changed
    assert len(made) == 1
    chapters[1].write_bytes(b"%PDF b, printed again and different")
    pdf.make_book_pdf(tmp_path, "chromium", chapters, "index.html", stale_only=True)
    (tmp_path / "index.html").write_text("front, changed")
    pdf.make_book_pdf(tmp_path, "chromium", chapters, "index.html", stale_only=True)
    assert len(made) == 3
