"""Open the built book in headless Chromium, offline, on a desktop or a phone screen, and report what a
reader would see broken.

For each page: raw TeX delimiters left in the text (math that did not typeset); images whose file is
missing; text that is a Python repr (``Claim(``, ``<rnnrepro.``, ``array(``, ``object at 0x``);
every console error (``console.error``, uncaught exceptions, failed loads); and for every claims table
(``.rnnrepro-claims table``) rows whose number of cells differs from the header's, status cells that
do not read a status (columns shifted), status cells not fully visible (outside the viewport, clipped
by a scrolling ancestor, or cut off inside the cell), status badges broken over lines, and cells whose
content is wider than the cell; a page wider than the screen (it scrolls sideways; the elements that
stick out are named); and with ``page#id``, a target row hidden under the sticky header.
Layout and console are read by a probe script that the local server puts at the top of every page it
serves (:data:`PROBE_JS`); it writes its findings as JSON into the page, which ``--dump-dom`` returns.
The pages are served from 127.0.0.1; Chromium runs with its background networking off, so nothing
outside the machine is asked. Used by ``tests/test_built_book.py`` (CI installs Debian's ``chromium``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlencode, urlsplit

from rnnrepro.book.claims_table import ALL_STATUSES
from rnnrepro.site.local_server import serve

WIDTH, HEIGHT = 1400, 1000
#: The screens a reader uses: a desktop and a phone (an iPhone 12–15's 390 × 844 CSS pixels).
DESKTOP, PHONE = (1400, 900), (390, 844)
#: Chromium's narrowest window: a narrower screen is a frame of that size (:data:`SCREEN_PAGE`) in a wider window.
NARROWEST = 500
#: Served at /__screen__.html?w=…&h=…&src=…: the page ``src`` in a frame of w × h CSS pixels, as on a
#: phone; the probe inside copies its findings into this page, which ``--dump-dom`` returns.
SCREEN_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>screen</title>
<style>html, body { margin: 0; } iframe { border: 0; display: block; }</style></head><body><script>
var q = new URLSearchParams(location.search), f = document.createElement("iframe");
f.width = q.get("w"); f.height = q.get("h"); f.src = q.get("src"); document.body.appendChild(f);
</script></body></html>"""
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--enable-logging=stderr", "--v=0")
#: \( \) \[ \] $$, or $…$ around TeX (a backslash, ^ or _ inside): math that did not typeset.
_RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\$[^$\s][^$\n]*[\\^_][^$\n]*\$")
#: A Python object's repr shown to the reader (a cell whose last expression was not silenced).
_REPR = re.compile(r"(?<![\w.])(Claim|ClaimsTable|Ledger|array|tensor)\((?!\))|<rnnrepro\.|\bobject at 0x[0-9a-f]+>")
_CONSOLE = re.compile(r":CONSOLE(?::\d+|\(\d+\))\] \"(.*)\", source: (\S*)")
_CONSOLE_ERROR = re.compile(r"Uncaught|Error|Failed to load|Refused to")
_STATUS = "|".join(re.escape(s) for s in ALL_STATUSES)
#: A status cell's text: a status, or with the shipped full run beside, ``fast <status> full <status>``.
_STATUS_CELL = re.compile(rf"(?:fast\s+)?(?:{_STATUS})(?:\s+full\s+(?:{_STATUS}|no row))?")
_PROBE_RESULT = re.compile(r'<script type="application/json" id="rnnrepro-probe">(.*?)</script>', re.S)
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

