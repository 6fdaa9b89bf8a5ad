"""How to cite a chapter (or one claim of it): BibTeX and plain text, from one source of metadata.

The book's title, authors, version, repository and DOI come from ``CITATION.cff``; its public address
is one setting (:func:`public_url`): ``$RNNREPRO_BASE_URL`` when the build is given one (the publishing
workflow passes the GitHub Pages address), else ``url`` in ``CITATION.cff`` for a fixed one. With an
address, a reference carries the page's ``url``, ``howpublished`` and ``urldate``; without one, it
cites version and commit (and the repository, ``repository-code``, where known). ``_config.yml``
shows the repository and issue buttons only when ``repository-code`` is set (tests/test_cite.py keeps
the two in step). A release's DOI (``doi`` in ``CITATION.cff``, minted by the archive from the tag)
enters every reference once set. The chapter's title is its page heading; the
bibliography keys of the paper(s) it replicates come from its registry entry
(:class:`~rnnrepro.book.profiles.Chapter`); the commit from git; the profile from the run (and, for
``cite --profile full``, the commit the shipped full result was made from, from its MANIFEST). The
chapter pages (through :meth:`rnnrepro.book.ledger.Ledger.finish`) and ``python -m rnnrepro cite``
print the same text. Every BibTeX field is escaped (:func:`bibtex_escape`), so that LaTeX reads it as
written. A chapter's key is ``rnnrepro-<key>``, a claim's ``rnnrepro-<claim id>``, so that one document
can cite a chapter and any of its claims; the replicated papers' entries come verbatim from
``book/references.bib`` (:func:`paper_bibtex`).
"""

from __future__ import annotations

import datetime
import difflib
import json
import os
import re
import subprocess
from functools import lru_cache

from rnnrepro.book.chapters import get_chapter
from rnnrepro.errors import ConfigError
from rnnrepro.book.paths import REPO, ledger_paths
from rnnrepro.book.profiles import Chapter

FORMATS = ("bibtex", "text")
BIBFILE = REPO / "book" / "references.bib"
#: Addresses that stand for "not set yet" (the template's placeholders).
PLACEHOLDER_URLS = ("", "https://rnnrepro.github.io/rnnrepro", "https://github.com/rnnrepro/rnnrepro",
                    "https://OWNER.github.io/REPO", "https://github.com/OWNER/REPO")
#: The build-time setting of the public address (the publishing workflow sets it); wins over CITATION.cff's url.
BASE_URL_ENV = "RNNREPRO_BASE_URL"
#: A claim's statement in a reference's title ends at a whole phrase near this many characters
#: (:func:`short_statement`).
SHORT_STATEMENT = 120
#: LaTeX's special characters in a BibTeX field, and what stands for each.
_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
          "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


@lru_cache(maxsize=1)
def _cff() -> dict:
    import yaml

    return yaml.safe_load((REPO / "CITATION.cff").read_text())


def _address(value) -> str | None:
    value = str(value or "").strip().rstrip("/")
    return None if value in PLACEHOLDER_URLS else value


def public_url() -> str | None:
    """The book's public address, without a trailing slash: ``$RNNREPRO_BASE_URL`` when set (the
    workflow passes the address it publishes to), else ``url`` in ``CITATION.cff``; None when neither is
    set (or either is a placeholder). ConfigError for an address that is not http(s)."""
    url = _address(os.environ.get(BASE_URL_ENV)) or _address(_cff().get("url"))
    if url is not None and not re.match(r"https?://[^\s/]+", url):
        raise ConfigError(f"the book's public address {url!r} is not an http(s) address: set "
                          f"{BASE_URL_ENV} (or url in CITATION.cff) to e.g. https://owner.github.io/rnnrepro")
    return url


def book_metadata() -> dict:
    """``{"title", "authors", "version", "year", "url", "repository", "doi"}`` from ``CITATION.cff``
    (``url``: :func:`public_url`); ``url``, ``repository`` and ``doi`` are None while not set."""
    cff = _cff()
    authors = [a.get("name") or f"{a['family-names']}, {a['given-names']}" for a in cff["authors"]]
    doi = str(cff.get("doi") or "").strip()
    doi = doi if re.fullmatch(r"10\.\d{4,9}/\S+", doi) and "NNN" not in doi else None   # not a placeholder
    return {"title": cff["title"], "authors": authors, "version": str(cff["version"]),
            "year": str(cff["date-released"])[:4], "url": public_url(),
            "repository": _address(cff.get("repository-code")), "doi": doi}


