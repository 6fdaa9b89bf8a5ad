"""Checks on the built HTML book: claim anchors, scorecard links, cite blocks and downloads.

Runs only when ``RNNREPRO_BUILT_BOOK`` names a fresh HTML build (``.ci/run`` sets it after building
the book); otherwise skipped, so a stale ``_build`` never decides a test.
"""

import os
import re
from pathlib import Path

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.cite import book_metadata, build_commit
from rnnrepro.book.paths import toc_files

HTML = Path(os.environ["RNNREPRO_BUILT_BOOK"]) if os.environ.get("RNNREPRO_BUILT_BOOK") else None
pytestmark = pytest.mark.skipif(HTML is None, reason="set RNNREPRO_BUILT_BOOK to a built book's HTML folder")
CHAPTERS = [ch for ch in all_chapters().values() if ch.notebook.removesuffix(".md") in set(toc_files())]


def _page(relative: str) -> str:
    return (HTML / relative).read_text(encoding="utf-8")


def test_every_scorecard_link_lands_on_its_claim():
    links = re.findall(r'href="(chapters/[a-z0-9_]+\.html)#([a-z0-9_.]+)"', _page("book/scorecard.html"))
    assert len(links) >= len(CHAPTERS)
    pages: dict[str, str] = {}
    missing = []
    for page, anchor in links:
        text = pages.setdefault(page, _page(f"book/{page}"))
        if f'id="{anchor}"' not in text:
            missing.append(f"{page}#{anchor}")
    assert not missing, f"scorecard links without a target: {missing[:10]}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda ch: ch.key)
def test_chapter_page_has_cite_block_and_downloads(chapter):
    page = Path(chapter.notebook.removesuffix(".md") + ".html")
    text = _page(str(page))
    assert "Cite this chapter." in text and f"rnnrepro-{chapter.key}" in text
    assert book_metadata()["version"] in text and build_commit() in text
    for name in (f"{chapter.key}.ledger.json", f"{chapter.key}.figures.zip"):
        assert f'href="{name}"' in text and (HTML / page.parent / name).is_file()


def _chromium() -> str:
    from rnnrepro.site.browser_check import find_chromium

    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Chromium (Debian package `chromium`) for the browser test")
        pytest.skip("no Chromium here: install Debian's `chromium` to run the browser test")
    return chromium


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_every_page_reads_offline_in_a_browser(screen):
    """Headless Chromium, offline, on a 1400 × 900 desktop and a 390 × 844 phone: math typeset (no raw
    TeX), images present, no console error, no Python repr, no page wider than the screen; every
    claims-table row has its header's cells and its status badge whole and in view without scrolling."""
    from rnnrepro.site.browser_check import DESKTOP, PHONE, check_pages

    chromium = _chromium()
    pages = [f"{name}.html" for name in toc_files()]
    reports = check_pages(HTML, pages, chromium, screen={"desktop": DESKTOP, "phone": PHONE}[screen])
    broken = [r for r in reports if not r.ok]
    assert not broken, "\n".join(f"{r.page} ({screen}): {r.describe()}" for r in broken)
    with_math = [r.page for r in reports if r.typeset]
    if screen == "desktop":   # on the phone only the layout is measured (a frame: browser_check.SCREEN_PAGE)
        assert any("chapters/" in page for page in with_math), f"no chapter typeset any math: {with_math}"
    measured = {r.page: r.claims_rows for r in reports}
    for chapter in CHAPTERS:
        assert measured[chapter.notebook.removesuffix(".md") + ".html"] > 0, f"{chapter.key}: no claims rows measured"
    assert measured["book/scorecard.html"] >= sum(measured[c.notebook.removesuffix(".md") + ".html"] for c in CHAPTERS)


