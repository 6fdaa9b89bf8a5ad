"""Checks on the built HTML book: claim anchors, scorecard links, cite blocks and downloads.

Runs only when ``RNNREPRO_BUILT_BOOK`` names a fresh HTML build (``.ci/run`` sets it after building
the book); otherwise skipped, so a stale ``_build`` never decides a test.
"""

import json
import os
import re
from dataclasses import dataclass
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
    from rnnrepro.book.cite import CITE_ANCHOR

    assert f'id="{CITE_ANCHOR}"' in text and f'href="#{CITE_ANCHOR}"' in text, \
        f"{page}: no headed 'Cite this chapter' section (anchored #{CITE_ANCHOR}, in the page's contents)"
    assert f"rnnrepro-{chapter.key}" in text
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


_REPORTS: dict[str, list] = {}


_SHARED: list[Path] = []


@pytest.fixture(scope="session", autouse=True)
def _shared_folder(tmp_path_factory):
    """This run's folder that every pytest-xdist worker of it sees (pytest's own temporary root, which pytest
    prunes to its last few runs); None without xdist (nothing to share)."""
    _SHARED[:] = [tmp_path_factory.getbasetemp().parent] if os.environ.get("PYTEST_XDIST_WORKER") else []


def _once_per_run_each(name: str, items: list, compute) -> list:
    """``[compute(item) for item in items]``, each item computed once per test run. Under pytest-xdist the
    workers share the work: each item's result is pickled in the run's shared folder (:func:`_shared_folder`)
    by the worker that computed it, under that item's file lock. A worker first takes, in order, the items no
    other worker has started (a lock it gets without waiting), then waits for and reads the others: two workers
    that both need the book's pages load half of them each instead of one waiting for the other. When
    ``compute`` raises, nothing is left for that item and the next worker tries again."""
    import fcntl
    import pickle

    if not _SHARED:
        return [compute(item) for item in items]
    results: dict[int, object] = {}
    for wait in (False, True):
        for i in [i for i in range(len(items)) if i not in results]:
            stem = _SHARED[0] / f"rnnrepro-built-book-{name}-{i}"
            with open(f"{stem}.lock", "w") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue                                   # another worker is computing it: later
                shared = Path(f"{stem}.pickle")
                if shared.is_file():
                    results[i] = pickle.loads(shared.read_bytes())
                else:
                    results[i] = compute(items[i])
                    shared.write_bytes(pickle.dumps(results[i]))
    return [results[i] for i in range(len(items))]