def published() -> bool:
    """Whether the book's public address is set (:func:`public_url`)."""
    return book_metadata()["url"] is not None


def bibtex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (``&`` → ``\\&``, ``_`` → ``\\_`` …) and its quotation
    marks made LaTeX's (:func:`latex_quotes`), for a BibTeX field."""
    return latex_quotes("".join(_LATEX.get(ch, ch) for ch in text))


def latex_quotes(text: str) -> str:
    """Quotation marks as LaTeX typesets them: a straight or curly double quote that opens (at the start, or
    after a space or bracket) becomes two backquotes ````…````, one that closes two apostrophes ``''``
    (a straight ``"`` typesets as a closing quote wherever it stands)."""
    text = text.replace('\\"', '"').replace("\u201c", "``").replace("\u201d", "''")
    return re.sub(r'(^|(?<=[\s(\[{]))"|"', lambda m: "``" if m.group(1) is not None else "''", text)


def page_title(chapter: Chapter | str) -> str:
    """The chapter's page heading (the first ``# `` line of its notebook): the title a reference gives."""
    chapter = _chapter(chapter)
    notebook = REPO / chapter.notebook
    for line in (notebook.read_text().splitlines() if notebook.is_file() else []):
        if line.startswith("# "):
            return line[2:].strip()
    return chapter.title


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


def chapter_url(chapter: Chapter | str, claim: str | None = None) -> str | None:
    """The web address of the chapter's page, with ``#claim`` (the claim's anchor) when given; None
    while the book's public address is not set."""
    chapter = _chapter(chapter)
    if not published():
        return None
    url = f"{book_metadata()['url']}/{chapter.notebook.removesuffix('.md')}.html"
    return f"{url}#{claim}" if claim else url


def claim_ids(key: str) -> list[str]:
    """The chapter's claim and value ids: those written literally in its source
    (``"<key>.<item>.<name>"``) and those in the ledgers of its last runs (book build, CLI)."""
    chapter = get_chapter(key)
    ids = set(re.findall(rf'"({re.escape(key)}\.[a-z0-9_]+\.[a-z0-9_]+)"', (REPO / chapter.notebook).read_text()))
    for path in ledger_paths(chapter):
        if path.is_file():
            ledger = json.loads(path.read_text())
            ids |= {c["id"] for c in ledger["claims"]} | set(ledger.get("values", {}))
    return sorted(ids)


def check_claim(key: str, claim: str | None) -> str | None:
    """The full id (``<key>.<item>.<name>``) of ``claim``, given in full or as the page shows it
    (``<item>.<name>``); None for None; ConfigError when it is not an id of chapter ``key``."""
    if claim is None:
        return None
    full = claim if claim.startswith(f"{key}.") else f"{key}.{claim}"
    ids = claim_ids(key)
    if full not in ids:
        near = difflib.get_close_matches(full, ids, n=1, cutoff=0.75)
        hint = (f"did you mean {near[0].removeprefix(key + '.')!r}? " if near else "")
        raise ConfigError(f"chapter {key} has no claim {claim!r}: {hint}claim ids look like <item>.<name> or "
                          f"{key}.<item>.<name> (see the claims table of the chapter, or its ledger JSON)")
    return full


def bibtex_key(chapter: Chapter | str, claim: str | None = None) -> str:
    """``rnnrepro-<key>`` for a chapter, ``rnnrepro-<claim id>`` for one of its claims (a full id, as
    :func:`check_claim` returns it): distinct keys, so that one .bib file can hold both."""
    return f"rnnrepro-{claim}" if claim else f"rnnrepro-{_chapter(chapter).key}"


