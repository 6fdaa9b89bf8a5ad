import json
import os
from pathlib import Path

import pytest

from rnnrepro.site import browser_check as bc


def test_inspect_dom_finds_raw_tex_and_missing_images(tmp_path):
    (tmp_path / "book").mkdir()
    (tmp_path / "_images").mkdir()
    (tmp_path / "_images" / "a.png").write_bytes(b"png")
    dom = ('<html><body><p>fine <mjx-container>x</mjx-container></p><p>raw \\(x_1\\) here</p>'
           '<script>var s = "\\\\(";</script><code>\\[ok\\]</code>'
           '<img src="../_images/a.png"><img src="../_images/b.png">'
           '<img src="data:image/png;base64,AA=="></body></html>')
    report = bc.inspect_dom("book/page.html", dom, tmp_path)
    assert report.typeset == 1 and len(report.raw_tex) == 2 and "x_1" in report.raw_tex[0]
    assert report.missing_images == ["../_images/b.png"] and not report.ok


def test_untypeset_dollar_math_is_raw_tex(tmp_path):
    report = bc.inspect_dom("index.html", "<td>paper: $O(L_f^{2N})$</td><p>costs $5 or $6</p>", tmp_path)
    assert len(report.raw_tex) == 1 and "$O(L_f^{2N})$" in report.raw_tex[0]


def test_a_clean_page_is_ok(tmp_path):
    report = bc.inspect_dom("index.html", "<p>$5 and <mjx-container>y</mjx-container></p>", tmp_path)
    assert report.ok and report.typeset == 1


def test_console_errors_are_picked_from_the_log():
    log = ('[1:2:INFO:CONSOLE(3)] "Uncaught SyntaxError: Identifier \'THEBE_JS_URL\' has already been declared", '
           'source: http://127.0.0.1:1/book/x.html (3)\n'
           '[1:2:INFO:CONSOLE(9)] "MathJax ready", source: http://127.0.0.1:1/_static/m.js (9)\n'
           '[1:2:INFO:CONSOLE:1] "Uncaught ReferenceError: f is not defined", source: http://127.0.0.1:1/p.html (1)\n')
    errors = bc.console_errors(log)
    assert len(errors) == 2 and "THEBE_JS_URL" in errors[0] and "ReferenceError" in errors[1]


def test_python_reprs_in_outputs_are_found_but_not_in_cell_sources(tmp_path):
    dom = ('<div class="cell_input"><pre>x = np.array([1]); Claim(1)</pre></div>'
           '<div class="cell_output"><pre>Claim(id=\'demo.a.b\', statement=\'s\')</pre></div>'
           '<p>uses <code>np.array(x)</code>; <br>a &lt;rnnrepro.book.ledger.Ledger object at 0x7f00&gt;</p>'
           '<div class="output"><pre>array([1., 2.])</pre></div>')
    report = bc.inspect_dom("index.html", dom, tmp_path)
    assert len(report.reprs) == 4 and "Claim(id='demo.a.b'" in report.reprs[0] and not report.ok
    assert all("np.array" not in r and "Claim(1)" not in r for r in report.reprs)


def _probe(rows, header=5):
    return {"console": [], "width": 1400, "tables": [{"header": header, "width": 700, "rows": rows}]}


def _row(cells=5, status="reproduced", right=1000.0, clip_right=1096.0, id="demo.a.b"):
    return {"id": id, "cells": cells, "status": status,
            "box": {"left": right - 100, "right": right, "clip_left": 312.0, "clip_right": clip_right}}


def test_the_probe_finds_bad_rows_hidden_status_and_console_errors():
    report = bc.inspect_probe(bc.PageReport("p.html"), _probe([
        _row(), _row(status="fast reproduced full partial", id="demo.a.full"),
        _row(cells=6, id="demo.a.extra"), _row(status="1.21 ± 0.02·", id="demo.a.shifted"),
        _row(right=1200.0, id="demo.a.offscreen"), _row(right=1050.0, clip_right=1000.0, id="demo.a.clipped")]))
    assert [r.split(":")[0] for r in report.table_rows] == ["demo.a.extra", "demo.a.shifted"]
    assert [r.split(":")[0] for r in report.hidden_status] == ["demo.a.offscreen", "demo.a.clipped"]
    assert report.ok is False and report.probed
    clean = bc.inspect_probe(bc.PageReport("p.html"), _probe([_row()]))
    assert clean.ok
    noisy = bc.inspect_probe(bc.PageReport("p.html"), {"console": ["Got invalid theme mode: ."], "tables": []})
    assert noisy.console_errors == ["console: Got invalid theme mode: ."] and not noisy.ok


