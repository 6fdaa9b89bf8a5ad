"""The offline link check (rnnrepro.site.linkcheck): every internal link and anchor of the built site
resolves; external addresses are listed, never fetched.

The built-book test runs only when ``RNNREPRO_BUILT_BOOK`` names a built site (``.ci/run`` sets it after
the build and the PDFs)."""

import os
from pathlib import Path

import pytest

from rnnrepro.book.cite import public_url
from rnnrepro.site import linkcheck

HTML = Path(os.environ["RNNREPRO_BUILT_BOOK"]) if os.environ.get("RNNREPRO_BUILT_BOOK") else None


def _site(tmp_path, links: str):
    site = tmp_path / "html"
    (site / "book" / "chapters").mkdir(parents=True)
    (site / "_static").mkdir()
    (site / "_static" / "style.css").write_text("")
    (site / "_static" / "macros.html").write_text("<a href=\"{{ pathto('x') }}\">template partial</a>")
    (site / "index.html").write_text('<a href="book/chapters/li.html#li.thm.x">claim</a>')
    (site / "book" / "chapters" / "li.html").write_text(
        '<link rel="stylesheet" href="../../_static/style.css"><h1 id="top">Li</h1>'
        '<details id="claims"><table><tr id="li.thm.x"><td>x</td></tr></table></details><a name="old"></a>'
        + links)
    return site


def _broken(site, base=None):
    return [(page, address) for page, address, _ in linkcheck.check_site(site, base).broken]


def test_internal_links_and_anchors_resolve_even_inside_closed_details(tmp_path):
    site = _site(tmp_path, '<a href="#top">up</a><a href="li.html#old">named</a><a href="../../">home</a>'
                           '<img src="../../_static/style.css"><a href="?q=1">same page</a>')
    report = linkcheck.check_site(site)
    assert report.broken == [] and report.pages == 2 and report.links == 7


@pytest.mark.parametrize("link, why", [
    ('<a href="missing.html">x</a>', "no such file"),
    ('<a href="li.html#nowhere">x</a>', "no element with id 'nowhere' in book/chapters/li.html"),
    ('<a href="#li.thm.y">x</a>', "no element with id 'li.thm.y'"),
    ('<img src="../../_images/fig.svg">', "no such file"),
    ('<script src="../../_static/gone.js"></script>', "no such file"),
    ('<a href="../../../outside.html">x</a>', "points outside the site"),
])
def test_a_broken_link_or_anchor_is_reported_with_why(tmp_path, link, why):
    site = _site(tmp_path, link)
    (broken,) = linkcheck.check_site(site).broken
    assert broken[0] == "book/chapters/li.html" and why in broken[2]


def test_external_addresses_are_listed_not_fetched(tmp_path):
    site = _site(tmp_path, '<a href="https://arxiv.org/abs/1906.08482">paper</a><a href="mailto:a@b.c">m</a>'
                           '<a href="https://127.0.0.1:9/never">closed port</a><a href="javascript:void(0)">j</a>')
    report = linkcheck.check_site(site)
    assert report.broken == []
    assert report.external == {"https://127.0.0.1:9/never": ["book/chapters/li.html"],
                                "https://arxiv.org/abs/1906.08482": ["book/chapters/li.html"]}
    out = tmp_path / "external.txt"
    linkcheck.write_external(report, out)
    assert out.read_text().splitlines()[1] == "https://arxiv.org/abs/1906.08482\tbook/chapters/li.html"


def test_addresses_under_the_public_address_are_checked_as_local_files(tmp_path):
    base = "https://owner.github.io/rnnrepro"
    site = _site(tmp_path, f'<link rel="canonical" href="{base}/book/chapters/li.html">'
                           f'<meta property="og:url"><a href="{base}/book/chapters/gone.html">x</a>')
    assert _broken(site, base) == [("book/chapters/li.html", f"{base}/book/chapters/gone.html")]
    assert linkcheck.check_site(site, base).external == {}


def test_cli_exit_status_and_message(tmp_path, capsys):
    site = _site(tmp_path, '<a href="missing.html">x</a>')
    assert linkcheck.main([str(site), "--external", str(tmp_path / "ext.txt")]) == 1
    out, err = capsys.readouterr()
    assert "2 pages" in out and "1 broken" in out and "book/chapters/li.html: missing.html (no such file)" in err
    assert linkcheck.main([str(tmp_path / "nothing")]) == 2
    assert "build the book first" in capsys.readouterr().err


@pytest.mark.skipif(HTML is None, reason="set RNNREPRO_BUILT_BOOK to a built book's HTML folder")
def test_every_internal_link_and_anchor_of_the_built_book_resolves(tmp_path):
    report = linkcheck.check_site(HTML, public_url())
    assert report.pages > 10 and report.links > 1000
    assert not report.broken, f"{len(report.broken)} broken links:\n" + report.describe()
    linkcheck.write_external(report, tmp_path / "external.txt")
    assert any(address.startswith("https://arxiv.org/") for address in report.external)
