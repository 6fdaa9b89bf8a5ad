"""Offline link check of the built site: every internal link and anchor resolves; external links are
listed, never fetched.

For every HTML page under the site folder (not the theme's template partials in ``_static``), each
``href`` (``a``, ``link``, ``area``), each ``src`` (``img``, ``script``, ``iframe``, ``source``,
``embed``, ``video``, ``audio``, ``track``) and each ``object``'s ``data`` is read from the HTML as
written (closed ``<details>`` included: a claim's anchor inside the collapsed ledger is in the page). A
relative address must name a file of the site (a folder means its ``index.html``); its ``#fragment``,
on an HTML page, must be an ``id`` (or an ``<a name>``) of that page. An absolute address under the
book's public address (``--base``, by default :func:`rnnrepro.book.cite.public_url`) is checked as the
local file it names (the canonical links); any other absolute address is external: listed with the
pages that use it (``--external FILE``), not fetched.

``python -m rnnrepro.site.linkcheck _build/html --external _build/external-links.txt`` prints each
broken link (page, address, why) and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: The attributes that load or link to something, by element.
LINK_ATTRS = {"a": "href", "link": "href", "area": "href", "img": "src", "script": "src", "iframe": "src",
              "source": "src", "embed": "src", "video": "src", "audio": "src", "track": "src", "object": "data"}
#: Schemes that address nothing to check (in-page script, inline data, e-mail).
IGNORED_SCHEMES = {"javascript", "data", "mailto", "tel", "blob", "about"}


@dataclass
class Page:
    """What one HTML page holds: its element ids and its links (as written)."""

    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.page.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.page.ids.add(attrs["name"])
        name = LINK_ATTRS.get(tag)
        if name and attrs.get(name) is not None:
            self.page.links.append(attrs[name].strip())

    handle_startendtag = handle_starttag


def read_page(path: Path) -> Page:
    parser = _Parser()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    parser.close()
    return parser.page


@dataclass
class Report:
    """Broken links ``(page, address, why)`` and external addresses with the pages that use them."""

    broken: list[tuple[str, str, str]]
    external: dict[str, list[str]]
    pages: int
    links: int

    def describe(self, limit: int = 40) -> str:
        lines = [f"{page}: {address} ({why})" for page, address, why in self.broken[:limit]]
        if len(self.broken) > limit:
            lines.append(f"... and {len(self.broken) - limit} more")
        return "\n".join(lines)


def check_site(site: Path, base: str | None = None) -> Report:
    """Check every link of every HTML page under ``site`` (see the module)."""
    site = Path(site).resolve()
    if not site.is_dir():
        raise FileNotFoundError(f"no built site at {site}: build the book first (jupyter-book build .)")
    base = base.rstrip("/") + "/" if base else None
    pages = {path: read_page(path) for path in sorted(site.rglob("*.html"))
             if path.relative_to(site).parts[0] != "_static"}     # _static: the theme's template partials
    broken, external, count = [], defaultdict(set), 0
    for path, page in pages.items():
        name = path.relative_to(site).as_posix()
        for address in page.links:
            count += 1
            why = _check(site, path, address, pages, base)
            if why == "external":
                external[address].add(name)
            elif why:
                broken.append((name, address, why))
    return Report(broken=broken, external={a: sorted(p) for a, p in sorted(external.items())},
                  pages=len(pages), links=count)


def _check(site: Path, page: Path, address: str, pages: dict[Path, Page], base: str | None) -> str | None:
    """None when ``address`` (on ``page``) resolves; "external"; else why it does not."""
    if not address:
        return None
    if base and address.startswith(base):
        address = "/" + address[len(base):]
        page = site / "index.html"
    parts = urlsplit(address)
    if parts.scheme in IGNORED_SCHEMES:
        return None
    if parts.scheme or parts.netloc:
        return "external"
    if parts.path.startswith("/"):
        target = site / unquote(parts.path).lstrip("/")
    elif parts.path:
        target = page.parent / unquote(parts.path)
    else:
        target = page
    target = Path(os.path.normpath(target))
    if not str(target).startswith(str(site)):
        return "points outside the site"
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return "no such file"
    fragment = unquote(parts.fragment)
    if fragment and target.suffix == ".html":
        ids = pages[target].ids if target in pages else read_page(target).ids
        if fragment not in ids:
            return f"no element with id {fragment!r} in {target.relative_to(site).as_posix()}"
    return None


def write_external(report: Report, out: Path) -> None:
    """One line per external address: the address, a tab, the pages that use it (comma-separated)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(f"{address}\t{', '.join(pages)}\n" for address, pages in report.external.items()))


def main(argv: list[str] | None = None) -> int:
    from rnnrepro.book.cite import public_url

    parser = argparse.ArgumentParser(prog="python -m rnnrepro.site.linkcheck",
                                     description="Check the built site's internal links offline; list external ones.")
    parser.add_argument("site", type=Path, help="the built HTML folder (_build/html)")
    parser.add_argument("--external", type=Path, default=None,
                        help="write the external addresses (not fetched) to this file")
    parser.add_argument("--base", default=None, help="the site's public address (default: the book's, if set)")
    args = parser.parse_args(argv)
    try:
        report = check_site(args.site, args.base or public_url())
    except FileNotFoundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.external:
        write_external(report, args.external)
    where = f"; {len(report.external)} external addresses listed in {args.external}" if args.external else ""
    print(f"{report.pages} pages, {report.links} links: {len(report.broken)} broken{where}")
    if report.broken:
        print(report.describe(), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