def full_commit(key: str) -> str:
    """The commit (12 hex digits) the chapter's shipped ``full`` result was made from, as its
    ``MANIFEST.json`` records it; ConfigError when the chapter has no shipped full result."""
    from rnnrepro.book.full import MANIFEST, full_dir

    path = full_dir(key) / MANIFEST
    if not path.is_file():
        raise ConfigError(f"chapter {key} has no shipped full result ({path.parent.relative_to(REPO)}): "
                          f"make one with `python -m rnnrepro ship-full {key}`, or cite the fast profile")
    return json.loads(path.read_text())["commit"][:12]


def _numbers(profile: str, numbers_commit: str | None) -> str:
    return f"numbers from the {profile} profile" + (f" made at commit {numbers_commit}" if numbers_commit else "")


#: Where a long statement's title may end: before a dash, a semicolon, a colon, a comma or a bracket.
_PHRASE_END = re.compile(r" (?=[—–(])|(?<=[;:,]) ")


def _whole(prefix: str) -> bool:
    """Whether ``prefix`` closes every formula, quotation and bracket it opens."""
    return (prefix.count("$") % 2 == 0 and prefix.count("\u201c") == prefix.count("\u201d")
            and prefix.count('"') % 2 == 0 and prefix.count("(") == prefix.count(")")
            and prefix.count("[") == prefix.count("]"))


