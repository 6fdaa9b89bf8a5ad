"""A PDF of each chapter, printed from its built page by headless Chromium, and checked.

``python -m rnnrepro.site.pdf _build/html`` serves the built site on 127.0.0.1 (:mod:`.local_server`),
opens each chapter page of the table of contents in headless Chromium (background networking off, as
:mod:`.browser_check` runs it), lets the page's scripts run for ``--budget`` ms of virtual time (MathJax
typesets, images load) and prints it to ``_build/html/_pdf/<chapter>.pdf`` on A4 paper. The chapter
page's download menu offers that file (:mod:`.sphinxext.downloads`). Each PDF is then checked
(:func:`pdf_problems`, with poppler's ``pdfinfo`` and ``pdftotext``): it has pages; its text holds no
raw TeX (``\\(``, ``\\)``, ``\\[``, ``\\]``, ``$$``: math that did not typeset); the page's title and the
caption of every figure of the page are in it (figures in place). Exits 1 if a check fails.
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
#: Virtual time a page gets before it is printed (ms): MathJax typesets a long chapter within seconds.
BUDGET_MS = 30000
#: Printed on A4 with modest margins (the theme's print style hides its header and sidebars); a code
#: line too long for the paper wraps instead of being cut off at the margin.
PRINT_CSS = ("<style>@page { size: A4; margin: 14mm 12mm; }\n"
             "@media print { pre { white-space: pre-wrap !important; overflow-wrap: anywhere; } }</style>")


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


def make_pdfs(site: Path, chromium: str, keys: list[str] | None = None, budget_ms: int = BUDGET_MS) -> list[Path]:
    """Print each chapter page (``keys``, by default every chapter of the site) to its PDF; return them.
    RuntimeError when Chromium writes no PDF for a page."""
    from rnnrepro.site.local_server import serve

    site = Path(site)
    pages = chapter_pages(site)
    unknown = sorted(set(keys or []) - set(pages))
    if unknown:
        raise ValueError(f"no built chapter page for {', '.join(unknown)}: chapters of this site are "
                         f"{', '.join(pages)}")
    written = []
    (site / PDF_DIR).mkdir(exist_ok=True)
    with serve(site, inject=PRINT_CSS) as base:
        for key in keys or list(pages):
            written.append(print_pdf(chromium, f"{base}/{pages[key]}", pdf_path(site, key), budget_ms))
    return written


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


def pdf_text(pdf: Path) -> str:
    """The PDF's text (poppler's ``pdftotext``)."""
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                          check=True, timeout=120).stdout


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


def pdf_problems(pdf: Path, html: str) -> list[str]:
    """What is wrong with a chapter's PDF, printed from the page ``html``: no pages; raw TeX in its text;
    the page's title or a figure's caption (its first eight words, outside formulas) missing."""
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
    title, captions = page_facts(html)
    if title and _words(title) not in flat:
        problems.append(f"{pdf.name}: the page's title {title!r} is not in it")
    for caption in captions:
        head = caption_words(caption)
        if head and head not in flat:
            problems.append(f"{pdf.name}: the figure captioned {caption[:60]!r} is not in it")
    return problems


def main(argv: list[str] | None = None) -> int:
    from rnnrepro.site.browser_check import find_chromium

    parser = argparse.ArgumentParser(prog="python -m rnnrepro.site.pdf",
                                     description="Print each chapter page of the built book to a PDF and check it.")
    parser.add_argument("site", type=Path, help="the built HTML folder (_build/html)")
    parser.add_argument("--only", action="append", default=None, metavar="KEY", help="this chapter only (repeatable)")
    parser.add_argument("--budget", type=int, default=BUDGET_MS,
                        help=f"virtual time per page, ms (default {BUDGET_MS})")
    args = parser.parse_args(argv)
    chromium = find_chromium()
    missing = [tool for tool in ("pdftotext", "pdfinfo") if shutil.which(tool) is None]
    if chromium is None or missing:
        print("error: printing and checking the PDFs needs Chromium and poppler's pdftotext and pdfinfo "
              "(Debian: apt-get install chromium poppler-utils)", file=sys.stderr)
        return 2
    if not chapter_pages(args.site):
        print(f"error: no built chapter page under {args.site}: build the book first", file=sys.stderr)
        return 2
    try:
        written = make_pdfs(args.site, chromium, args.only, args.budget)
    except (ValueError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    pages = chapter_pages(args.site)
    problems = []
    for pdf in written:
        html = (Path(args.site) / pages[pdf.stem]).read_text(encoding="utf-8")
        found = pdf_problems(pdf, html)
        problems += found
        print(f"{pdf}: {pdf_pages(pdf)} pages, {pdf.stat().st_size // 1024} KiB" + (" (PROBLEMS)" if found else ""))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
