"""A PDF of each chapter, printed from its built page by headless Chromium, and checked.

The book's build prints them itself (:mod:`rnnrepro.site.sphinxext.printed`); ``python -m
rnnrepro.site.pdf _build/html --check`` checks what it printed, and without ``--check`` it prints them
again. Printing serves the built site on 127.0.0.1 (:mod:`.local_server`),
opens each chapter page of the table of contents in headless Chromium (background networking off, as
:mod:`.browser_check` runs it), lets the page's scripts run for ``--budget`` ms of virtual time (MathJax
typesets, images load) and prints it to ``_build/html/_pdf/<chapter>.pdf`` on A4 paper, complete
(:data:`PRINT_CSS`: every folded section open, no buttons or toggles, captions dark, links to the page's
own rows inside the PDF; a cell's folded code is left out: it is on the page and in the executed notebook).
The chapter page's download menu offers that file (:mod:`.sphinxext.downloads`).
Each PDF is then checked (:func:`pdf_problems`, with poppler's ``pdfinfo`` and ``pdftotext``): it has
pages; its text holds no raw TeX (``\\(``, ``\\)``, ``\\[``, ``\\]``, ``$$``: math that did not typeset) and
no "Show code cell" toggle; the page's title, the caption of every figure, the content of every folded
section (claims ledger, response to review, deviations, exercise solutions) and every claim of the
chapter's ledger are in it; no link points at the server that printed it. Exits 1 if a check fails.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

from rnnrepro.site.browser_check import RAW_TEX    # math that did not typeset, as its text reads

PDF_DIR = "_pdf"
#: The whole book in one PDF (the intro page, then each chapter's PDF), offered on the landing page.
BOOK_PDF = "rnnrepro.pdf"
#: Virtual time a page gets before it is printed (ms): MathJax typesets a long chapter within seconds.
BUDGET_MS = 30000
#: Printed on A4 with modest margins (the theme's print style hides its header and sidebars); a code
#: line too long for the paper wraps instead of being cut off at the margin. The printed chapter is
#: complete: every folded section (the claims ledger, the response to review, the deviations, each
#: exercise's solution, a hidden code cell) is open, and what only a screen needs is left out: buttons,
#: the "Show code cell source" toggles, headerlinks. Captions and muted text print dark.
PRINT_CSS = """<style>@page { size: A4; margin: 14mm 12mm; }
@media print {
  pre { white-space: pre-wrap !important; overflow-wrap: anywhere; }
  details.hide > summary, details.above-input > summary, details.below-input > summary { display: none !important; }
  button, .toggle-button, .copybtn, a.headerlink, .sd-summary-state-marker,
  .rnnrepro-filter { display: none !important; }
  .toggle-hidden, details > *, .toggle-details__content { display: block !important; visibility: visible !important;
    opacity: 1 !important; height: auto !important; max-height: none !important; }
  details > summary { display: block !important; list-style: none; }
  .tag_hide-input .cell_input, .tag_hide-cell .cell_input { display: none !important; }
  figcaption, figcaption *, .caption-text, .rnnrepro-full-note, .claim-meta, span.rnnrepro-profile,
  details.claim-quote summary { color: #000 !important; }
  figcaption { font-weight: 400 !important; }
  figure, img, svg, tr { break-inside: avoid; }
}</style>
<script>(function () {
  // Open every folded section; links to an element of this page become "#id" links (they land inside
  // the PDF, not on the server that printed it).
  function expand() {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
    document.querySelectorAll(".toggle-hidden").forEach(function (e) { e.classList.remove("toggle-hidden"); });
    document.querySelectorAll("a[href*='#']").forEach(function (a) {
      if (a.origin === location.origin && a.pathname === location.pathname && a.hash.length > 1) {
        a.setAttribute("href", a.hash);
      }
    });
    // a link to another file of the site would point at the server that printed the page: plain text
    document.querySelectorAll("a[href]").forEach(function (a) {
      if (a.origin === location.origin && a.pathname !== location.pathname) { a.removeAttribute("href"); }
    });
  }
  document.addEventListener("DOMContentLoaded", expand);
  window.addEventListener("load", function () { expand(); setTimeout(expand, 500); });
})();</script>"""
#: Text a printed page must not hold: the screen's toggles and buttons.
SCREEN_ONLY = ("Show code cell", "Hide code cell", "Click to show", "Click to hide")


def chapter_pages(site: Path) -> dict[str, str]:
    """``{chapter key: page}`` (page: path of its HTML relative to ``site``) of every chapter in the table
    of contents that the site holds."""
    from rnnrepro.book.chapters import all_chapters, chapter_page
    from rnnrepro.book.paths import toc_files

    in_toc = set(toc_files())
    pages = {key: chapter_page(key) + ".html" for key in all_chapters() if chapter_page(key) in in_toc}
    return {key: page for key, page in pages.items() if (Path(site) / page).is_file()}


def pdf_path(site: Path, key: str) -> Path:
    """Where chapter ``key``'s PDF is written: ``<site>/_pdf/<key>.pdf``."""
    return Path(site) / PDF_DIR / f"{key}.pdf"


#: What each PDF in ``_pdf`` was printed from (:func:`printed_from`), by chapter key and :data:`BOOK_PDF`.
PRINTED = ".printed.json"


def printed_from(*parts: bytes | str) -> str:
    """sha256 of what a PDF is printed from: its page's HTML (the page names its figures, styles and scripts
    by content), with the print style :data:`PRINT_CSS`; for the book's PDF, its front page and chapters'."""
    import hashlib

    digest = hashlib.sha256(PRINT_CSS.encode())
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
    return digest.hexdigest()


def printed_record(site: Path) -> dict[str, str]:
    """``{chapter key or BOOK_PDF: printed_from(...)}`` of the PDFs in ``<site>/_pdf`` ({} when none is known)."""
    import json

    try:
        return dict(json.loads((Path(site) / PDF_DIR / PRINTED).read_text()))
    except (OSError, ValueError, TypeError):
        return {}


def _record_printed(site: Path, entries: dict[str, str]) -> None:
    import json

    if not entries:
        return
    record = {**printed_record(site), **entries}
    (Path(site) / PDF_DIR / PRINTED).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


def print_command(chromium: str, url: str, out: Path, profile: str, budget_ms: int = BUDGET_MS) -> list[str]:
    """Chromium's command line that prints ``url`` to ``out`` once ``budget_ms`` of virtual time has run."""
    from rnnrepro.site.browser_check import CHROMIUM_FLAGS

    return [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1400,900",
            "--run-all-compositor-stages-before-draw", f"--virtual-time-budget={budget_ms}",
            "--no-pdf-header-footer", f"--print-to-pdf={out}", url]


def print_pdf(chromium: str, url: str, out: Path, budget_ms: int = BUDGET_MS) -> Path:
    """Print the page at ``url`` to ``out``; RuntimeError when Chromium writes no PDF."""
    out = Path(out)
    out.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        res = subprocess.run(print_command(chromium, url, out, profile, budget_ms),
                             capture_output=True, text=True, timeout=600)
    if not out.is_file() or out.stat().st_size == 0:
        raise RuntimeError(f"Chromium wrote no PDF for {url} (exit {res.returncode}): {res.stderr.strip()[-500:]}")
    return out


def make_pdfs(site: Path, chromium: str, keys: list[str] | None = None, budget_ms: int = BUDGET_MS, *,
              stale_only: bool = False, jobs: int | None = None) -> list[Path]:
    """Print each chapter page (``keys``, by default every chapter of the site) to its PDF; return them, in
    the order of ``keys``. ``jobs`` pages print at once (default: the usable cores,
    :func:`rnnrepro.book.machine.usable_cores`; Chromium keeps about one core busy per page), the largest
    pages first. ``stale_only``: keep a PDF printed from the page as it is now
    (:data:`PRINTED`: a rebuild that changed nothing, ``--all`` included, prints nothing). RuntimeError when
    Chromium writes no PDF for a page."""
    from concurrent.futures import ThreadPoolExecutor

    from rnnrepro.book.machine import usable_cores
    from rnnrepro.site.local_server import serve

    site = Path(site)
    pages = chapter_pages(site)
    unknown = sorted(set(keys or []) - set(pages))
    if unknown:
        raise ValueError(f"no built chapter page for {', '.join(unknown)}: chapters of this site are "
                         f"{', '.join(pages)}")
    keys = list(keys or pages)
    (site / PDF_DIR).mkdir(exist_ok=True)
    source = {k: printed_from((site / pages[k]).read_bytes()) for k in keys}
    record = printed_record(site)
    stale = [k for k in keys if not (stale_only and pdf_path(site, k).is_file() and record.get(k) == source[k])]
    stale.sort(key=lambda k: -(site / pages[k]).stat().st_size)      # the longest prints start first
    with serve(site, inject=PRINT_CSS) as base, \
            ThreadPoolExecutor(max_workers=max(1, min(jobs or usable_cores(), len(stale) or 1))) as pool:
        printing = [pool.submit(print_pdf, chromium, f"{base}/{pages[k]}", pdf_path(site, k), budget_ms)
                    for k in stale]
        for future in printing:
            future.result()                       # Chromium's failure, raised here
    _record_printed(site, {k: source[k] for k in stale})
    return [pdf_path(site, k) for k in keys]


def make_book_pdf(site: Path, chromium: str, chapter_pdfs: list[Path], root_page: str,
                  budget_ms: int = BUDGET_MS, *, stale_only: bool = False) -> Path:
    """The whole book in one PDF, ``<site>/_pdf/rnnrepro.pdf``: the landing page ``root_page`` printed
    as the chapters are, then every chapter's PDF in the order of the table of contents (poppler's
    ``pdfunite``). ``stale_only``: keep it when it was made from this landing page and these chapter PDFs
    (:data:`PRINTED`). RuntimeError when a step writes nothing."""
    from rnnrepro.site.local_server import serve

    site = Path(site)
    source = printed_from((site / root_page).read_bytes(), *(Path(p).read_bytes() for p in chapter_pdfs))
    if stale_only and (site / PDF_DIR / BOOK_PDF).is_file() and printed_record(site).get(BOOK_PDF) == source:
        return site / PDF_DIR / BOOK_PDF
    front = site / PDF_DIR / "_front.pdf"
    with serve(site, inject=PRINT_CSS) as base:
        print_pdf(chromium, f"{base}/{root_page}", front, budget_ms)
    out = site / PDF_DIR / BOOK_PDF
    res = subprocess.run(["pdfunite", str(front), *map(str, chapter_pdfs), str(out)], capture_output=True,
                         text=True, timeout=300)
    front.unlink(missing_ok=True)
    if res.returncode != 0 or not out.is_file():
        raise RuntimeError(f"pdfunite wrote no book PDF (exit {res.returncode}): {res.stderr.strip()[-300:]}")
    _record_printed(site, {BOOK_PDF: source})
    return out


#: The tools that printing and checking the PDFs needs, beside Chromium (Debian: poppler-utils).
POPPLER = ("pdftotext", "pdfinfo", "pdfunite")


def missing_tools() -> list[str]:
    """What printing the PDFs needs and this machine lacks (Chromium, poppler's tools)."""
    from rnnrepro.site.browser_check import find_chromium

    return ([] if find_chromium() else ["chromium"]) + [t for t in POPPLER if shutil.which(t) is None]


class _PageFacts(HTMLParser):
    """A built page's title (its first ``h1``) and figure captions, as text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title, self.captions = "", []
        self._in = None
        self._text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "mjx-container"):
            self._skip += 1
        elif self._in is None and (tag == "figcaption" or (tag == "h1" and not self.title)):
            self._in, self._text = tag, []

    def handle_endtag(self, tag):
        if tag in ("script", "style", "mjx-container"):
            self._skip = max(0, self._skip - 1)
        elif tag == self._in:
            text = " ".join("".join(self._text).split()).rstrip("#¶ ")
            if tag == "h1":
                self.title = text
            elif text:
                self.captions.append(text)
            self._in = None

    def handle_data(self, data):
        if self._in and not self._skip:
            self._text.append(data)


def page_facts(html: str) -> tuple[str, list[str]]:
    """(title, figure captions) of a built page."""
    parser = _PageFacts()
    parser.feed(html)
    return parser.title, parser.captions


def pdf_text(pdf: Path, raw: bool = False) -> str:
    """The PDF's text (poppler's ``pdftotext``); ``raw``: in the order it was drawn (a table cell's text
    together, not merged line by line with its neighbours')."""
    return subprocess.run(["pdftotext", *(["-raw"] if raw else []), "-enc", "UTF-8", str(pdf), "-"],
                          capture_output=True, text=True, check=True, timeout=120).stdout


def pdf_pages(pdf: Path) -> int:
    """The PDF's number of pages (poppler's ``pdfinfo``)."""
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True, timeout=60).stdout
    found = re.search(r"^Pages:\s+(\d+)", info, re.M)
    return int(found.group(1)) if found else 0


