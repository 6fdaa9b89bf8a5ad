from types import SimpleNamespace

from rnnrepro.site.sphinxext import style


def test_the_style_sheet_styles_the_claims_tables_and_badges():
    css = (style.STATIC / style.CSS).read_text()
    assert "div.rnnrepro-claims" in css and ".claim-meta" in css and "@media (max-width: 40rem)" in css
    assert "white-space: nowrap" in css and "scroll-margin-top" in css   # badges whole; anchors below the header
    for status in ("reproduced", "partial", "not-reproduced", "erratum", "observed", "verified"):
        assert f".rnnrepro-badge.status-{status} " in css
    assert 'html[data-theme="dark"] .rnnrepro-badge' in css


def test_the_script_filters_and_leaves_formulas_at_their_size():
    js = (style.STATIC / style.JS).read_text()
    assert "form.rnnrepro-filter" in js and "URLSearchParams" in js and "fontSize" not in js


def test_the_theme_gets_a_valid_default_mode():
    """pydata-sphinx-theme reads ``default_mode`` from the HTML context; unset, every page logs
    "Got invalid theme mode" to the console."""
    config = SimpleNamespace(html_static_path=[], html_context={})
    style._configure(None, config)
    assert config.html_context["default_mode"] in ("light", "dark", "auto")
    assert str(style.STATIC) in config.html_static_path
    kept = SimpleNamespace(html_static_path=[], html_context={"default_mode": "light"})
    style._configure(None, kept)
    assert kept.html_context["default_mode"] == "light"


def test_one_search_box_the_headers():
    """The theme puts a search field in the sidebar and a search button in the header: the sidebar's
    goes (a book's own ``html_sidebars`` still wins)."""
    config = SimpleNamespace(html_static_path=[], html_context={})
    style._configure(None, config)
    assert "search-button-field.html" not in config.html_sidebars["**"]
    assert "sbt-sidebar-nav.html" in config.html_sidebars["**"]
    own = SimpleNamespace(html_static_path=[], html_context={}, html_sidebars={"**": ["mine.html"]})
    style._configure(None, own)
    assert own.html_sidebars == {"**": ["mine.html"]}


def test_search_results_get_their_formulas_typeset():
    js = (style.STATIC / style.JS).read_text()
    assert 'getElementById("search-results")' in js and "typesetPromise" in js
