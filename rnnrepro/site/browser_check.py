"""Open the built book in headless Chromium, offline, and report what a reader would see broken.

For each page: raw TeX delimiters left in the text (math that did not typeset), images whose file is
missing, and the errors on the browser console. The pages are served from a local HTTP server on
127.0.0.1; Chromium runs with its background networking off, so nothing outside the machine is asked.
Used by ``tests/test_built_book.py`` (CI installs Debian's ``chromium``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from rnnrepro.site.local_server import serve

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--enable-logging=stderr", "--v=0")
#: \( \) \[ \] $$, or $…$ around TeX (a backslash, ^ or _ inside): math that did not typeset.
_RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\$[^$\s][^$\n]*[\\^_][^$\n]*\$")
_CONSOLE = re.compile(r":CONSOLE(?::\d+|\(\d+\))\] \"(.*)\", source: (\S*)")
_CONSOLE_ERROR = re.compile(r"Uncaught|Error|Failed to load|Refused to")


def find_chromium() -> str | None:
    """Path of a Chromium (or Chrome) executable, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class _Text(HTMLParser):
    """Visible text (no script, style, code, pre, textarea, MathJax output) and image sources."""

    SKIP = {"script", "style", "code", "pre", "textarea", "mjx-container", "mjx-assistive-mml"}

    def __init__(self):
        super().__init__()
        self.depth, self.chunks, self.images, self.math = 0, [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "mjx-container":
            self.math += 1
        if tag in self.SKIP:
            self.depth += 1
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.chunks.append(data)


@dataclass
class PageReport:
    """What is broken on one page (empty lists: nothing)."""

    page: str
    raw_tex: list[str] = field(default_factory=list)
    missing_images: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    typeset: int = 0

    @property
    def ok(self) -> bool:
        return not (self.raw_tex or self.missing_images or self.console_errors)


def inspect_dom(page: str, dom: str, site: Path) -> PageReport:
    """Raw TeX in the visible text and images whose file is not in ``site`` (the HTML folder)."""
    parser = _Text()
    parser.feed(dom)
    text = "".join(parser.chunks)
    report = PageReport(page, typeset=parser.math)
    report.raw_tex = [text[max(0, m.start() - 30):m.end() + 30].strip() for m in _RAW_TEX.finditer(text)][:5]
    base = (site / page).parent
    for src in parser.images:
        parts = urlsplit(src)
        if parts.scheme == "data":
            continue
        if parts.scheme in ("http", "https") and parts.hostname not in ("127.0.0.1", "localhost"):
            report.missing_images.append(f"{src} (not served by the book)")
            continue
        path = site / unquote(parts.path).lstrip("/") if parts.scheme else base / unquote(parts.path)
        if not path.resolve().is_file():
            report.missing_images.append(src)
    return report


def console_errors(stderr: str) -> list[str]:
    """Console messages in Chromium's log that are errors (uncaught exceptions, failed loads)."""
    return [f"{msg} ({src})" for msg, src in _CONSOLE.findall(stderr) if _CONSOLE_ERROR.search(msg)]


def check_pages(site: Path, pages: list[str], chromium: str, budget_ms: int = 8000) -> list[PageReport]:
    """Load each page (path relative to ``site``) in headless Chromium and inspect it."""
    reports = []
    with serve(site) as base, tempfile.TemporaryDirectory() as profile:
        for page in pages:
            res = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                                  f"--virtual-time-budget={budget_ms}", "--dump-dom", f"{base}/{page}"],
                                 capture_output=True, text=True, timeout=120)
            report = inspect_dom(page, res.stdout, site)
            report.console_errors = console_errors(res.stderr)
            if res.returncode != 0 or not res.stdout.strip():
                report.console_errors.append(f"chromium exited {res.returncode} with no page")
            reports.append(report)
    return reports
