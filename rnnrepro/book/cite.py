"""How to cite a chapter (or one claim of it): BibTeX and plain text, from one source of metadata.

The book's title, authors, version and web address come from ``CITATION.cff``; the chapter's title
and the bibliography keys of the paper(s) it replicates from its registry entry
(:class:`~rnnrepro.book.profiles.Chapter`); the commit from git. The chapter pages (through
:meth:`rnnrepro.book.ledger.Ledger.finish`) and ``python -m rnnrepro cite`` print the same text.
"""

from __future__ import annotations

import json
import re
import subprocess
from functools import lru_cache

from rnnrepro.book.chapters import get_chapter
from rnnrepro.book.errors import ConfigError
from rnnrepro.book.paths import REPO
from rnnrepro.book.profiles import Chapter

FORMATS = ("bibtex", "text")
BIBFILE = REPO / "book" / "references.bib"


@lru_cache(maxsize=1)
def book_metadata() -> dict:
    """``{"title", "authors", "version", "year", "url", "repository"}`` from ``CITATION.cff``."""
    import yaml

    cff = yaml.safe_load((REPO / "CITATION.cff").read_text())
    authors = [a.get("name") or f"{a['family-names']}, {a['given-names']}" for a in cff["authors"]]
    return {"title": cff["title"], "authors": authors, "version": str(cff["version"]),
            "year": str(cff["date-released"])[:4], "url": cff["url"].rstrip("/"),
            "repository": cff["repository-code"]}


def build_commit() -> str:
    """The commit the book is built from (12 hex digits, ``-dirty`` when tracked files differ from
    it), or ``"unknown"`` outside a git checkout."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, timeout=10)

    try:
        head, diff = git("rev-parse", "--short=12", "HEAD"), git("diff", "--quiet", "HEAD", "--")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if head.returncode != 0 or not head.stdout.strip():
        return "unknown"
    return head.stdout.strip() + ("-dirty" if diff.returncode == 1 else "")


def _chapter(chapter: Chapter | str) -> Chapter:
    return chapter if isinstance(chapter, Chapter) else get_chapter(chapter)


def chapter_url(chapter: Chapter | str, claim: str | None = None) -> str:
    """The web address of the chapter's page, with ``#claim`` (the claim's anchor) when given."""
    chapter = _chapter(chapter)
    url = f"{book_metadata()['url']}/{chapter.notebook.removesuffix('.md')}.html"
    return f"{url}#{claim}" if claim else url


def claim_ids(key: str) -> list[str]:
    """The chapter's claim and value ids: those written literally in its source
    (``"<key>.<item>.<name>"``) and those in the ledgers of its last runs (book build, CLI)."""
    chapter = get_chapter(key)
    ids = set(re.findall(rf'"({re.escape(key)}\.[a-z0-9_]+\.[a-z0-9_]+)"', (REPO / chapter.notebook).read_text()))
    from rnnrepro.book.cli import ledger_paths

    for path in ledger_paths(chapter):
        if path.is_file():
            ledger = json.loads(path.read_text())
            ids |= {c["id"] for c in ledger["claims"]} | set(ledger.get("values", {}))
    return sorted(ids)


def check_claim(key: str, claim: str | None) -> None:
    """Raise ConfigError when ``claim`` is given and is not an id of chapter ``key``."""
    if claim is not None and claim not in claim_ids(key):
        raise ConfigError(f"chapter {key} has no claim {claim!r}: claim ids look like {key}.<item>.<name> "
                          f"(see the claims table at the end of the chapter, or its ledger JSON)")


def chapter_bibtex(chapter: Chapter | str, claim: str | None = None, commit: str | None = None) -> str:
    """A BibTeX ``@incollection`` entry for the chapter (its claim in ``note`` when given)."""
    meta, chapter = book_metadata(), _chapter(chapter)
    check_claim(chapter.key, claim)
    commit = commit or build_commit()
    note = f"Version {meta['version']}, commit {commit}" + (f"; claim {claim}" if claim else "")
    fields = {"author": " and ".join(_braced(a) for a in meta["authors"]), "title": chapter.title,
              "booktitle": meta["title"], "year": meta["year"], "version": meta["version"],
              "note": note, "url": chapter_url(chapter, claim)}
    body = ",\n".join(f"  {name:9s} = {{{value}}}" for name, value in fields.items())
    return f"@incollection{{rnnrepro-{chapter.key},\n{body}\n}}"


def chapter_text(chapter: Chapter | str, claim: str | None = None, commit: str | None = None) -> str:
    """A plain-text reference for the chapter (and the claim, when given)."""
    meta, chapter = book_metadata(), _chapter(chapter)
    check_claim(chapter.key, claim)
    commit = commit or build_commit()
    where = f", claim {claim}" if claim else ""
    return (f"{' and '.join(meta['authors'])} ({meta['year']}). {chapter.title}{where}. In: {meta['title']}, "
            f"version {meta['version']} (commit {commit}). {chapter_url(chapter, claim)}")


def paper_references(chapter: Chapter | str) -> list[str]:
    """Plain-text references of the paper(s) the chapter replicates, from ``book/references.bib``."""
    from pybtex.database import parse_file
    from pybtex.plugin import find_plugin

    chapter = _chapter(chapter)
    keys = chapter.cites
    if not keys:
        return []
    bib = parse_file(str(BIBFILE))
    missing = [k for k in keys if k not in bib.entries]
    if missing:
        raise ConfigError(f"chapter {chapter.key} cites {missing}, which are not in {BIBFILE.name}")
    style = find_plugin("pybtex.style.formatting", "plain")()
    formatted = style.format_entries(bib.entries[k] for k in keys)
    return [entry.text.render_as("text") for entry in formatted]


def reference(key: str, claim: str | None = None, fmt: str = "bibtex") -> str:
    """The chapter's reference in ``fmt`` (one of :data:`FORMATS`), for the CLI."""
    if fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}: valid formats are {', '.join(FORMATS)}")
    return chapter_bibtex(key, claim) if fmt == "bibtex" else chapter_text(key, claim)


def cite_block_markdown(chapter: Chapter | str, profile: str) -> str:
    """The "Cite this chapter" block of a chapter page (MyST markdown), with links to the page's
    ledger JSON and figure data (copied beside the page by :mod:`rnnrepro.site.sphinxext.downloads`)."""
    meta, commit, chapter = book_metadata(), build_commit(), _chapter(chapter)
    key = chapter.key
    lines = ["**Cite this chapter.**", "",
             f"Built from rnnrepro version {meta['version']}, commit `{commit}`; the numbers on this page "
             f"come from the `{profile}` profile (a number from `fast` is not a number from `full`). "
             f"Data of this page: <a href=\"{key}.ledger.json\">claims ledger (JSON)</a>, "
             f"<a href=\"{key}.figures.zip\">figure data (npz)</a>. Link to one claim with "
             f"`{chapter_url(chapter)}#<claim id>`; `python -m rnnrepro cite {key} --claim <id>` prints its "
             "reference.", "", chapter_text(chapter, commit=commit), "", "```bibtex",
             chapter_bibtex(chapter, commit=commit), "```"]
    papers = paper_references(chapter)
    if papers:
        lines += ["", "Please cite the replicated paper as well:", ""] + [f"- {p}" for p in papers]
    return "\n".join(lines)


def _braced(name: str) -> str:
    """A corporate author ("The rnnrepro authors") in braces so BibTeX keeps it whole."""
    return name if "," in name else f"{{{name}}}"

