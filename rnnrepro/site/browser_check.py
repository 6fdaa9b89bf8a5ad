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
RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\$[^$\s][^$\n]*[\\^_][^$\n]*\$")
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
      R.anchor = {id: target.id, top: row.getBoundingClientRect().top, header: header(), shown: shown(row),
                  screen: window.innerHeight};
    } else { R.anchor = {id: location.hash.slice(1), missing: true}; }
  }
  R.doc_width = document.documentElement.scrollWidth;
  R.view_width = document.documentElement.clientWidth;
  R.outside = outside();
  window.scrollTo(0, 0);
  // The claims tables as a reader sees them once opened: open the closed sections around them (the
  // ledger behind "Behind this page"), measure, and close them again before the page metrics.
  var opened = [];
  document.querySelectorAll(".rnnrepro-claims").forEach(function (c) {
    for (var a = c.parentElement; a; a = a.parentElement) {
      if (a.tagName === "DETAILS" && !a.open) { a.open = true; opened.push(a); }
    }
  });
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
  opened.forEach(function (d) { d.open = false; });
  R.width = window.innerWidth;
  R.metrics = metrics();
  var flags = new URLSearchParams(location.search);
  var steps = [];
  if (flags.has("rnnrepro-axe")) { steps.push(runAxe); }
  if (flags.has("rnnrepro-anchors")) { steps.push(sweepAnchors); }
  (function next() {
    if (steps.length) { steps.shift()(next); return; }
    var out = document.createElement("script");
    out.type = "application/json"; out.id = "rnnrepro-probe"; out.textContent = JSON.stringify(R);
    document.body.appendChild(out);
    if (window.parent !== window) { window.parent.document.body.appendChild(out.cloneNode(true)); }   // a phone frame
  })();
}
function shown(el) {
  // Rendered and not hidden: not display:none, not inside a closed <details> (outside its summary;
  // Chromium lays out a closed details' content, so its boxes alone do not tell).
  if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") { return false; }
  if (el.checkVisibility && !el.checkVisibility({contentVisibilityAuto: true})) { return false; }
  for (var a = el; a; a = a.parentElement) {
    var d = a.parentElement;
    if (d && d.tagName === "DETAILS" && !d.open && a.tagName !== "SUMMARY") { return false; }
  }
  return true;
}
// Running prose: paragraphs, list items, captions and cells, inline code in them included (an id
// written as `cayci.prop6.printed_violated` is still an id in the prose); not code blocks, not math.
var SKIP = "pre, script, style, mjx-container, .rnnrepro-verdicts-block, .rnnrepro-claims";
var PROSE = "p, li, figcaption, dd, dt, td, th, caption, blockquote";
function metrics() {
  // The page as a reader first sees it (collapsed sections closed), in CSS px from the page's top.
  window.scrollTo(0, 0);
  var art = document.querySelector(".bd-article") || document.body, Y = window.scrollY;
  var M = {height: document.documentElement.scrollHeight, in_short: null, first_figure: null, tables: 0,
           wide_code: [], prose: [], review: [], figures: [], view_width: document.documentElement.clientWidth};
  var strong = Array.prototype.find.call(art.querySelectorAll("strong, b"), function (b) {
    return /^In short\b/.test(b.textContent.trim()) && shown(b);
  });
  if (strong) { M.in_short = strong.getBoundingClientRect().top + Y; }
  art.querySelectorAll("img, svg").forEach(function (el) {
    var r = el.getBoundingClientRect();
    var nested = el.tagName.toLowerCase() === "svg" && el.parentElement.closest("svg");
    if (!shown(el) || r.width < 150 || r.height < 80 || nested) { return; }
    var f = {top: r.top + Y, width: r.width, height: r.height, left: r.left, right: r.right};
    // the image shown (a phone variant's, rnnrepro.site.sphinxext.phone_figures) and its natural width
    if (el.tagName.toLowerCase() === "img") {
      f.src = el.currentSrc || el.getAttribute("src"); f.natural_width = el.naturalWidth;
    }
    else { f.src = "(inline svg)"; f.min_font_px = inlineSvgFont(el); }
    M.figures.push(f);
  });
  if (M.figures.length) { M.first_figure = Math.min.apply(null, M.figures.map(function (f) { return f.top; })); }
  art.querySelectorAll("table").forEach(function (t) {
    if (shown(t) && !t.parentElement.closest("table")) { M.tables += t.getBoundingClientRect().height; }
  });
  M.wide_tables = [];
  art.querySelectorAll("table").forEach(function (t) {
    // A table wider than its box (the table itself or the theme's scrolling container around it).
    var p = t.parentElement, box = p && p.classList.contains("pst-scrollable-table-container") ? p : t;
    if (shown(t) && box.scrollWidth > box.clientWidth + 1) {
      M.wide_tables.push((t.className || "table") + ": " + box.scrollWidth + " px in " + box.clientWidth + " px");
    }
  });
  art.querySelectorAll("pre").forEach(function (pre) {
    if (shown(pre) && pre.scrollWidth > pre.clientWidth + 1) {
      var line = pre.textContent.split("\n").reduce(function (a, b) { return b.length > a.length ? b : a; }, "");
      M.wide_code.push(pre.scrollWidth + " px in " + pre.clientWidth + " px: " + line.trim().slice(0, 90));
    }
  });
  var walker = document.createTreeWalker(art, NodeFilter.SHOW_TEXT), node, blocks = [], texts = [];
  while ((node = walker.nextNode())) {
    var el = node.parentElement;
    if (!node.nodeValue.trim() || !el || el.closest(SKIP) || !el.closest(PROSE) || !shown(el)) { continue; }
    var block = el.closest(PROSE), k = blocks.indexOf(block);
    if (k < 0) { blocks.push(block); texts.push(""); k = blocks.length - 1; }
    texts[k] += node.nodeValue;
  }
  M.prose = texts.map(function (t) { return t.replace(/\s+/g, " ").trim(); });
  art.querySelectorAll("h1, h2, h3, h4, h5, h6, summary").forEach(function (h) {
    if (!/Response to review/i.test(h.textContent) || !shown(h)) { return; }
    var d = h.tagName.toLowerCase() === "summary" ? h.parentElement : null;
    if (!d || d.open) { M.review.push(h.tagName.toLowerCase() + ": " + h.textContent.trim().slice(0, 60)); }
  });
  return M;
}
function scaleOf(m) { return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); }
function inlineSvgFont(svg) {
  // Smallest text drawn by an inline SVG, in CSS px: matplotlib's glyphs (<use> in a text_* group,
  // drawn at 100 units per em) or <text> elements.
  var least = null;
  svg.querySelectorAll("g[id^='text_'] use").forEach(function (u) {
    var m = u.getScreenCTM(); if (!m) { return; }
    var px = 100 * scaleOf(m); least = least === null ? px : Math.min(least, px);
  });
  svg.querySelectorAll("text").forEach(function (t) {
    var m = t.getScreenCTM(); if (!m) { return; }
    var px = parseFloat(getComputedStyle(t).fontSize) * scaleOf(m); least = least === null ? px : Math.min(least, px);
  });
  return least;
}
function runAxe(next) {
  var s = document.createElement("script");
  s.src = "/__axe__.js";
  s.onerror = function () { R.axe = {error: "axe-core did not load"}; next(); };
  s.onload = function () {
    window.axe.run(document, {resultTypes: ["violations"]}).then(function (res) {
      R.axe = {violations: res.violations.map(function (v) {
        return {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,
                targets: v.nodes.slice(0, 3).map(function (n) { return n.target.join(" "); }),
                summary: v.nodes.length ? (v.nodes[0].failureSummary || "").slice(0, 240) : ""};
      })};
      next();
    }, function (e) { R.axe = {error: String(e)}; next(); });
  };
  document.head.appendChild(s);
}
function sweepAnchors(next) {
  // Every claim anchor the check names: from the collapsed page, set the address's fragment (as a
  // click on a link to it would) and see the element's row open, visible and on screen.
  var ids = [], closed = Array.prototype.slice.call(document.querySelectorAll("details:not([open])"));
  try {
    var x = new XMLHttpRequest(); x.open("GET", "/__anchors__.json", false); x.send();
    ids = JSON.parse(x.responseText)[location.pathname.replace(/^\//, "")] || [];
  } catch (e) { R.anchors = {error: String(e)}; next(); return; }
  R.anchors = {checked: ids.length, problems: []};
  var i = 0;
  function one() {
    if (i >= ids.length) {
      closed.forEach(function (d) { d.open = false; });
      window.scrollTo(0, 0); next(); return;
    }
    var id = ids[i++];
    closed.forEach(function (d) { d.open = false; });
    window.scrollTo(0, 0);
    location.hash = id;
    setTimeout(function () {
      var el = document.getElementById(id);
      if (!el) { R.anchors.problems.push(id + ": no element has this id"); one(); return; }
      var row = el.closest("tr") || el, r = row.getBoundingClientRect(), top = header();
      if (!shown(row) || r.height === 0) { R.anchors.problems.push(id + ": not visible (in a closed section?)"); }
      else if (r.top < top - 1 || r.top > window.innerHeight - 20) {
        R.anchors.problems.push(id + ": lands at y = " + Math.round(r.top) + " px (screen " + window.innerHeight +
                                " px, header to " + Math.round(top) + " px)");
      }
      one();
    }, 120);
  }
  one();
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
    axe: list[str] = field(default_factory=list)             # serious or critical axe-core violations
    anchors_missed: list[str] = field(default_factory=list)  # claim anchors that do not land (anchors=)
    typeset: int = 0
    probed: bool = False
    claims_rows: int = 0     # claims-table rows the probe measured
    anchors_checked: int = 0
    metrics: dict = field(default_factory=dict)               # the page as first seen (:func:`page_metrics`)

    @property
    def ok(self) -> bool:
        return not (self.raw_tex or self.missing_images or self.console_errors or self.reprs or self.table_rows
                    or self.hidden_status or self.clipped_cells or self.wrapped_status or self.overflow or self.anchor
                    or self.axe or self.anchors_missed)

    def describe(self, skip: tuple[str, ...] = ()) -> str:
        """One line per kind of defect (``skip``: kinds left out, e.g. ``("axe",)``); empty when none."""
        kinds = tuple(k for k in ("raw_tex", "missing_images", "console_errors", "reprs", "table_rows",
                                  "hidden_status", "clipped_cells", "wrapped_status", "overflow", "anchor", "axe",
                                  "anchors_missed") if k not in skip)
        return "; ".join(f"{k} {getattr(self, k)[:5]} ({len(getattr(self, k))})" for k in kinds if getattr(self, k))


#: A fixed-point number that reads as zero (``0.00``, ``-0.0%``): the book prints exact zero as ``0``, so
#: this is a non-zero value rounded away (:func:`rnnrepro.book.rows.show`). ``0.0e+00`` is exactly zero
#: (a non-zero number never prints so in scientific notation).
#: Exact zeros a chapter's code cell still prints as ``0.00``, each listed until the chapter's next re-ship
#: (the fix changes a code line, so the shipped full result). Empty: ribeiro's Wilson interval for 0 of 9
#: memorising seeds above 90 % now prints its exact-zero end as 0 (``rnnrepro.ribeiro.population.interval_text``).
KNOWN_EXACT_ZEROS: tuple[str, ...] = ()
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
    problems = [f"reads as zero: ...{shown[max(0, m.start() - 40):m.end() + 10]!r}" for m in _ZERO.finditer(shown)
                if not any(known in shown[max(0, m.start() - 60):m.end() + 10] for known in KNOWN_EXACT_ZEROS)]
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
    report.raw_tex = [text[max(0, m.start() - 30):m.end() + 30].strip() for m in RAW_TEX.finditer(text)][:5]
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
    report.metrics = probe.get("metrics") or {}
    report.axe += axe_problems(probe["axe"]) if "axe" in probe else []
    anchors = probe.get("anchors")
    if anchors is not None:
        report.anchors_checked = anchors.get("checked", 0)
        report.anchors_missed += ([f"anchor sweep failed: {anchors['error']}"] if "error" in anchors
                                  else list(anchors.get("problems", [])))
    if probe.get("doc_width", 0) > probe.get("view_width", 0) + slack:
        report.overflow.append(f"page {probe['doc_width']} px wide on a {probe['view_width']} px screen; sticking out: "
                               + ", ".join(probe.get("outside", [])[:5]))
    anchor = probe.get("anchor")
    if anchor and anchor.get("missing"):
        report.anchor.append(f"#{anchor['id']}: no element on the page has this id")
    elif anchor and anchor.get("shown") is False:
        report.anchor.append(f"#{anchor['id']}: its row is not visible (inside a closed section)")
    elif anchor and anchor["top"] < anchor["header"] - slack:
        report.anchor.append(f"#{anchor['id']}: its row starts at y = {anchor['top']:.0f} px, under the sticky "
                             f"header (bottom at {anchor['header']:.0f} px)")
    elif anchor and anchor.get("screen") and anchor["top"] > anchor["screen"] - 20:
        report.anchor.append(f"#{anchor['id']}: its row starts at y = {anchor['top']:.0f} px, below the "
                             f"{anchor['screen']} px screen")
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


#: The axe-core impacts that fail a page (WCAG: a reader cannot use the content); moderate and minor
#: ones (the theme's sidebar landmark) are not counted.
FAILING_IMPACTS = ("serious", "critical")


def axe_problems(axe: dict, impacts: tuple[str, ...] = FAILING_IMPACTS) -> list[str]:
    """One line per axe-core violation of a failing impact: rule, impact, number of nodes, the first
    nodes' selectors and what axe says is wrong; or why axe did not run."""
    if "error" in axe:
        return [f"axe-core: {axe['error']}"]
    return [f"{v['id']} ({v['impact']}, {v['nodes']} node(s)): {v['help']}; e.g. {', '.join(v['targets'][:2])}"
            + (f" — {v['summary']}" if v.get("summary") else "")
            for v in axe.get("violations", []) if v.get("impact") in impacts]


def axe_script() -> Path | None:
    """axe-core's ``axe.min.js``: ``$RNNREPRO_AXE`` (a file), else the copy ``.ci/run`` installs from npm
    into ``~/.cache/rnnrepro-axe``; None when neither exists."""
    import os

    candidates = [os.environ.get("RNNREPRO_AXE", ""),
                  str(Path.home() / ".cache" / "rnnrepro-axe" / "node_modules" / "axe-core" / "axe.min.js")]
    return next((Path(c) for c in candidates if c and Path(c).is_file()), None)


# ---------------------------------------------------------------------------------- figure text size
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")


def transform_scale(transform: str | None) -> float:
    """The linear size factor (square root of the determinant's magnitude) of an SVG ``transform``."""
    factor = 1.0
    for name, args in _TRANSFORM.findall(transform or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "scale":
            factor *= abs(v[0] * (v[1] if len(v) > 1 else v[0])) ** 0.5
        elif name == "matrix":
            factor *= abs(v[0] * v[3] - v[1] * v[2]) ** 0.5
        elif name in ("skewX", "skewY"):
            pass                                   # area preserving
    return factor


def _font_size(style: str, attrib: dict) -> float | None:
    m = re.search(r"font-size\s*:\s*([\d.]+)(px|pt)?", style) or re.search(r"font\s*:[^;]*?([\d.]+)(px|pt)", style)
    value = m.group(1) if m else attrib.get("font-size")
    if value is None:
        return None
    size = float(re.match(r"[\d.]+", str(value)).group())
    return size * 4 / 3 if m and m.group(2) == "pt" else size


def svg_text_sizes(svg: str) -> tuple[list[float], float]:
    """(the size of every text drawn by an SVG in its root's user units, the root's viewBox width).

    matplotlib draws text as glyph paths (``svg.fonttype = "path"``): each ``<use>`` of a glyph inside a
    ``text_*`` group (one label, tick label, title or legend entry), scaled from its glyphs' 100 units per
    em; a text's size is its largest glyph's (a formula's sub- and superscripts are drawn smaller, at
    70 %, as in print). ``<text>`` elements count with their font size. A size times (rendered width /
    viewBox width) is the text's size in CSS px."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    width = root.get("viewBox", "").split()
    view_width = float(width[2]) if len(width) == 4 else float(re.match(r"[\d.]+", root.get("width", "0")).group())
    sizes: list[float] = []

    def walk(el, scale: float, group: list[float] | None) -> None:
        tag = el.tag.rsplit("}", 1)[-1]
        if tag in ("defs", "clipPath", "metadata", "style"):
            return
        scale *= transform_scale(el.get("transform"))
        starts = group is None and tag == "g" and (el.get("id") or "").startswith("text_")
        if starts:
            group = []
        if tag == "use" and group is not None:
            group.append(100 * scale)
        elif tag == "text":
            size = _font_size(el.get("style", ""), el.attrib)
            if size is not None:
                sizes.append(size * scale)
        for child in el:
            walk(child, scale, group)
        if starts and group:
            sizes.append(max(group))

    walk(root, 1.0, None)
    return sizes, view_width


def figure_text_px(site: Path, page: str, figure: dict) -> float | None:
    """The smallest text of a figure the probe measured (``src``, rendered ``width``), in CSS px as
    shown; None for an image that is not an SVG file of the book (a PNG: no text to measure)."""
    if figure.get("min_font_px") is not None:
        return figure["min_font_px"]
    src = unquote(urlsplit(figure.get("src") or "").path)
    if not src.endswith(".svg"):
        return None
    path = (site / page.split("#")[0]).parent / src if not src.startswith("/") else site / src.lstrip("/")
    if not path.is_file():
        return None
    sizes, view_width = svg_text_sizes(path.read_text(encoding="utf-8"))
    if not sizes or not view_width:
        return None
    return min(sizes) * figure["width"] / view_width


def claim_ids_in(texts: list[str], ids: set[str] | list[str], keys: list[str] | tuple[str, ...]) -> list[str]:
    """Claim ids written out in ``texts`` (a page's visible running prose): any ``<key>.<item>.<name>``
    of a chapter key in ``keys``, and the bare ``<item>.<name>`` of an id in ``ids`` (the page's own
    claims). Each found id once, in order of appearance."""
    alternatives = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    full = re.compile(rf"(?<![\w.])(?:{alternatives})\.[a-z0-9_]+\.[a-z0-9_]+(?![\w])") if keys else None
    bare = sorted({i.split(".", 1)[1] for i in ids if i.count(".") >= 2}, key=len, reverse=True)
    bare_re = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, bare)) + r")(?![\w])") if bare else None
    found: list[str] = []
    for text in texts:
        hits = [(m.start(), m.group()) for m in full.finditer(text)] if full else []
        covered = [range(at, at + len(h)) for at, h in hits]
        if bare_re:
            hits += [(m.start(), m.group()) for m in bare_re.finditer(text)
                     if not any(m.start() in r for r in covered)]
        found += [h for _, h in sorted(hits) if h not in found]
    return found


def story_measures(report: PageReport, site: Path, *, ids: list[str] | set[str] = (),
                   keys: list[str] | tuple[str, ...] = ()) -> dict:
    """A chapter page's numbers as first seen (issue 30): height, top of "In short" and of the first
    figure (px from the page's top), share of the height covered by visible tables, figures and their
    smallest text (CSS px), code blocks and tables that scroll sideways, claim ids in the visible prose
    (``ids``: the page's claims; ``keys``: the chapters), "Response to review" sections open, and what
    sticks out of the screen."""
    m = report.metrics
    sizes = [figure_text_px(site, report.page, f) for f in m.get("figures", [])]
    sizes = [x for x in sizes if x is not None]
    return {"wide_figures": wide_figures(m.get("figures", []), m.get("view_width")),
            "height": m.get("height"), "in_short": m.get("in_short"), "first_figure": m.get("first_figure"),
            "table_share": (m.get("tables", 0) / m["height"]) if m.get("height") else None,
            "figures": len(m.get("figures", [])), "figure_text": min(sizes) if sizes else None,
            "wide_code": m.get("wide_code", []), "claim_ids": claim_ids_in(m.get("prose", []), ids, keys),
            "review": m.get("review", []), "wide_tables": m.get("wide_tables", []), "overflow": report.overflow}


def wide_figures(figures: list[dict], view_width: float | None = None) -> list[str]:
    """The figures (as the probe measured them) that do not fit the screen at their natural size: shown
    narrower than they are drawn (scaled down, their text with them), or sticking out of the screen
    (``view_width``) or of a box that scrolls; ``src: natural px in shown px`` each."""
    wide = []
    for f in figures:
        natural = f.get("natural_width") or 0
        if natural > f["width"] + 1 or (view_width and f.get("right", 0) > view_width + 1):
            wide.append(f"{f.get('src')}: {natural:.0f} px drawn, {f['width']:.0f} px shown")
    return wide


def measures_line(page: str, screen: str, x: dict) -> str:
    """:func:`story_measures` on one line."""
    def px(v):
        return "—" if v is None else f"{v:,.0f}"

    text = "—" if x["figure_text"] is None else f"{x['figure_text']:.1f}"
    share = 0 if x["table_share"] is None else 100 * x["table_share"]
    return (f"{page:32s} {screen:7s} height {px(x['height']):>7s}  in short {px(x['in_short']):>6s}  first figure "
            f"{px(x['first_figure']):>6s}  tables {share:4.1f} %  figures {x['figures']:2d} (smallest text {text} px)"
            f"  wider than the screen {len(x.get('wide_figures', []))}  wide code {len(x['wide_code'])}"
            f"  claim ids {len(x['claim_ids'])}  review open {len(x['review'])}  "
            f"wide tables {len(x['wide_tables'])}  overflow {len(x['overflow'])}")


def main(argv: list[str] | None = None) -> int:
    """``python -m rnnrepro.site.browser_check _build/html``: every chapter page's numbers (issue 30) at
    1400 × 900 and 390 × 844, one line each."""
    import sys

    from rnnrepro.book.chapters import all_chapters

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        print("usage: python -m rnnrepro.site.browser_check BUILT_HTML_FOLDER (e.g. _build/html)", file=sys.stderr)
        return 2
    site, chromium = Path(args[0]), find_chromium()
    if chromium is None:
        print("no Chromium here: install Debian's `chromium`", file=sys.stderr)
        return 2
    chapters = {ch.notebook.removesuffix(".md") + ".html": ch for ch in all_chapters().values()
                if (site / ch.notebook).with_suffix(".html").is_file()}
    for name, screen in (("desktop", DESKTOP), ("phone", PHONE)):
        for report in check_pages(site, list(chapters), chromium, screen=screen):
            ch = chapters[report.page]
            ledger = (site / ch.notebook).with_name(f"{ch.key}.ledger.json")
            ids = [c["id"] for c in json.loads(ledger.read_text())["claims"]] if ledger.is_file() else []
            print(measures_line(report.page, name, story_measures(report, site, ids=ids, keys=list(all_chapters()))))
    return 0


def console_errors(stderr: str) -> list[str]:
    """Console messages in Chromium's log that are errors (uncaught exceptions, failed loads)."""
    return [f"{msg} ({src})" for msg, src in _CONSOLE.findall(stderr) if _CONSOLE_ERROR.search(msg)]


def _with_flags(page: str, flags: list[str]) -> str:
    """``page`` (``path#fragment``) with query flags for the probe (``?rnnrepro-axe&…``)."""
    path, hash_, fragment = page.partition("#")
    return path + ("?" + "&".join(flags) if flags else "") + hash_ + fragment


def check_pages(site: Path, pages: list[str], chromium: str, budget_ms: int = 10000, *,
                screen: tuple[int, int] = (WIDTH, HEIGHT), axe: Path | None = None,
                anchors: dict[str, list[str]] | None = None) -> list[PageReport]:
    """Load each page (path relative to ``site``, ``#anchor`` allowed) in headless Chromium on a
    ``screen`` of (width, height) CSS pixels and inspect it. A screen narrower than Chromium's narrowest
    window is a frame of that size: then only what the probe measures is inspected (the page's text and
    images are the same on every screen).

    ``axe``: axe-core's script (:func:`axe_script`), run on every page (its serious and critical
    violations fail the page). ``anchors``: page → element ids; on each such page every id is set as
    the address's fragment in turn, from the collapsed page, and must land visible on the screen below
    the sticky header (closed sections around it opened by the book's script)."""
    reports, framed = [], screen[0] < NARROWEST
    extra = {"/__screen__.html": SCREEN_PAGE, "/__anchors__.json": json.dumps(anchors or {})}
    if axe is not None:
        extra["/__axe__.js"] = Path(axe).read_text(encoding="utf-8")
    with serve(site, inject=PROBE_JS, extra=extra) as base:
        for page in pages:
            flags = (["rnnrepro-axe"] if axe is not None else []) + \
                (["rnnrepro-anchors"] if anchors and page.split("#")[0] in anchors else [])
            page_budget = budget_ms + (20000 if axe is not None else 0) + \
                200 * len((anchors or {}).get(page.split("#")[0], []))
            address = _with_flags(page, flags)
            url = (f"{base}/__screen__.html?" + urlencode({"w": screen[0], "h": screen[1], "src": f"/{address}"})
                   if framed else f"{base}/{address}")
            with tempfile.TemporaryDirectory() as profile:    # a new reader: nothing stored by an earlier page
                window = f"--window-size={max(screen[0], NARROWEST)},{screen[1]}"
                res = subprocess.run([chromium, *CHROMIUM_FLAGS, window, f"--user-data-dir={profile}",
                                      f"--virtual-time-budget={page_budget}", "--dump-dom", url],
                                     capture_output=True, text=True, timeout=300)
            report = inspect_dom(page, res.stdout, site)
            seen = " ".join(report.console_errors)
            report.console_errors += [e for e in console_errors(res.stderr) if e.split(" (")[0] not in seen]
            if res.returncode != 0 or not res.stdout.strip():
                report.console_errors.append(f"chromium exited {res.returncode} with no page")
            elif not report.probed:
                report.console_errors.append("the probe script did not report (page never finished loading)")
            reports.append(report)
    return reports


if __name__ == "__main__":
    raise SystemExit(main())