def _reports(screen: str) -> list:
    """Every page of the book loaded once per screen (desktop 1400 × 900, phone 390 × 844) and test run, each
    page by whichever worker gets to it first (:func:`_once_per_run_each`), as first seen (collapsed sections
    closed); on the desktop then checked by axe-core when it is installed and, on a chapter page, swept through
    every claim anchor (:func:`test_every_claim_anchor_lands_on_its_claim`; the probe measures the page before
    either, and axe reads it before the sweep opens anything). In the table of contents' order."""
    from rnnrepro.site.browser_check import DESKTOP, PHONE, axe_script, check_pages

    chapters = {ch.notebook.removesuffix(".md") + ".html": ch for ch in CHAPTERS}

    def load(page: str):
        desktop = screen == "desktop"
        anchors = {page: _claim_ids(chapters[page])} if desktop and page in chapters else None
        (report,) = check_pages(HTML, [page], _chromium(), screen={"desktop": DESKTOP, "phone": PHONE}[screen],
                                axe=axe_script() if desktop else None, anchors=anchors)
        return report

    if screen not in _REPORTS:
        pages = [f"{name}.html" for name in toc_files()]
        _REPORTS[screen] = _once_per_run_each(f"pages-{screen}", pages, load)
    return _REPORTS[screen]


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_every_page_reads_offline_in_a_browser(screen):
    """Headless Chromium, offline, on a 1400 × 900 desktop and a 390 × 844 phone: math typeset (no raw
    TeX), images present, no console error, no Python repr, no page wider than the screen; every
    claims-table row has its header's cells and its status badge whole and in view without scrolling."""
    reports = _reports(screen)
    others = ("axe", "anchors_missed")      # their own tests: the accessibility check, the claim anchors
    broken = [r for r in reports if r.describe(skip=others)]
    assert not broken, "\n".join(f"{r.page} ({screen}): {r.describe(skip=others)}" for r in broken)
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
    once, under its kind, with its headline status, and sits before the first section heading; each row shows
    the value of the profile its badge names (never the `fast` value under a `full` badge)."""
    import json

    from rnnrepro.book.claims_table import full_rows, headline, status_class, verdict_row_mismatches
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
    wrong = verdict_row_mismatches(table, ledger["claims"], shipped_full(chapter.key))
    assert not wrong, f"{page}: verdict rows whose value is not their badge's profile's:\n" + "\n".join(wrong)


# ------------------------------------------------------------------------------------ accessibility
def test_no_serious_or_critical_accessibility_violation_on_any_page():
    """axe-core (the npm package ``.ci/run`` installs) on every page at 1400 × 900: no violation of
    serious or critical impact (contrast of every badge, list roles of the bibliography, …)."""
    from rnnrepro.site.browser_check import axe_script

    if axe_script() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install axe-core (.ci/run: npm install --prefix ~/.cache/rnnrepro-axe axe-core)")
        pytest.skip("axe-core is not installed: npm install --prefix ~/.cache/rnnrepro-axe axe-core@4.10.3 "
                    "(or set RNNREPRO_AXE to an axe.min.js)")
    reports = _reports("desktop")
    broken = {r.page: r.axe for r in reports if r.axe}
    assert not broken, "\n".join(f"{page}: {len(v)} rule(s): " + "\n    ".join(v) for page, v in broken.items())


# ------------------------------------------------------------------------------ claim anchors land
OLD_ANCHORS = json.loads((Path(__file__).parent / "data" / "claim_anchors_42f5218.json").read_text())


def _claim_ids(chapter) -> list[str]:
    """Every claim id a link may name on the chapter's page: those of 42f5218 (before the ledger moved
    behind a click), of this build's ledger, and the chapter's renamed ones."""
    ledger = json.loads((HTML / chapter.notebook).with_name(f"{chapter.key}.ledger.json").read_text())
    ids = set(OLD_ANCHORS["ids"].get(chapter.key, [])) | {c["id"] for c in ledger["claims"]}
    return sorted(ids | {old for old, _new in chapter.renamed})


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda ch: ch.key)
def test_every_claim_anchor_lands_on_its_claim(chapter):
    """``chapters/<key>.html#<claim id>`` for every claim id of 42f5218 and of this build: from the page
    as first seen (the claims ledger closed behind "Behind this page"), setting the address's fragment
    opens what hides the claim and shows its row on the screen, below the sticky header."""
    page = chapter.notebook.removesuffix(".md") + ".html"
    ids = _claim_ids(chapter)
    report = {r.page: r for r in _reports("desktop")}[page]           # the desktop load sweeps the anchors
    assert report.probed, report.describe()
    assert report.anchors_checked == len(ids), f"{page}: the sweep checked {report.anchors_checked} of {len(ids)}"
    assert not report.anchors_missed, (f"{page}: {len(report.anchors_missed)} of {len(ids)} claim anchors do not "
                                       "land:\n  " + "\n  ".join(report.anchors_missed))


# ----------------------------------------------------------------------------- a chapter is a story
@dataclass(frozen=True)
class Targets:
    """What a chapter page may measure at 1400 × 900, collapsed sections closed (issue 30)."""

    height: int                  # page height, px: half the page's height on 42f5218
    in_short: int = 900          # top of "In short", px: on the first screen
    first_figure: int = 1800     # top of the first figure, px: within two screens
    table_share: float = 0.25    # share of the page height covered by visible tables
    figure_text: float = 10.0    # smallest text in a figure, CSS px, tick labels included


#: Per chapter page. Heights on 42f5218 (newcomer's walk-through, 2026-11-28): ribeiro 69,881,
#: flynn 53,015, miller 51,939, cayci 45,894, li 37,520, dynamics 21,978 px.
TARGETS = {
    "ribeiro": Targets(height=34_900),
    "flynn": Targets(height=26_500),
    "miller": Targets(height=25_900),
    "cayci": Targets(height=22_900),
    "li": Targets(height=23_500),        # row cells folded, not removed (issue 37): one toggle line each
    "dynamics": Targets(height=13_100),  # idem
}


def _measures(report, chapter) -> dict:
    """The page's numbers as the story test reads them (printed for every page)."""
    from rnnrepro.site.browser_check import story_measures

    return story_measures(report, HTML, ids=_claim_ids(chapter), keys=list(all_chapters()))


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_chapter_pages_read_as_stories(screen):
    """Each chapter page, as first seen (collapsed sections closed), at 1400 × 900 (:data:`TARGETS`):
    "In short" on the first screen; the first figure within two screens; at most half its height on
    42f5218; visible tables at most a quarter of the page; no visible code block that scrolls sideways;
    no claim id in the visible running prose; no "Response to review" open on the story; figure text at
    least 10 CSS px. On a 390 × 844 phone: "In short" on the first screen, nothing wider than the
    screen, no claim id, no open review.
    Every page's numbers are printed (run with ``-s``)."""
    from rnnrepro.site.browser_check import measures_line

    reports = {r.page: r for r in _reports(screen)}
    problems, lines = [], []
    for chapter in CHAPTERS:
        page = chapter.notebook.removesuffix(".md") + ".html"
        report = reports[page]
        t = TARGETS.get(chapter.key)
        if t is None:
            problems.append(f"{page}: no targets for chapter {chapter.key}: add a row to TARGETS")
            continue
        x = _measures(report, chapter)
        lines.append(measures_line(page, screen, x))
        where = f"{page} ({screen})"
        problems += [f"{where}: claim id(s) in the visible prose: {x['claim_ids'][:8]} ({len(x['claim_ids'])})"] \
            if x["claim_ids"] else []
        if x["review"]:
            problems.append(f"{where}: a 'Response to review' section is open on the story: {x['review']}")
        if x["in_short"] is None:
            problems.append(f"{where}: no paragraph starting 'In short' is visible")
        elif x["in_short"] > t.in_short:
            problems.append(f"{where}: 'In short' starts at {x['in_short']:,.0f} px (at most {t.in_short:,})")
        if screen == "phone":      # a phone stacks tables into cards and scrolls code in its box
            problems += [f"{where}: {o}" for o in x["overflow"]]
            continue
        if x["first_figure"] is None:
            problems.append(f"{where}: no figure shown")
        elif x["first_figure"] > t.first_figure:
            problems.append(f"{where}: first figure at {x['first_figure']:,.0f} px (at most {t.first_figure:,})")
        if x["height"] > t.height:
            problems.append(f"{where}: page height {x['height']:,} px (at most {t.height:,})")
        if x["table_share"] > t.table_share:
            problems.append(f"{where}: tables cover {100 * x['table_share']:.1f} % of the page "
                            f"(at most {100 * t.table_share:.0f} %)")
        problems += [f"{where}: code block scrolls sideways: {w}" for w in x["wide_code"][:5]]
        if x["wide_code"][5:]:
            problems.append(f"{where}: … and {len(x['wide_code']) - 5} more code blocks that scroll sideways")
        if x["figure_text"] is not None and x["figure_text"] < t.figure_text:
            problems.append(f"{where}: smallest figure text {x['figure_text']:.1f} CSS px (at least {t.figure_text})")
    print("\n" + "\n".join(lines))
    assert not problems, "\n".join(problems) + "\n\nmeasured:\n" + "\n".join(lines)