#: Runs first on every served page: records console errors, then after MathJax has typeset, measures
#: the claims tables and writes {"console", "tables", "width"} as JSON into the page.
PROBE_JS = r"""<script>(function () {
var R = {console: [], tables: [], width: 0};
var err = console.error;
console.error = function () {
  try { R.console.push(Array.prototype.map.call(arguments, String).join(" ")); } catch (e) {}
  return err.apply(console, arguments);
};
window.addEventListener("error", function (e) {
  var t = e.target;
  if (t && t !== window && (t.src || t.href)) { R.console.push("failed to load " + (t.src || t.href)); }
  else { R.console.push("uncaught " + (e.message || e)); }
}, true);
window.addEventListener("unhandledrejection", function (e) {
  R.console.push("unhandled rejection " + ((e.reason && e.reason.message) || e.reason));
});
function box(el) {
  var r = el.getBoundingClientRect(), left = 0, right = window.innerWidth;
  for (var a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    if (getComputedStyle(a).overflowX !== "visible") {
      var b = a.getBoundingClientRect(); left = Math.max(left, b.left); right = Math.min(right, b.right);
    }
  }
  return {left: r.left, right: r.right, clip_left: left, clip_right: right};
}
function outside() {
  // Elements that stick out of the viewport's right edge with no scrolling container around them.
  var wide = [], W = document.documentElement.clientWidth;
  document.querySelectorAll("body *").forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= W + 1 || getComputedStyle(el).visibility === "hidden") { return; }
    for (var a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      var st = getComputedStyle(a);   // (overflow does nothing on an inline box)
      if ((st.overflowX !== "visible" && st.display !== "inline") || st.position === "fixed") { return; }
    }
    var p = el.parentElement;
    if (p && p.getBoundingClientRect().right > W + 1 && p !== document.body) { return; }   // its parent is reported
    wide.push(el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ?
      "." + el.className.trim().split(/\s+/).join(".") : "") + " to x = " + Math.round(r.right));
  });
  return wide.slice(0, 8);
}
function header() {
  // The bottom of whatever stays stuck at the top of the viewport (the theme's headers).
  var bottom = 0;
  document.querySelectorAll("header, .bd-header, .bd-header-article, .header-article").forEach(function (h) {
    var st = getComputedStyle(h), r = h.getBoundingClientRect();
    if ((st.position === "sticky" || st.position === "fixed") && r.top <= 1 && r.height > 0) {
      bottom = Math.max(bottom, r.bottom);
    }
  });
  return bottom;
}
function lines(el) {
  // Lines that an element's text takes (distinct tops of its text rectangles).
  var range = document.createRange(), tops = {};
  range.selectNodeContents(el);
  Array.prototype.forEach.call(range.getClientRects(), function (r) {
    if (r.width > 0) { tops[Math.round(r.top)] = 1; }
  });
  return Object.keys(tops).length;
}
function measure() {
  if (location.hash) {
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) {
      var row = target.closest("tr") || target;
      R.anchor = {id: target.id, top: row.getBoundingClientRect().top, header: header()};
    } else { R.anchor = {id: location.hash.slice(1), missing: true}; }
  }
  R.doc_width = document.documentElement.scrollWidth;
  R.view_width = document.documentElement.clientWidth;
  R.outside = outside();
  window.scrollTo(0, 0);
  document.querySelectorAll(".rnnrepro-claims table").forEach(function (t) {
    var head = t.querySelector("thead tr") || t.querySelector("tr");
    var rows = [];
    t.querySelectorAll("tbody tr").forEach(function (tr) {
      var cells = tr.querySelectorAll(":scope > td, :scope > th"), last = cells[cells.length - 1];
      var a = tr.querySelector("a[id]");
      var clipped = [], shrunk = [], scrolled = [];
      cells.forEach(function (td, i) {
        var st = getComputedStyle(td), size = parseFloat(st.fontSize);
        if (td.scrollWidth > td.clientWidth + 1) {
          (st.overflowX === "auto" || st.overflowX === "scroll" ? scrolled : clipped).push(i);
        }
        td.querySelectorAll("mjx-container").forEach(function (m) {
          if (parseFloat(getComputedStyle(m).fontSize) < 0.99 * size && shrunk.indexOf(i) < 0) { shrunk.push(i); }
        });
      });
      var wrapped = [];
      if (last) { last.querySelectorAll(".rnnrepro-badge").forEach(function (b) {
        if (lines(b) > 1 || b.scrollWidth > b.clientWidth + 1) { wrapped.push(b.innerText.trim()); } }); }
      rows.push({id: a ? a.id : "", cells: cells.length, status: last ? last.innerText.trim() : "",
                 box: last ? box(last) : null, clipped: clipped, wrapped: wrapped, shrunk: shrunk,
                 scrolled: scrolled});
    });
    R.tables.push({header: head ? head.children.length : 0, width: t.getBoundingClientRect().width, rows: rows});
  });
  R.width = window.innerWidth;
  var out = document.createElement("script");
  out.type = "application/json"; out.id = "rnnrepro-probe"; out.textContent = JSON.stringify(R);
  document.body.appendChild(out);
  if (window.parent !== window) { window.parent.document.body.appendChild(out.cloneNode(true)); }   // a phone frame
}
window.addEventListener("load", function () {
  var done = false;
  function go() { if (!done) { done = true; measure(); } }
  setTimeout(go, 4000);
  var mj = window.MathJax && window.MathJax.startup && window.MathJax.startup.promise;
  if (mj) { mj.then(function () { setTimeout(go, 200); }); } else { setTimeout(go, 200); }
});
})();</script>"""


