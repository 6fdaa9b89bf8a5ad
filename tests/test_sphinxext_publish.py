"""The public address on every page (rnnrepro.site.sphinxext.publish, through sphinxext-opengraph and
sphinx-sitemap): canonical links, Open Graph previews and sitemap.xml, in a real two-page Sphinx build
with the book's theme, with and without an address."""

import re
import xml.etree.ElementTree as ET

from rnnrepro.book import cite

ADDRESS = "https://owner.github.io/rnnrepro"


def _build(tmp_path):
    from sphinx.application import Sphinx

    src = tmp_path / "src"
    (src / "book").mkdir(parents=True)
    (src / "conf.py").write_text('extensions = ["myst_nb", "rnnrepro.site.sphinxext.publish"]\n'
                                 'nb_execution_mode = "off"\n'
                                 'html_theme = "sphinx_book_theme"\nhtml_title = "The book"\n'
                                 'root_doc = "index"\n')
    (src / "index.md").write_text("# Home & start\n\nWelcome: this book replicates five papers on training "
                                  "recurrent networks, claim by claim.\n\n```{toctree}\nbook/chapter\n```\n")
    (src / "book" / "chapter.md").write_text("# A chapter\n\n```{note}\nA note that is not the preview.\n```\n\n"
                                             "**In short.** The paper claims a rate; we find it holds for "
                                             "every seed we ran, with one erratum in its constant.\n")
    out = tmp_path / "_build" / "html"
    app = Sphinx(str(src), str(src), str(out), str(tmp_path / "_build" / "doctrees"), "html", status=None,
                 warning=None, freshenv=True)
    app.build()
    return out


def test_with_an_address_pages_carry_it(tmp_path, monkeypatch):
    monkeypatch.setenv(cite.BASE_URL_ENV, ADDRESS)
    out = _build(tmp_path)
    chapter = (out / "book" / "chapter.html").read_text()
    assert f'<link rel="canonical" href="{ADDRESS}/book/chapter.html" />' in chapter
    assert f'<meta property="og:url" content="{ADDRESS}/book/chapter.html" />' in chapter
    assert '<meta property="og:title" content="A chapter" />' in chapter
    assert '<meta property="og:site_name" content="The book" />' in chapter
    description = re.search(r'<meta property="og:description" content="([^"]*)"', chapter).group(1)
    assert description.startswith("In short. The paper claims a rate")
    index = (out / "index.html").read_text()
    assert '<meta property="og:title" content="Home & start" />' in index     # an ampersand before a space is text
    assert f'<meta property="og:image" content="{ADDRESS}/_images/social_previews/' in index   # a social card
    assert f'<link rel="canonical" href="{ADDRESS}/index.html" />' in index
    root = ET.parse(out / "sitemap.xml").getroot()
    locs = [loc.text for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert sorted(locs) == [f"{ADDRESS}/book/chapter.html", f"{ADDRESS}/index.html"]
    assert f"Sitemap: {ADDRESS}/sitemap.xml" in (out / "robots.txt").read_text()


def test_without_an_address_no_canonical_no_sitemap_and_no_og_url(tmp_path, monkeypatch):
    monkeypatch.delenv(cite.BASE_URL_ENV, raising=False)
    cff = {**cite._cff(), "url": None}
    monkeypatch.setattr(cite, "_cff", lambda: cff)
    out = _build(tmp_path)
    chapter = (out / "book" / "chapter.html").read_text()
    assert 'rel="canonical"' not in chapter and "og:url" not in chapter and "og:image" not in chapter
    assert '<meta property="og:title" content="A chapter" />' in chapter
    assert not (out / "sitemap.xml").exists() and not (out / "robots.txt").exists()