def test_figure_text_is_readable_on_every_page():
    """Every SVG figure on every page shows its smallest text (tick labels included) at 10 CSS px or more
    at 1400 × 900."""
    from rnnrepro.site.browser_check import figure_text_px

    small = []
    for report in _reports("desktop"):
        for f in report.metrics.get("figures", []):
            size = figure_text_px(HTML, report.page, f)
            if size is not None and size < 10:
                small.append(f"{report.page}: {f.get('src')} shows text at {size:.1f} px (width {f['width']:.0f} px)")
    assert not small, "\n".join(small)


def test_front_door_tables_fit_the_column():
    """The landing page's and the scorecard's tables fit the 1400-px page's column: none scrolls sideways."""
    reports = {r.page: r for r in _reports("desktop")}
    wide = {page: reports[page].metrics.get("wide_tables") for page in ("book/intro.html", "book/scorecard.html")}
    assert not any(wide.values()), wide


#: An item of a page's download menu (the theme's dropdown; rnnrepro.site.sphinxext.downloads).
_DOWNLOAD = re.compile(r'<a href="([^"]+)"[^>]*class="btn btn-sm btn-download-[a-z-]*button dropdown-item"')


def test_every_download_link_of_every_chapter_and_the_landing_page_resolves_to_a_file():
    """After the build alone, each item of the download menu (.ipynb, .md, the chapter's PDF; on the
    landing page the book's PDF and the notebooks zip) and each file the cite block offers is a file of
    the site. Where the build printed no PDF (no Chromium), no page offers one."""
    from rnnrepro.site.pdf import BOOK_PDF, PDF_DIR

    pages = [ch.notebook.removesuffix(".md") + ".html" for ch in CHAPTERS] + [toc_files()[0] + ".html"]
    printed = (HTML / PDF_DIR / BOOK_PDF).is_file()
    missing, offered = [], {}
    for page in pages:
        text = _page(page)
        links = _DOWNLOAD.findall(text) + re.findall(r'href="([a-z0-9_]+\.(?:ledger\.json|figures\.zip))"', text)
        offered[page] = links
        missing += [f"{page}: {href}" for href in links if not (HTML / page).parent.joinpath(href).resolve().is_file()]
        if not printed:
            missing += [f"{page}: offers {href} but the build printed no PDF"
                        for href in links if href.endswith(".pdf")]
    assert not missing, "download links to no file:\n" + "\n".join(missing)
    root = offered[pages[-1]]
    assert any(href.endswith("_notebooks/rnnrepro-notebooks.zip") for href in root), root
    assert any(href.endswith(f"{PDF_DIR}/{BOOK_PDF}") for href in root) == printed, root
    for page in pages[:-1]:
        assert any(href.endswith(".ipynb") for href in offered[page]), f"{page} offers no executed notebook"
        assert any(href.endswith(".pdf") for href in offered[page]) == printed, offered[page]