def find_chromium() -> str | None:
    """Path of a Chromium (or Chrome) executable, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class _Text(HTMLParser):
    """What a reader sees: visible prose (no script, style, code, pre, MathJax output: for raw TeX),
    the text of outputs including code and pre but not cell sources (for reprs), and image sources."""

    PROSE_SKIP = {"script", "style", "code", "pre", "textarea", "mjx-container", "mjx-assistive-mml"}
    SHOWN_SKIP = {"script", "style", "textarea", "mjx-container", "mjx-assistive-mml"}

    def __init__(self):
        super().__init__()
        self.stack, self.chunks, self.shown, self.images, self.math = [], [], [], [], 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attrs = dict(attrs)
        if tag == "mjx-container":
            self.math += 1
        if tag == "img":
            self.images.append(attrs.get("src") or "")
        if tag in _VOID:
            return
        source = "cell_input" in (attrs.get("class") or "").split()
        self.stack.append((tag, tag in self.PROSE_SKIP, tag in self.SHOWN_SKIP or source))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not any(prose for _, prose, _ in self.stack):
            self.chunks.append(data)
        if not any(shown for _, _, shown in self.stack):
            self.shown.append(data)


@dataclass
class PageReport:
    """What is broken on one page (empty lists: nothing)."""

    page: str
    raw_tex: list[str] = field(default_factory=list)
    missing_images: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    reprs: list[str] = field(default_factory=list)
    table_rows: list[str] = field(default_factory=list)      # cells ≠ header, or status cell not a status
    hidden_status: list[str] = field(default_factory=list)   # status cell outside the viewport or clipped
    clipped_cells: list[str] = field(default_factory=list)   # a claims-table cell whose content is wider than it
    wrapped_status: list[str] = field(default_factory=list)  # a status badge broken over lines or cut off
    overflow: list[str] = field(default_factory=list)        # the page wider than the screen: it scrolls sideways
    anchor: list[str] = field(default_factory=list)          # the page's #target under the sticky header
    typeset: int = 0
    probed: bool = False
    claims_rows: int = 0     # claims-table rows the probe measured

    @property
    def ok(self) -> bool:
        return not (self.raw_tex or self.missing_images or self.console_errors or self.reprs or self.table_rows
                    or self.hidden_status or self.clipped_cells or self.wrapped_status or self.overflow or self.anchor)

    def describe(self) -> str:
        """One line per kind of defect."""
        kinds = ("raw_tex", "missing_images", "console_errors", "reprs", "table_rows", "hidden_status",
                 "clipped_cells", "wrapped_status", "overflow", "anchor")
        return "; ".join(f"{k} {getattr(self, k)[:5]} ({len(getattr(self, k))})" for k in kinds if getattr(self, k))


#: A fixed-point number that reads as zero (``0.00``, ``-0.0%``): the book prints exact zero as ``0``, so
#: this is a non-zero value rounded away (:func:`rnnrepro.book.rows.show`). ``0.0e+00`` is exactly zero
#: (a non-zero number never prints so in scientific notation).
_ZERO = re.compile(r"(?<![\w.])[-−]?0\.0+(?![\d])(?![eE][-+−]?\d)%?")
#: A Python boolean shown as a value (a whole table cell, or after ``fast``/``full``/``=``).
_BOOL = re.compile(r"^\s*(?:True|False)\s*$|(?:\bfast|\bfull|=)\s+(?:True|False)\b")
_CELL = re.compile(r"<td\b[^>]*>(.*?)</td>", re.S)


def value_problems(html: str) -> list[str]:
    """Values a reader would misread in a built page: a number shown as ``0.00`` (non-zero, rounded
    away), a literal ``\\"`` in the prose (a raw Python string's escape), a bare Python ``True``/``False``
    in a table cell. Looks at what a reader sees (not cell sources, scripts or math markup)."""
    parser = _Text()
    parser.feed(html)
    shown = "".join(parser.shown)
    problems = [f"reads as zero: ...{shown[max(0, m.start() - 40):m.end() + 10]!r}" for m in _ZERO.finditer(shown)]
    prose = "".join(parser.chunks)    # not code or pre: BibTeX writes Sch{\\"o}n
    problems += [f"literal \\\": ...{prose[max(0, m.start() - 40):m.end() + 20]!r}"
                 for m in re.finditer(r'\\"', prose)]
    for cell in _CELL.findall(html):
        cell_parser = _Text()
        cell_parser.feed(cell)
        text = " ".join("".join(cell_parser.shown).split())
        if _BOOL.search(text):
            problems.append(f"bare Python boolean in a table cell: {text[:60]!r}")
    return problems


def inspect_dom(page: str, dom: str, site: Path) -> PageReport:
    """Raw TeX in the visible text, Python reprs, images whose file is not in ``site`` (the HTML
    folder), and the probe's findings (:func:`inspect_probe`) when the page carries them."""
    parser = _Text()
    parser.feed(dom)
    text, shown = "".join(parser.chunks), "".join(parser.shown)
    report = PageReport(page, typeset=parser.math)
    report.raw_tex = [text[max(0, m.start() - 30):m.end() + 30].strip() for m in _RAW_TEX.finditer(text)][:5]
    report.reprs = [shown[max(0, m.start() - 10):m.end() + 40].strip() for m in _REPR.finditer(shown)]
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
    probe = _PROBE_RESULT.search(dom)
    if probe:
        inspect_probe(report, json.loads(probe.group(1)))
    return report


