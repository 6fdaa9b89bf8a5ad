"""A PDF of each chapter (rnnrepro.site.pdf): printed by headless Chromium from the built page, with its
math typeset and its figures in place, and offered in the page's download menu.

The unit tests print small pages of their own; the built-book tests run only when ``RNNREPRO_BUILT_BOOK``
names a built site whose PDFs ``python -m rnnrepro.site.pdf`` made (``.ci/run`` does both).
"""

import os
import shutil
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


def test_the_chapter_page_offers_its_pdf_instead_of_the_print_dialog():
    context = {"pathto": lambda name, resource: f"../../{name}",
               "header_buttons": [{"label": "download-buttons", "buttons": [
                   {"label": "download-source-button"}, {"label": "download-pdf-button", "type": "javascript"}]}]}
    downloads.offer_pdf(SimpleNamespace(), "book/chapters/li", "page.html", context, None)
    buttons = context["header_buttons"][0]["buttons"]
    assert [b["label"] for b in buttons] == ["download-source-button", downloads.PDF_BUTTON]
    assert buttons[-1]["url"] == "../../_pdf/li.pdf" and buttons[-1]["text"] == ".pdf"
    other = {"pathto": context["pathto"], "header_buttons": [{"label": "download-buttons", "buttons": [
        {"label": "download-pdf-button"}]}]}
    downloads.offer_pdf(SimpleNamespace(), "book/scorecard", "page.html", other, None)
    assert other["header_buttons"][0]["buttons"] == [{"label": "download-pdf-button"}]


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
def test_every_chapter_has_its_pdf_with_math_typeset_and_figures_in_place():
    _tools()
    pages = pdf.chapter_pages(HTML)
    assert pages, f"no chapter pages in {HTML}"
    problems = []
    for key, page in pages.items():
        out = pdf.pdf_path(HTML, key)
        assert out.is_file(), f"{key}: no {out.relative_to(HTML)} (run python -m rnnrepro.site.pdf {HTML})"
        html = (HTML / page).read_text(encoding="utf-8")
        assert f'href="{"../" * page.count("/")}{pdf.PDF_DIR}/{key}.pdf"' in html, f"{key}: no PDF in the menu"
        assert pdf.page_facts(html)[1], f"{key}: the page has no figure"
        problems += pdf.pdf_problems(out, html)
    assert not problems, "\n".join(problems)