def short_statement(statement: str, limit: int = SHORT_STATEMENT) -> str:
    """A claim's statement for a reference's title: its first sentence, its final full stop dropped; one
    longer than ``limit`` characters ends at the last whole phrase within it (before a dash, a semicolon,
    a colon, a comma or a bracket, never inside a ``$…$`` formula, a quotation or brackets), else at the
    first whole phrase within twice ``limit``, else whole up to twice ``limit``; only a longer sentence
    with no such phrase is cut at a word outside formulas, with "..."."""
    text = " ".join(statement.split())
    first = re.split(r"(?<=[a-z0-9)\]\u201d\"'])\. (?=[A-Z(])", text, maxsplit=1)[0].rstrip(".")
    if len(first) <= limit:
        return first
    ends = [m.start() for m in _PHRASE_END.finditer(first) if m.start() >= limit // 3 and _whole(first[:m.start()])]
    within = [e for e in ends if e <= limit]
    end = within[-1] if within else next((e for e in ends if e <= 2 * limit), None)
    if end is not None:
        return first[:end].rstrip(" ,;:")
    if len(first) <= 2 * limit:
        return first
    cut = first[:limit - 3]
    cut = cut[:cut.rindex(" ")] if " " in cut else cut
    if cut.count("$") % 2:                     # inside a formula: cut before it
        cut = cut[:cut.rindex("$")]
    return cut.rstrip(" ,;:(") + "..."


#: TeX commands a title's ``$…$`` formula may keep (plain LaTeX defines them); a formula with any
#: other command is printed as written, escaped.
_SAFE_MATH = set("""alpha beta gamma delta epsilon varepsilon zeta eta theta lambda mu nu xi pi rho sigma tau
phi varphi chi psi omega Gamma Delta Theta Lambda Sigma Phi Psi Omega approx le leq ge geq ne neq sim
cdot times log exp sqrt frac sum prod infty to ldots dots cdots top min max in partial nabla left right
mathrm rm quad lvert rvert lVert rVert mid""".split())


def bibtex_title_escape(text: str) -> str:
    """:func:`bibtex_escape` for a title that may hold ``$…$`` formulas: a formula made of plain LaTeX's
    math (:data:`_SAFE_MATH`) stays a formula, LaTeX typesets it; anything else is escaped."""
    parts = re.split(r"(\$[^$]+\$)", text)
    out = []
    for part in parts:
        commands = set(re.findall(r"\\([A-Za-z]+)", part))
        math = part.startswith("$") and part.endswith("$") and len(part) > 2
        out.append(part if math and commands <= _SAFE_MATH and "%" not in part and "#" not in part
                   else bibtex_escape(part))
    return "".join(out)


def _ledger(key: str, profile: str) -> dict | None:
    """The chapter's ledger of ``profile``: the shipped one for ``full``, else the newest run's (None if none)."""
    from rnnrepro.book.full import shipped_full

    if profile == "full":
        return shipped_full(key)
    paths = [p for p in ledger_paths(get_chapter(key)) if p.is_file()]
    return json.loads(max(paths, key=lambda p: p.stat().st_mtime).read_text()) if paths else None


def claim_row(key: str, claim: str, profile: str = "fast") -> dict | None:
    """The ledger row of ``claim`` (a full id) from the ledger of ``profile``, else from the shipped
    ``full`` ledger (the statement is the same; :func:`verdicts_text` reads the verdict of ``profile``
    only); None when no ledger has the row."""
    from rnnrepro.book.full import shipped_full

    for ledger in (_ledger(key, profile), shipped_full(key) if profile != "full" else None):
        row = next((c for c in (ledger or {}).get("claims", []) if c["id"] == claim), None)
        if row is not None:
            return row
    return None


def reference_title(chapter: Chapter | str, claim: str | None = None, profile: str = "fast") -> str:
    """A reference's title: the chapter's page heading; for a claim, what the claim says (its paper
    item and its statement, short: :func:`short_statement`), so that it differs from its chapter's;
    the claim's id after the heading when no ledger has its row."""
    chapter = _chapter(chapter)
    if claim is None:
        return page_title(chapter)
    row = claim_row(chapter.key, claim, profile)
    if row is None or not row.get("statement"):
        return f"{page_title(chapter)}, claim {claim.removeprefix(chapter.key + '.')}"
    ref = str(row.get("ref") or "").strip()
    item = f"{ref}: " if ref and row.get("kind") == "paper" else ""
    return item + short_statement(row["statement"])


def _claim_clause(chapter: Chapter, claim: str | None, verdicts: str) -> str:
    if claim is None:
        return f"verdicts: {verdicts}" if verdicts else ""
    return (f"claim {claim} of the chapter \"{page_title(chapter)}\""
            + (f", verdict: {verdicts}" if verdicts else ""))


def _note(meta: dict, commit: str, numbers: str, clause: str) -> str:
    parts = [f"in: {meta['title']}, version {meta['version']}, commit {commit}, {numbers}", clause]
    if not published() and meta.get("repository"):
        parts.append(f"source {meta['repository']}")
    note = "; ".join(p for p in parts if p)
    return note[0].upper() + note[1:]     # a sentence of its own in the formatted reference


def _access_date() -> str:
    return datetime.date.today().isoformat()


def chapter_bibtex(chapter: Chapter | str, claim: str | None = None, commit: str | None = None, *,
                   profile: str = "fast", numbers_commit: str | None = None, verdicts: str | None = None) -> str:
    """A BibTeX ``@misc`` entry for the chapter, or for one claim of it (``@misc``: plain BibTeX prints
    its ``howpublished`` and needs no publisher, and the book has none but its authors): title
    (:func:`reference_title`), version, commit and profile (the commit the numbers were made at,
    ``numbers_commit``, when it differs: a shipped full result), the claim's id, chapter and verdict
    (``verdicts``, by default :func:`verdicts_text` of ``profile``) in ``note``, every field escaped;
    with the book's public address ``url``, ``howpublished`` (``\\url{…}``) and ``urldate`` (today);
    without one, the repository (``repository-code``) in ``note``; ``doi`` once a release has one.
    Key: :func:`bibtex_key`."""
    meta, chapter = book_metadata(), _chapter(chapter)
    claim = check_claim(chapter.key, claim)
    commit = commit or build_commit()
    if verdicts is None:
        verdicts = verdicts_text(chapter.key, claim, profile) if claim else ""
    fields = {"author": " and ".join(_braced(bibtex_escape(a)) for a in meta["authors"]),
              "title": "{" + bibtex_title_escape(reference_title(chapter, claim, profile)) + "}",   # braced: case kept
              "booktitle": bibtex_escape(meta["title"]),
              "year": bibtex_escape(meta["year"]), "version": bibtex_escape(meta["version"]),
              "note": bibtex_escape(_note(meta, commit, _numbers(profile, numbers_commit),
                                          _claim_clause(chapter, claim, verdicts)))}
    url = chapter_url(chapter, claim)
    if url:     # read verbatim by biblatex and \url{}: not escaped
        fields.update(url=url, howpublished=f"\\url{{{url}}}", urldate=_access_date())
    if meta.get("doi"):
        fields["doi"] = meta["doi"]
    body = ",\n".join(f"  {name:12s} = {{{value}}}" for name, value in fields.items())
    return f"@misc{{{bibtex_key(chapter, claim)},\n{body}\n}}"


def chapter_text(chapter: Chapter | str, claim: str | None = None, commit: str | None = None, *,
                 profile: str = "fast", numbers_commit: str | None = None, verdicts: str | None = None) -> str:
    """A plain-text reference for the chapter (or one claim of it), with the same facts as
    :func:`chapter_bibtex`: the address and the date accessed when the book has one, else version and
    commit (and the repository where known)."""
    meta, chapter = book_metadata(), _chapter(chapter)
    claim = check_claim(chapter.key, claim)
    commit = commit or build_commit()
    if verdicts is None:
        verdicts = verdicts_text(chapter.key, claim, profile) if claim else ""
    clause = _claim_clause(chapter, claim, verdicts)
    clause = f" {clause[0].upper()}{clause[1:]}." if clause else ""
    url = chapter_url(chapter, claim)
    if url:
        tail = f" {url} (accessed {_access_date()})."
    elif meta.get("repository"):
        tail = f" Source: {meta['repository']}."
    else:
        tail = ""
    doi = f" doi:{meta['doi']}." if meta.get("doi") else ""
    title = reference_title(chapter, claim, profile)
    title += "" if title.endswith((".", "?", "!")) else "."
    return (f"{' and '.join(meta['authors'])} ({meta['year']}). {title} "
            f"In: {meta['title']}, version {meta['version']} (commit {commit}; "
            f"{_numbers(profile, numbers_commit)}).{clause}{tail}{doi}")


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


def paper_bibtex(chapter: Chapter | str) -> str:
    """The BibTeX entries of the paper(s) the chapter replicates, verbatim from ``book/references.bib``."""
    chapter = _chapter(chapter)
    text = BIBFILE.read_text()
    entries = []
    for key in chapter.cites:
        found = re.search(rf"^@\w+\{{{re.escape(key)},.*?^\}}", text, re.M | re.S)
        if found is None:
            raise ConfigError(f"chapter {chapter.key} cites {key!r}, which is not in {BIBFILE.name}")
        entries.append(found.group(0))
    return "\n\n".join(entries)


def reference(key: str, claim: str | None = None, fmt: str = "bibtex", profile: str = "fast", *,
              paper: bool = False) -> str:
    """The chapter's reference in ``fmt`` (one of :data:`FORMATS`) for numbers of ``profile``, for the
    CLI; for ``full``, naming the commit the shipped full result was made at. ``paper``: the
    replicated paper(s) instead."""
    from rnnrepro.book.profiles import check_profile

    if fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}: valid formats are {', '.join(FORMATS)}")
    check_profile(profile)
    if paper:
        if not _chapter(key).cites:
            raise ConfigError(f"chapter {key} replicates no paper (its registry entry lists no cites)")
        return paper_bibtex(key) if fmt == "bibtex" else "\n".join(paper_references(key))
    claim = check_claim(key, claim)
    profile = cited_profile(key, claim, profile)
    numbers_commit = full_commit(key) if profile == "full" else None
    make = chapter_bibtex if fmt == "bibtex" else chapter_text
    return make(key, claim, profile=profile, numbers_commit=numbers_commit, verdicts=verdicts_text(key, claim, profile))