def _words(text: str) -> str:
    """Letters and digits only, lower case, one space apart: text as a PDF's text layer can be compared."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


#: A formula in a caption as the built page writes it (MathJax's delimiters, or dollars).
_MATH = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]|\$[^$]*\$")


def caption_words(caption: str, n: int = 8) -> str:
    """Up to ``n`` words of a caption (as :func:`_words`) from its first stretch of at least three words
    outside formulas: what the PDF's text must hold (a typeset formula's text is the font's business)."""
    stretches = [_words(part).split() for part in _MATH.split(caption)]
    stretch = next((words for words in stretches if len(words) >= 3), max(stretches, key=len))
    return " ".join(stretch[:n])


class _Folded(HTMLParser):
    """The sections of a built page that a screen folds: sphinx-design dropdowns (the response to review,
    the deviations, an exercise's expected outcome), the book's ``details`` sections (the claims ledger),
    sphinx-exercise solutions; each as (its title, the text of its content)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[list[str]] = []
        self._stack: list[tuple[str, list[str] | None, bool]] = []   # (tag, section it opens, is a title)
        self._open: list[list[str]] = []                             # sections being read, innermost last
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("p", "div", "td", "th", "tr", "li", "section", "br", "dd", "dt"):
            self.handle_data(" ")                 # text of two blocks is two words
        if tag in _VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        section = None
        if (tag == "details" and ({"sd-dropdown", "rnnrepro-apparatus"} & set(classes))) or \
                (tag == "div" and "solution" in classes):
            section = ["", ""]
            self.sections.append(section)
            self._open.append(section)
        self._stack.append((tag, section, tag == "summary" or (tag == "p" and "admonition-title" in classes)))
        if tag in ("script", "style", "mjx-container"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        while self._stack:
            open_tag, section, _title = self._stack.pop()
            if section is not None and self._open and self._open[-1] is section:
                self._open.pop()
            if open_tag in ("script", "style", "mjx-container"):
                self._skip = max(0, self._skip - 1)
            if open_tag == tag:
                break

    def handle_data(self, data):
        if not self._open or self._skip:
            return
        section, title = self._open[-1], False
        for _tag, opened, is_title in reversed(self._stack):
            if opened is section:
                break
            title = title or is_title
        section[0 if title else 1] += data


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def folded_sections(html: str) -> list[tuple[str, str]]:
    """(title, content text) of every section a built page folds (:class:`_Folded`), in page order."""
    parser = _Folded()
    parser.feed(html)
    return [(" ".join(t.split()), " ".join(c.split())) for t, c in parser.sections]


def _squash(text: str) -> str:
    """Letters and digits only, lower case: text compared across the line breaks a PDF puts anywhere."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def pdf_problems(pdf: Path, html: str, claim_ids: list[str] | tuple[str, ...] = ()) -> list[str]:
    """What is wrong with a chapter's PDF, printed from the page ``html``: no pages; raw TeX in its text;
    a screen's toggle (:data:`SCREEN_ONLY`, "Show code cell source") printed; the page's title, a
    figure's caption (its first eight words, outside formulas) or the first words of a folded section's
    content (:func:`folded_sections`: the claims ledger, the response to review, the deviations, an
    exercise's solution) missing; a claim of ``claim_ids`` (the chapter's ledger) not in its text."""
    problems = []
    pages = pdf_pages(pdf)
    if pages == 0:
        return [f"{pdf.name}: no pages"]
    text = pdf_text(pdf)
    raw = sorted(set(RAW_TEX.findall(text)))
    if raw:
        where = text[max(0, RAW_TEX.search(text).start() - 60):RAW_TEX.search(text).end() + 60]
        problems.append(f"{pdf.name}: raw TeX {raw} in its text (math not typeset), e.g. {' '.join(where.split())!r}")
    flat = _words(text)
    dead = re.findall(rb"/URI \((https?://(?:127\.0\.0\.1|localhost)[^)]*)\)", Path(pdf).read_bytes())
    if dead:
        problems.append(f"{pdf.name}: {len(dead)} link(s) to the server that printed it, e.g. {dead[0].decode()!r}")
    problems += [f"{pdf.name}: prints the screen's {s!r} ({text.count(s)} times)" for s in SCREEN_ONLY if s in text]
    title, captions = page_facts(html)
    if title and _words(title) not in flat:
        problems.append(f"{pdf.name}: the page's title {title!r} is not in it")
    for caption in captions:
        head = caption_words(caption)
        if head and head not in flat:
            problems.append(f"{pdf.name}: the figure captioned {caption[:60]!r} is not in it")
    squashed = _squash(pdf_text(pdf, raw=True))
    for section_title, content in folded_sections(html):
        head = _squash(caption_words(content))
        if head and head not in squashed:
            problems.append(f"{pdf.name}: the folded section {section_title[:50]!r} is not printed open "
                            f"(its first words {caption_words(content)!r} are not in it)")
    # the ledger prints a claim's id without its chapter ("lemma2.term_b" in miller's ledger)
    missing = [claim for claim in claim_ids if _squash(claim.split(".", 1)[-1]) not in squashed]
    if missing:
        problems.append(f"{pdf.name}: {len(missing)} of the ledger's {len(claim_ids)} claims are not in it: "
                        f"{missing[:5]}")
    return problems