def test_no_figure_is_wider_than_a_phone_screen():
    """On a 390 × 844 phone every figure of every chapter shows at its natural size or smaller in the
    column (a wide figure's phone variant: its panels stacked, rnnrepro.site.sphinxext.phone_figures):
    none is scaled down below its drawn size, none sticks out or scrolls sideways, and its smallest text
    is at least 9 CSS px. Per chapter, the figures and those wider than the screen are printed (-s)."""
    from rnnrepro.site.browser_check import figure_text_px, wide_figures

    reports = {r.page: r for r in _reports("phone")}
    problems, lines = [], []
    for chapter in CHAPTERS:
        page = chapter.notebook.removesuffix(".md") + ".html"
        metrics = reports[page].metrics
        figures = metrics.get("figures", [])
        wide = wide_figures(figures, metrics.get("view_width"))
        small = [(f, figure_text_px(HTML, page, f)) for f in figures]
        small = [f"{f.get('src')}: text {size:.1f} px" for f, size in small if size is not None and size < 9.0]
        lines.append(f"{chapter.key:10s} figures {len(figures):3d}  wider than a 390-px screen {len(wide):3d}  "
                     f"text under 9 px {len(small):3d}")
        problems += [f"{page}: wider than the screen: {w}" for w in wide] + [f"{page}: {s}" for s in small]
    print("\n" + "\n".join(lines))
    assert not problems, "\n".join(problems) + "\n\n" + "\n".join(lines)


def test_search_results_show_formulas_typeset_not_raw_tex():
    """Sphinx's search page shows each result with a summary of its text, formulas as raw TeX
    ("\\(\\lambda < 1\\)"): the book's script has MathJax typeset them (rnnrepro.js)."""
    from rnnrepro.site.browser_check import check_pages

    # "Lipschitz" first appears beside a formula on the pages that use it ("an \(L_\rho\)-Lipschitz activation")
    (report,) = check_pages(HTML, ["search.html?q=Lipschitz"], _chromium(), budget_ms=20000)
    assert report.typeset > 0, "no typeset formula in the search results (no result with a formula?)"
    assert not report.raw_tex, report.raw_tex
    assert not report.console_errors, report.console_errors


def test_one_search_box_home_page_in_the_sidebar_and_previews_on_every_page():
    """One search box (the header's button; the sidebar has none); the landing page listed in the
    sidebar (``html: home_page_in_navbar``, kept by ``sphinx: recursive_update``); every page's Open
    Graph preview (sphinxext-opengraph); a sitemap exactly when the book has a public address
    (sphinx-sitemap)."""
    from rnnrepro.book.cite import public_url

    root = toc_files()[0]
    for name in toc_files():
        text = _page(name + ".html")
        sidebar = text[text.index('id="pst-primary-sidebar"'):text.index("<main")]
        assert "search-button" not in sidebar and "bd-search" not in sidebar, f"{name}: a search box in the sidebar"
        assert "search-button__button" in text[:text.index('id="pst-primary-sidebar"')], f"{name}: no search button"
        home = re.search(r'<ul class="nav bd-sidenav bd-sidenav__home-link">.*?href="([^"]*)"', sidebar, re.S)
        assert home, f"{name}: the landing page is not in the sidebar"
        assert home.group(1) == "#" if name == root else home.group(1).endswith(Path(root).name + ".html"), name
        assert '<meta property="og:title" content="' in text and '<meta property="og:description"' in text, name
    assert (HTML / "sitemap.xml").is_file() == bool(public_url())


def test_the_cite_block_links_to_the_paper():
    """The replicated paper's reference in each chapter's cite block: its address is a link."""
    for chapter in CHAPTERS:
        text = _page(chapter.notebook.removesuffix(".md") + ".html")
        cue = "Please cite the replicated paper"
        block = text[text.index(cue):] if cue in text else ""
        if "URL:" in block[:3000]:
            assert re.search(r'URL: <a class="reference external" href="https?://', block[:3000]), chapter.key


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.key)
def test_chapter_reads_like_a_lecture(chapter):
    """With every fold closed: at most 5,000 words and no paragraph over 150; the paper's statements in
    boxes titled with its numbers; numbered exercises, each with its solution; the paper's link above
    the first figure (rnnrepro.site.lecture_shape)."""
    from rnnrepro.site.lecture_shape import measure

    shape = measure(_page(chapter.notebook.removesuffix(".md") + ".html"))
    assert not shape.problems(), f"{chapter.key}: " + "; ".join(shape.problems())