def inspect_probe(report: PageReport, probe: dict, slack: float = 1.0, desktop: int = 1000) -> PageReport:
    """Add the probe's findings to ``report``: console errors; claims-table rows whose cell count
    differs from the header's or whose status cell reads no status; status cells not fully inside the
    viewport and their clipping ancestors (``slack`` px allowed) or whose content is wider than the
    cell; status badges broken over lines; other cells whose content is wider than the cell (on a
    screen narrower than ``desktop`` px, content that scrolls inside its cell is allowed: a formula
    wider than a phone), formulas smaller than their cell's text; a page wider than the screen; a
    ``#target`` row above the sticky header's bottom."""
    report.probed = True
    report.console_errors += [f"console: {m}" for m in probe.get("console", [])]
    if probe.get("doc_width", 0) > probe.get("view_width", 0) + slack:
        report.overflow.append(f"page {probe['doc_width']} px wide on a {probe['view_width']} px screen; sticking out: "
                               + ", ".join(probe.get("outside", [])[:5]))
    anchor = probe.get("anchor")
    if anchor and anchor.get("missing"):
        report.anchor.append(f"#{anchor['id']}: no element on the page has this id")
    elif anchor and anchor["top"] < anchor["header"] - slack:
        report.anchor.append(f"#{anchor['id']}: its row starts at y = {anchor['top']:.0f} px, under the sticky "
                             f"header (bottom at {anchor['header']:.0f} px)")
    for t, table in enumerate(probe.get("tables", [])):
        report.claims_rows += len(table["rows"])
        for r, row in enumerate(table["rows"]):
            where = row.get("id") or f"table {t + 1} row {r + 1}"
            if row["cells"] != table["header"]:
                report.table_rows.append(f"{where}: {row['cells']} cells, header has {table['header']}")
            elif not _STATUS_CELL.fullmatch(" ".join(row["status"].split())):
                report.table_rows.append(f"{where}: status cell reads {row['status'][:40]!r}")
            b = row.get("box")
            if b and (b["right"] > b["clip_right"] + slack or b["left"] < b["clip_left"] - slack):
                report.hidden_status.append(f"{where}: status cell spans x = {b['left']:.0f}–{b['right']:.0f} px, "
                                            f"visible {b['clip_left']:.0f}–{b['clip_right']:.0f} px")
            if row.get("wrapped"):
                report.wrapped_status.append(f"{where}: badge(s) {row['wrapped']} broken over lines or cut off")
            clipped = row.get("clipped", [])
            if row["cells"] - 1 in clipped:
                report.hidden_status.append(f"{where}: status wider than its cell (cut off)")
            if [i for i in clipped if i != row["cells"] - 1]:
                report.clipped_cells.append(f"{where}: content wider than cell(s) "
                                            f"{[i + 1 for i in clipped if i != row['cells'] - 1]}")
            if row.get("shrunk"):
                report.clipped_cells.append(f"{where}: formula(s) smaller than the text in cell(s) "
                                            f"{[i + 1 for i in row['shrunk']]}")
            if row.get("scrolled") and probe.get("width", 0) >= desktop:
                report.clipped_cells.append(f"{where}: content wider than cell(s) "
                                            f"{[i + 1 for i in row['scrolled']]} (it scrolls)")
    return report