def test_the_probe_result_is_read_from_the_dumped_page(tmp_path):
    probe = json.dumps(_probe([_row(cells=4)]))
    dom = f'<p>x</p><script type="application/json" id="rnnrepro-probe">{probe}</script>'
    report = bc.inspect_dom("index.html", dom, tmp_path)
    assert report.probed and report.table_rows == ["demo.a.b: 4 cells, header has 5"]


OLD_PAGES = Path(__file__).parent / "data" / "old_pages"


def test_the_check_fails_on_the_pages_as_built_before_the_fix():
    """Saved copies of cayci and miller as built at commit 4cebc0c (tests/data/old_pages/make_copy.py):
    cayci's pipes shift columns and push every status off-screen; miller shows ten Claim reprs and its
    status column is clipped; both log the theme's "invalid theme mode"."""
    chromium = bc.find_chromium()
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Chromium (Debian package `chromium`) for the browser test")
        pytest.skip("no Chromium here: install Debian's `chromium` to run the browser test")
    cayci, miller = bc.check_pages(OLD_PAGES, ["book/chapters/cayci.html", "book/chapters/miller.html"], chromium)
    assert cayci.probed and miller.probed
    assert any(r.startswith("cayci.remark5.above_exponential: status cell reads") for r in cayci.table_rows)
    assert len(cayci.hidden_status) == 28 and len(miller.hidden_status) >= 10
    assert len(miller.reprs) == 10 and all("Claim(id='miller." in r for r in miller.reprs)
    for report in (cayci, miller):
        assert any("Got invalid theme mode" in e for e in report.console_errors)


def test_the_probe_reports_a_page_wider_than_the_screen_a_hidden_anchor_and_broken_badges():
    probe = _probe([{**_row(), "wrapped": ["fast reproduc"]}])
    probe.update(doc_width=748, view_width=390, outside=["table.rnnrepro-book-table to x = 748"],
                 anchor={"id": "demo.a.b", "top": -2.0, "header": 56.0})
    report = bc.inspect_probe(bc.PageReport("p.html"), probe)
    assert report.overflow == [
        "page 748 px wide on a 390 px screen; sticking out: table.rnnrepro-book-table to x = 748"]
    assert report.anchor[0].startswith("#demo.a.b: its row starts at y = -2 px") and not report.ok
    assert report.wrapped_status == ["demo.a.b: badge(s) ['fast reproduc'] broken over lines or cut off"]
    fine = _probe([_row()])
    fine.update(doc_width=390, view_width=390, anchor={"id": "demo.a.b", "top": 70.0, "header": 56.0})
    assert bc.inspect_probe(bc.PageReport("p.html"), fine).ok


def test_a_phone_is_390_css_pixels_wide_and_a_wide_element_makes_the_page_scroll(tmp_path):
    chromium = bc.find_chromium()
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Chromium (Debian package `chromium`) for the browser test")
        pytest.skip("no Chromium here: install Debian's `chromium` to run the browser test")
    (tmp_path / "page.html").write_text('<html><head></head><body style="margin:0"><div style="width:600px">wide</div>'
                                        '<header style="position:sticky;top:0;height:50px">h</header>'
                                        '<div style="height:3000px"></div><p id="x">target</p>'
                                        '<div style="height:3000px"></div></body></html>')
    phone = bc.check_pages(tmp_path, ["page.html#x"], chromium, budget_ms=2000, screen=bc.PHONE)[0]
    desktop = bc.check_pages(tmp_path, ["page.html#x"], chromium, budget_ms=2000, screen=bc.DESKTOP)[0]
    assert phone.probed and phone.overflow and "600" in phone.overflow[0] and "390 px screen" in phone.overflow[0]
    assert desktop.probed and not desktop.overflow
    assert phone.anchor and "under the sticky header" in phone.anchor[0]   # #x scrolls to the very top, under it


def test_values_that_a_reader_would_misread_are_found():
    page = ('<p>RNN 0.00 and 0.000 (train), 0.0% of runs; exact 0.0e+00 and 0 and 0.001 and 10.00</p>'
            '<table><tr><td>True</td><td>fast yes</td><td>full False</td></tr></table>'
            r'<p>for the RNN too, \"the error\"</p><div class="cell_input"><pre>x = 0.00; y = True</pre></div>')
    found = bc.value_problems(page)
    zeros = [f for f in found if f.startswith("reads as zero")]
    assert len(zeros) == 3 and all("0.0e+00" not in z.split("...")[1][-12:] for z in zeros)
    assert sum(f.startswith("literal") for f in found) == 2      # both quotes; none from the cell source
    assert sum(f.startswith("bare Python boolean") for f in found) == 2
    assert bc.value_problems("<p>exactly 0, 0.0e+00, 1.26e-08, 0.25</p><table><tr><td>yes</td></tr></table>") == []
    assert bc.value_problems('<pre>author = {Sch{\\"o}n, Thomas B.}</pre>') == []   # BibTeX's accent is no escape