def test_intro_has_the_book_table_linking_to_every_chapter_and_the_scorecard_filters():
    intro = _page("book/intro.html")
    assert '<table class="rnnrepro-book-table">' in intro
    for chapter in CHAPTERS:
        page = chapter.notebook.removesuffix(".md").removeprefix("book/") + ".html"
        anchor = re.search(rf'href="{re.escape(page)}#(claims-[a-z]+)"', intro)
        assert anchor, chapter.key
        assert f'id="{anchor.group(1)}"' in _page(f"book/{page}")
        assert f'href="scorecard.html?chapter={chapter.key}' in intro
    scorecard = _page("book/scorecard.html")
    assert '<form class="rnnrepro-filter"' in scorecard and "rnnrepro.js" in scorecard


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda ch: ch.key)
def test_shipped_full_verdicts_show_beside_fast(chapter):
    from rnnrepro.book.full import shipped_full

    full = shipped_full(chapter.key)
    if full is None:
        pytest.skip(f"no full results shipped for {chapter.key}")
    text = _page(chapter.notebook.removesuffix(".md") + ".html")
    assert "Paper-scale <code>full</code> results shipped" in text
    assert '<span class="rnnrepro-profile">full</span>' in text


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_claim_link_lands_below_the_sticky_header(screen):
    """``chapter.html#<claim id>`` (the scorecard's links) shows the claim's row below the header."""
    from rnnrepro.site.browser_check import DESKTOP, PHONE, check_pages

    chromium = _chromium()
    chapter = CHAPTERS[-1]
    ledger = (HTML / chapter.notebook).with_name(f"{chapter.key}.ledger.json").read_text()
    claim = re.findall(r'"id": "([a-z0-9_.]+)"', ledger)[len(re.findall(r'"id": "', ledger)) // 2]
    page = chapter.notebook.removesuffix(".md") + f".html#{claim}"
    (report,) = check_pages(HTML, [page], chromium, screen={"desktop": DESKTOP, "phone": PHONE}[screen])
    assert report.probed and not report.anchor, report.describe()


def test_values_read_as_what_they_are():
    """No number shown as 0.00 that is not zero, no literal \\" and no bare Python True/False, on any page."""
    from rnnrepro.site.browser_check import value_problems

    problems = {name: value_problems(_page(f"{name}.html")) for name in toc_files()}
    problems = {name: found for name, found in problems.items() if found}
    assert not problems, "\n".join(f"{name}: {found[:5]} ({len(found)})" for name, found in problems.items())


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda ch: ch.key)
def test_chapter_page_offers_its_executed_notebook_and_no_button_to_a_placeholder(chapter):
    """The download menu lists the executed .ipynb; no launch button leads to a placeholder repository
    while the public address is unset, and no thebe configuration names an example repository."""
    page = chapter.notebook.removesuffix(".md")
    text = _page(f"{page}.html")
    assert f'_sources/{page}.ipynb"' in text and '"outputs"' in (HTML / "_sources" / f"{page}.ipynb").read_text()
    assert "binder-examples" not in text and "x-thebe-config" not in text
    if book_metadata()["repository"] is None:
        assert "mybinder.org" not in text and "colab.research.google.com" not in text


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda ch: ch.key)
def test_chapter_top_verdict_table_is_the_ledgers(chapter):
    """The generated verdict table at the top of the page lists every paper claim of the page's ledger,
    once, under its kind, with its headline status, and sits before the first section heading."""
    import json

    from rnnrepro.book.claims_table import full_rows, headline, status_class
    from rnnrepro.book.full import shipped_full

    page = Path(chapter.notebook.removesuffix(".md") + ".html")
    text = _page(str(page))
    ledger = json.loads((HTML / page.parent / f"{chapter.key}.ledger.json").read_text())
    block = text.split('<div class="rnnrepro-verdicts-block">', 1)
    assert len(block) == 2, f"{page} shows no generated verdict table"
    before = block[0].split("<h1", 1)[-1]        # the page's title, then what precedes the table
    assert not re.search(r"<h2[^>]*>(?:(?!</h2>).)*headerlink", before, re.S), \
        f"{page}: a section heading comes before the verdict table (it belongs at the top of the page)"
    table = block[1].split("</div>", 1)[0]
    shown = re.findall(r'<tr data-status="([a-z-]+)"><td><a href="#([a-z0-9_.]+)"', table)
    by_id, usable = full_rows(shipped_full(chapter.key))
    expected = [(status_class(headline(c, by_id.get(c["id"]), usable)[0]), c["id"])
                for c in ledger["claims"] if c["kind"] == "paper"]
    assert sorted(shown) == sorted(expected)
