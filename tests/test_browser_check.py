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