def ledger_claim_ids(site: Path, page: str, key: str) -> list[str]:
    """The claim ids of chapter ``key``'s ledger beside its built page (``<key>.ledger.json``); [] without one."""
    import json

    ledger = (Path(site) / page).parent / f"{key}.ledger.json"
    if not ledger.is_file():
        return []
    return [claim["id"] for claim in json.loads(ledger.read_text()).get("claims", [])]


def main(argv: list[str] | None = None) -> int:
    from rnnrepro.site.browser_check import find_chromium

    parser = argparse.ArgumentParser(prog="python -m rnnrepro.site.pdf",
                                     description="Print each chapter page of the built book to a PDF and check it.")
    parser.add_argument("site", type=Path, help="the built HTML folder (_build/html)")
    parser.add_argument("--only", action="append", default=None, metavar="KEY", help="this chapter only (repeatable)")
    parser.add_argument("--budget", type=int, default=BUDGET_MS,
                        help=f"virtual time per page, ms (default {BUDGET_MS})")
    parser.add_argument("--check", action="store_true",
                        help="check the PDFs the build printed, without printing them again")
    args = parser.parse_args(argv)
    chromium = find_chromium()
    if missing_tools():
        print("error: printing and checking the PDFs needs Chromium and poppler's pdftotext, pdfinfo and pdfunite "
              "(Debian: apt-get install chromium poppler-utils)", file=sys.stderr)
        return 2
    if not chapter_pages(args.site):
        print(f"error: no built chapter page under {args.site}: build the book first", file=sys.stderr)
        return 2
    try:
        if args.check:
            written = [pdf_path(args.site, key) for key in (args.only or chapter_pages(args.site))]
            absent = [str(p) for p in written if not p.is_file()]
            if absent:
                raise RuntimeError(f"no PDF {', '.join(absent)}: the build prints them when Chromium is installed")
        else:
            written = make_pdfs(args.site, chromium, args.only, args.budget)
    except (ValueError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    pages = chapter_pages(args.site)
    problems = []
    for pdf in written:
        html = (Path(args.site) / pages[pdf.stem]).read_text(encoding="utf-8")
        found = pdf_problems(pdf, html, ledger_claim_ids(args.site, pages[pdf.stem], pdf.stem))
        problems += found
        print(f"{pdf}: {pdf_pages(pdf)} pages, {pdf.stat().st_size // 1024} KiB" + (" (PROBLEMS)" if found else ""))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
