/* The book's script (offline, no dependencies).
   - The scorecard's filter (rnnrepro.book.scorecard.filter_html): shows the claims rows of one status,
     chapter and kind (a paper claim's kind also matches its type: statement or experiment); the choice is kept in the page's address (?status=not-reproduced&chapter=cayci).
   - Every table of a page gets its column headers on its cells, for the phone layout (rnnrepro.css).
   - An address whose fragment names an element inside closed sections (the claims ledger behind
     "Behind this page", a dropdown, a hidden code cell: all <details>) opens them and scrolls the
     element into view: on load, after MathJax has typeset (heights change), on hashchange and on a
     click of an in-page link.
   - Search results: their formulas typeset (Sphinx writes them as raw TeX).
   - A figure opens at full size in a new tab on a click or a tap (the desktop image; a phone shows a
     wide figure's phone variant, its panels stacked: rnnrepro.site.sphinxext.phone_figures). */
(function () {
  "use strict";
  function apply(form) {
    var want = {status: form.elements.status.value, chapter: form.elements.chapter.value,
                kind: form.elements.kind.value};
    var shown = 0;
    document.querySelectorAll(".rnnrepro-scorecard tbody tr").forEach(function (tr) {
      var ok = ["status", "chapter", "kind"].every(function (k) {
        return !want[k] || tr.dataset[k] === want[k] || (k === "kind" && tr.dataset.type === want[k]);
      });
      tr.classList.toggle("rnnrepro-filtered-out", !ok);
      if (ok) { shown += 1; }
    });
    document.querySelectorAll(".rnnrepro-scorecard, .rnnrepro-scorecard .rnnrepro-claims").forEach(function (el) {
      el.classList.toggle("rnnrepro-filtered-out", !el.querySelector("tbody tr:not(.rnnrepro-filtered-out)"));
    });
    form.elements.shown.value = shown + (shown === 1 ? " row shown" : " rows shown");
    var query = new URLSearchParams();
    Object.keys(want).forEach(function (k) { if (want[k]) { query.set(k, want[k]); } });
    var search = query.toString();
    try {
      history.replaceState(null, "", location.pathname + (search ? "?" + search : "") + location.hash);
    } catch (e) { /* file:// pages may refuse; the filter still works */ }
  }
  function setup() {
    document.querySelectorAll("form.rnnrepro-filter").forEach(function (form) {
      var query = new URLSearchParams(location.search);
      ["status", "chapter", "kind"].forEach(function (k) {
        var select = form.elements[k], value = query.get(k);
        if (select && value && Array.prototype.some.call(select.options, function (o) { return o.value === value; })) {
          select.value = value;
        }
      });
      form.addEventListener("change", function () { apply(form); });
      form.addEventListener("submit", function (e) { e.preventDefault(); });
      apply(form);
    });
  }
  function labelCells() {
    // Each cell of a page's tables (the chapters' verdicts at a glance) carries its column's header, so
    // that on a phone a row can stack into a card that names every value (rnnrepro.css).
    document.querySelectorAll(".bd-article table.table").forEach(function (table) {
      var heads = table.querySelectorAll("thead th");
      if (heads.length < 3) { return; }
      table.classList.add("rnnrepro-stackable");
      table.querySelectorAll("tbody tr").forEach(function (tr) {
        Array.prototype.forEach.call(tr.children, function (td, i) {
          if (heads[i]) { td.setAttribute("data-label", heads[i].textContent.trim()); }
        });
      });
    });
  }
  function foldQuotes() {
    // A claim's quote of the paper is open on a wide screen and folded on a phone (rnnrepro.css).
    if (!window.matchMedia || !window.matchMedia("(max-width: 40rem)").matches) { return; }
    document.querySelectorAll("details.claim-quote[open]").forEach(function (d) { d.removeAttribute("open"); });
  }
  function target(hash) {
    if (!hash || hash.length < 2) { return null; }
    var id = hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { /* a malformed escape: use it as written */ }
    return document.getElementById(id);
  }
  function openTo(hash, scroll) {
    // Open every closed <details> around the element the fragment names; then bring it (its table row
    // for a claim anchor) into view, below the sticky header (scroll-margin-top, rnnrepro.css).
    var el = target(hash);
    if (!el) { return false; }
    for (var a = el.parentElement; a; a = a.parentElement) {
      if (a.tagName === "DETAILS" && !a.open) { a.open = true; }
    }
    if (scroll) { (el.closest("tr") || el).scrollIntoView({block: "start"}); }
    return true;
  }
  function anchors() {
    if (location.hash) {
      openTo(location.hash, true);
      var again = function () { openTo(location.hash, true); };
      window.addEventListener("load", function () {
        again();
        var mj = window.MathJax && window.MathJax.startup && window.MathJax.startup.promise;
        if (mj) { mj.then(again); }
      });
    }
    window.addEventListener("hashchange", function () { openTo(location.hash, true); });
    document.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest("a[href*='#']");
      if (!a || a.origin !== location.origin || a.pathname !== location.pathname) { return; }
      // Open first, so that the browser's own jump lands on the element; scroll once more for a link
      // to the fragment already in the address (no hashchange then).
      if (openTo(a.hash, false) && a.hash === location.hash) {
        setTimeout(function () { openTo(a.hash, true); }, 0);
      }
    });
  }
  function figures() {
    // Every figure image opens at full size in a new tab (its own SVG file, the desktop image even where
    // a phone shows its stacked phone variant) on a tap.
    document.querySelectorAll(".bd-article figure img, .bd-article .cell_output img").forEach(function (img) {
      if (img.closest("a")) { return; }
      var a = document.createElement("a");
      a.href = img.src; a.target = "_blank"; a.rel = "noopener";   // the desktop image, not a phone variant
      a.className = "rnnrepro-figure-link"; a.title = "Open the figure at full size";
      // a <picture> (a phone variant beside the image) is wrapped whole: its <img> must stay its child
      var what = img.parentElement.tagName === "PICTURE" ? img.parentElement : img;
      what.parentNode.insertBefore(a, what); a.appendChild(what);
    });
  }
  function balanceTex(p) {
    // A summary is cut at a fixed length, often inside a formula: drop a formula cut at either end
    // (its opening or closing delimiter missing), which no typesetting can show.
    p.setAttribute("data-rnnrepro-tex", "");
    var html = p.innerHTML, open = html.lastIndexOf("\\("), close = html.lastIndexOf("\\)");
    if (open >= 0 && open > close) { html = html.slice(0, open) + "…"; }
    var firstClose = html.indexOf("\\)"), firstOpen = html.indexOf("\\(");
    if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) { html = "…" + html.slice(firstClose + 2); }
    p.innerHTML = html;
  }
  function searchMath() {
    // Sphinx's search page writes each result's summary as the page's text, formulas as raw TeX
    // ("\\(\\lambda < 1\\)"): MathJax typesets them as they arrive.
    var results = document.getElementById("search-results");
    if (!results || !window.MutationObserver) { return; }
    var timer = null, observer = new MutationObserver(function () {
      if (timer) { return; }
      timer = setTimeout(function () {
        var mj = window.MathJax;
        if (!mj || !mj.typesetPromise) { timer = null; return; }
        observer.disconnect();     // typesetting changes the results: not a new result
        results.querySelectorAll("p.context:not([data-rnnrepro-tex])").forEach(balanceTex);
        mj.typesetPromise([results]).catch(function () {}).then(function () {
          timer = null; observer.observe(results, {childList: true, subtree: true});
        });
      }, 100);
    });
    observer.observe(results, {childList: true, subtree: true});
  }
  function ready() { setup(); labelCells(); foldQuotes(); figures(); anchors(); searchMath(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { ready(); }
})();
