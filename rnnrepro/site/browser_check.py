"""Open the built book in headless Chromium, offline, at 1400 px, and report what a reader would see broken.

For each page: raw TeX delimiters left in the text (math that did not typeset); images whose file is
missing; text that is a Python repr (``Claim(``, ``<rnnrepro.``, ``array(``, ``object at 0x``);
every console error (``console.error``, uncaught exceptions, failed loads); and for every claims table
(``.rnnrepro-claims table``) rows whose number of cells differs from the header's, status cells that
do not read a status (columns shifted), status cells not fully visible (outside the viewport, clipped
by a scrolling ancestor, or cut off inside the cell), and cells whose content is wider than the cell.
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
from urllib.parse import unquote, urlsplit

from rnnrepro.book.claims_table import ALL_STATUSES
from rnnrepro.site.local_server import serve

WIDTH, HEIGHT = 1400, 1000
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", f"--window-size={WIDTH},{HEIGHT}", "--enable-logging=stderr", "--v=0")
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
function measure() {
  window.scrollTo(0, 0);
  document.querySelectorAll(".rnnrepro-claims table").forEach(function (t) {
    var head = t.querySelector("thead tr") || t.querySelector("tr");
    var rows = [];
    t.querySelectorAll("tbody tr").forEach(function (tr) {
      var cells = tr.querySelectorAll(":scope > td, :scope > th"), last = cells[cells.length - 1];
      var a = tr.querySelector("a[id]");
      var clipped = [];
      cells.forEach(function (td, i) { if (td.scrollWidth > td.clientWidth + 1) { clipped.push(i); } });
      rows.push({id: a ? a.id : "", cells: cells.length, status: last ? last.innerText.trim() : "",
                 box: last ? box(last) : null, clipped: clipped});
    });
    R.tables.push({header: head ? head.children.length : 0, width: t.getBoundingClientRect().width, rows: rows});
  });
  R.width = window.innerWidth;
  var out = document.createElement("script");
  out.type = "application/json"; out.id = "rnnrepro-probe"; out.textContent = JSON.stringify(R);
  document.body.appendChild(out);
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
    typeset: int = 0
    probed: bool = False
    claims_rows: int = 0     # claims-table rows the probe measured

    @property
    def ok(self) -> bool:
        return not (self.raw_tex or self.missing_images or self.console_errors or self.reprs
                    or self.table_rows or self.hidden_status or self.clipped_cells)

    def describe(self) -> str:
        """One line per kind of defect."""
        kinds = ("raw_tex", "missing_images", "console_errors", "reprs", "table_rows", "hidden_status",
                 "clipped_cells")
        return "; ".join(f"{k} {getattr(self, k)[:5]} ({len(getattr(self, k))})" for k in kinds if getattr(self, k))


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


def inspect_probe(report: PageReport, probe: dict, slack: float = 1.0) -> PageReport:
    """Add the probe's findings to ``report``: console errors; claims-table rows whose cell count
    differs from the header's or whose status cell reads no status; status cells not fully inside the
    viewport and their clipping ancestors (``slack`` px allowed) or whose content is wider than the
    cell; other cells whose content is wider than the cell (a formula cut off or scrolled away)."""
    report.probed = True
    report.console_errors += [f"console: {m}" for m in probe.get("console", [])]
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
            clipped = row.get("clipped", [])
            if row["cells"] - 1 in clipped:
                report.hidden_status.append(f"{where}: status wider than its cell (cut off)")
            if [i for i in clipped if i != row["cells"] - 1]:
                report.clipped_cells.append(f"{where}: content wider than cell(s) "
                                            f"{[i + 1 for i in clipped if i != row['cells'] - 1]}")
    return report


def console_errors(stderr: str) -> list[str]:
    """Console messages in Chromium's log that are errors (uncaught exceptions, failed loads)."""
    return [f"{msg} ({src})" for msg, src in _CONSOLE.findall(stderr) if _CONSOLE_ERROR.search(msg)]


def check_pages(site: Path, pages: list[str], chromium: str, budget_ms: int = 10000) -> list[PageReport]:
    """Load each page (path relative to ``site``) in headless Chromium at 1400 px and inspect it."""
    reports = []
    with serve(site, inject=PROBE_JS) as base:
        for page in pages:
            with tempfile.TemporaryDirectory() as profile:    # a new reader: nothing stored by an earlier page
                res = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                                      f"--virtual-time-budget={budget_ms}", "--dump-dom", f"{base}/{page}"],
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