def cited_profile(key: str, claim: str | None, profile: str) -> str:
    """The profile a claim's reference can name for its numbers: ``profile`` when its ledger (the newest
    run's, or the shipped one for ``full``) has the claim's row; ``full`` when only the shipped full
    ledger has it (a fresh clone, before any ``fast`` run: its title and verdict are full's, so they are
    labelled full, never fast); ``profile`` otherwise (and for a chapter's reference, which quotes no
    number)."""
    if claim is None or profile == "full":
        return profile
    from rnnrepro.book.full import shipped_full

    def has(ledger):
        return ledger is not None and any(c["id"] == claim for c in ledger.get("claims", []))

    return "full" if not has(_ledger(key, profile)) and has(shipped_full(key)) else profile


def verdicts_text(key: str, claim: str | None, profile: str) -> str:
    """What a reference says of the verdicts, read from the chapter's ledger of ``profile`` (the shipped
    one for ``full``, else the newest run's): a claim's kind and status (``statement, holds``), or the
    chapter's paper claims, statements and experiments apart; "" when there is no ledger."""
    from rnnrepro.book.rows import type_counts_text

    ledger = _ledger(key, profile)
    if ledger is None:
        return ""
    if claim is None:
        return type_counts_text(ledger["counts"])
    row = next((c for c in ledger["claims"] if c["id"] == claim), None)
    if row is None:
        return ""
    return f"{row.get('type') or row['kind']}, {row['status']}"


