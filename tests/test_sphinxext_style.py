from rnnrepro.site.sphinxext import style


def test_the_style_sheet_styles_the_claims_tables():
    css = (style.STATIC / style.CSS).read_text()
    assert "div.rnnrepro-claims" in css and ".claim-meta" in css
