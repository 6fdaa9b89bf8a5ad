from types import SimpleNamespace

from rnnrepro.site.sphinxext.scripts import unique_scripts


def js(filename, **attributes):
    return SimpleNamespace(filename=filename, attributes=attributes)


def test_repeated_scripts_are_dropped_in_order():
    thebe = js(None, body='const THEBE_JS_URL = "x"')
    scripts = [js("a.js"), thebe, js("b.js", defer="defer"), js("", body='const THEBE_JS_URL = "x"'),
               js("a.js"), js("b.js")]
    kept = unique_scripts(scripts)
    assert [(s.filename, s.attributes) for s in kept] == [
        ("a.js", {}), (None, {"body": 'const THEBE_JS_URL = "x"'}), ("b.js", {"defer": "defer"}), ("b.js", {})]