#: The heading of a chapter page's citation section (its anchor: ``#cite-this-chapter``).
CITE_HEADING = "Cite this chapter"
CITE_ANCHOR = "cite-this-chapter"


def cite_section_markdown(key: str) -> str:
    """What a chapter's notebook writes after its ``ledger.finish()`` cell: the headed section (in the
    page's contents, anchored ``#cite-this-chapter``) that shows the cite block :meth:`Ledger.finish
    <rnnrepro.book.ledger.Ledger.finish>` glues as ``<key>.cite`` (:func:`cite_block_markdown`)."""
    return f"## {CITE_HEADING}\n\n```{{glue:md}} {key}.cite\n:format: myst\n```\n"


def has_cite_section(chapter: Chapter | str) -> bool:
    """Whether the chapter's notebook shows its cite block under its own heading (:func:`cite_section_markdown`)."""
    chapter = _chapter(chapter)
    notebook = REPO / chapter.notebook
    return notebook.is_file() and cite_section_markdown(chapter.key) in notebook.read_text()


def cite_block_markdown(chapter: Chapter | str, profile: str) -> str:
    """The cite block of a chapter page (MyST markdown, shown under the page's "Cite this chapter"
    heading: :func:`cite_section_markdown`), with links to the page's ledger JSON and figure data
    (copied beside the page by :mod:`rnnrepro.site.sphinxext.downloads`)."""
    meta, commit, chapter = book_metadata(), build_commit(), _chapter(chapter)
    key = chapter.key
    link = (f"Link to one claim with `{chapter_url(chapter)}#<claim id>`; " if published() else
            "This build names no public address: its version and commit identify it. ")
    try:
        shipped = (f"; the `full` values beside them were made at commit `{full_commit(key)}` and shipped"
                   if profile != "full" else "")
    except ConfigError:        # no shipped full result
        shipped = ""
    lines = [f"Built from rnnrepro version {meta['version']}, commit `{commit}`; the numbers on this page "
             f"come from the `{profile}` profile (a number from `fast` is not a number from `full`){shipped}. "
             f"Data of this page: <a href=\"{key}.ledger.json\">claims ledger (JSON)</a>, "
             f"<a href=\"{key}.figures.zip\">figure data (npz)</a>. {link}"
             f"`python -m rnnrepro cite {key} --claim <id>` prints one claim's reference.", "",
             chapter_text(chapter, commit=commit, profile=profile, verdicts=""), "", "```bibtex",
             chapter_bibtex(chapter, commit=commit, profile=profile, verdicts=""), "```"]
    papers = paper_references(chapter)
    if papers:
        lines += ["", "Please cite the replicated paper as well:", ""] + [f"- {autolink(p)}" for p in papers]
        lines += ["", "```bibtex", paper_bibtex(chapter), "```"]
    return "\n".join(lines)


def autolink(text: str) -> str:
    """``text`` (markdown) with each bare http(s) address as a link a reader can click (``<https://…>``);
    a sentence's full stop after the address stays outside it."""
    return re.sub(r"(?<![<(\[])\b(https?://[^\s<>]+?)([.,;:]?)(?=\s|$)", r"<\1>\2", text)


def _braced(name: str) -> str:
    """A corporate author ("The rnnrepro authors") in braces so BibTeX keeps it whole."""
    return name if "," in name else f"{{{name}}}"