def console_errors(stderr: str) -> list[str]:
    """Console messages in Chromium's log that are errors (uncaught exceptions, failed loads)."""
    return [f"{msg} ({src})" for msg, src in _CONSOLE.findall(stderr) if _CONSOLE_ERROR.search(msg)]


def check_pages(site: Path, pages: list[str], chromium: str, budget_ms: int = 10000, *,
                screen: tuple[int, int] = (WIDTH, HEIGHT)) -> list[PageReport]:
    """Load each page (path relative to ``site``, ``#anchor`` allowed) in headless Chromium on a
    ``screen`` of (width, height) CSS pixels and inspect it. A screen narrower than Chromium's narrowest
    window is a frame of that size: then only what the probe measures is inspected (the page's text and
    images are the same on every screen)."""
    reports, framed = [], screen[0] < NARROWEST
    with serve(site, inject=PROBE_JS, extra={"/__screen__.html": SCREEN_PAGE}) as base:
        for page in pages:
            url = (f"{base}/__screen__.html?" + urlencode({"w": screen[0], "h": screen[1], "src": f"/{page}"})
                   if framed else f"{base}/{page}")
            with tempfile.TemporaryDirectory() as profile:    # a new reader: nothing stored by an earlier page
                window = f"--window-size={max(screen[0], NARROWEST)},{screen[1]}"
                res = subprocess.run([chromium, *CHROMIUM_FLAGS, window, f"--user-data-dir={profile}",
                                      f"--virtual-time-budget={budget_ms}", "--dump-dom", url],
                                     capture_output=True, text=True, timeout=120)
            report = inspect_dom(page, res.stdout, site)
            seen = " ".join(report.console_errors)
            report.console_errors += [e for e in console_errors(res.stderr) if e.split(" (")[0] not in seen]
            if res.returncode != 0 or not res.stdout.strip():
                report.console_errors.append(f"chromium exited {res.returncode} with no page")
            elif not report.probed:
                report.console_errors.append("the probe script did not report (page never finished loading)")
            reports.append(report)
    return reports
