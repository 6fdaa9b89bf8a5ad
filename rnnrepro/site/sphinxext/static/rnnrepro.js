/* The book's script (offline, no dependencies).
   - The scorecard's filter (rnnrepro.book.scorecard.filter_html): shows the claims rows of one status,
     chapter and kind; the choice is kept in the page's address (?status=not-reproduced&chapter=cayci).
   - Formulas wider than their claims-table cell (MathJax 3 does not break lines) are scaled down to fit,
     to no less than 60 %; a wider one scrolls inside its cell. */
(function () {
  "use strict";
  function apply(form) {
    var want = {status: form.elements.status.value, chapter: form.elements.chapter.value,
                kind: form.elements.kind.value};
    var shown = 0;
    document.querySelectorAll(".rnnrepro-scorecard tbody tr").forEach(function (tr) {
      var ok = ["status", "chapter", "kind"].every(function (k) { return !want[k] || tr.dataset[k] === want[k]; });
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
  var MIN_SCALE = 0.6;
  function fitMath() {
    document.querySelectorAll("table.rnnrepro-claims-table td").forEach(function (td) {
      var style = getComputedStyle(td);
      var room = td.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      td.querySelectorAll("mjx-container").forEach(function (math) {
        math.style.fontSize = "";
        var width = math.getBoundingClientRect().width;
        if (width > room && width > 0) {
          math.style.fontSize = (100 * Math.max(MIN_SCALE, room / width)).toFixed(1) + "%";
        }
      });
    });
  }
  window.addEventListener("load", function () {
    var ready = window.MathJax && window.MathJax.startup && window.MathJax.startup.promise;
    if (ready) { ready.then(fitMath); }
    var timer = null;
    window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(fitMath, 150); });
  });
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
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
