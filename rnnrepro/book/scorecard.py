"""The scorecard, the book-wide table and the compute tables, generated from the ledgers of the same
build and the shipped paper-scale (``full``) ledgers.

Headline counts are paper claims only (findings of ours and integrity checks apart), each counted
under its headline status: the shipped ``full`` verdict where one is current, else the ``fast`` one
(:func:`rnnrepro.book.claims_table.headline`).
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.claims_table import (ALL_STATUSES, claims_html, full_rows, headline, shipped_full_ledger,
                                        status_badge, status_class)
from rnnrepro.errors import RnnreproError
from rnnrepro.book.rows import EXPERIMENT_STATUSES, STATEMENT_STATUSES, STATUSES
from rnnrepro.book.paths import REPO, code_sha256, output_dir, toc_files
from rnnrepro.book.rows import show
from rnnrepro.data import sha256_file


def load_ledgers(out: Path | None = None) -> dict[str, dict]:
    """The ledger of every chapter in the table of contents, in book order.

    ``out`` is one folder holding them all (a CLI ``--out``); by default each chapter's
    :func:`~rnnrepro.book.paths.output_dir`.

    Raises RnnreproError when a ledger is missing or was written by another version of the
    chapter's source (its sha256 differs): the scorecard never shows stale numbers.
    """
    in_toc = set(toc_files())
    ledgers = {}
    for key, chapter in all_chapters().items():
        if chapter.notebook.removesuffix(".md") not in in_toc:
            continue
        folder = Path(out) if out is not None else output_dir(chapter.notebook)
        path = folder / f"{key}.ledger.json"
        if not path.is_file():
            raise RnnreproError(f"no ledger for chapter {key} in {folder}: build the whole book "
                                f"(chapters run before the scorecard) or run `python -m rnnrepro run {key}`")
        ledger = json.loads(path.read_text())
        notebook = REPO / chapter.notebook
        # Written by the chapter's present code (a change of its prose alone leaves the ledger current, as the
        # execution cache does); for a ledger older than code_sha256, by the present notebook.
        current = (ledger["code_sha256"] == code_sha256(notebook) if ledger.get("code_sha256")
                   else ledger.get("source_sha256") == sha256_file(notebook))
        if not current:
            raise RnnreproError(f"the ledger {path} is stale (written by another version of "
                                f"{chapter.notebook}'s code): rebuild the book with --all")
        ledgers[key] = ledger
    return ledgers


def full_ledgers(ledgers: dict[str, dict]) -> dict[str, dict | None]:
    """The shipped full ledger of each chapter (:func:`rnnrepro.book.full.shipped_full`), or None."""
    return {key: shipped_full_ledger(key) for key in ledgers}


def headline_counts(ledger: dict, full: dict | None = None) -> dict:
    """Paper claims per headline status (``full`` where shipped and current, else ``fast``), with
    ``"profile"`` (``full``, ``fast`` or ``fast + full`` when some rows have no full row) and
    ``"differ"`` (paper claims whose full status differs from the fast one)."""
    by_id, usable = full_rows(full)
    counts, used, differ = dict.fromkeys(STATUSES, 0), set(), 0
    for c in ledger["claims"]:
        if c.get("kind", "paper") != "paper":
            continue
        status, profile = headline(c, by_id.get(c["id"]), usable)
        counts[status] = counts.get(status, 0) + 1   # a shipped full ledger may predate a status
        used.add(profile)
        differ += c["id"] in by_id and by_id[c["id"]]["status"] != c["status"]
    profile = " + ".join(p for p in ("full", "fast") if p in used) or ledger.get("profile", "fast")
    return {**counts, "profile": profile, "differ": differ}


def chapter_page(key: str) -> str:
    """The chapter's HTML page relative to the scorecard's (``book/scorecard``): ``chapters/<key>.html``."""
    from rnnrepro.book.chapters import chapter_page as page

    return os.path.relpath(page(key) + ".html", "book").replace(os.sep, "/")


#: The book-wide table's columns under their group: (status or total, its short header, its full name).
BOOK_TABLE_GROUPS = {
    "statements": [("holds", "hold", "statements that hold"), ("erratum", "errata", "errata"),
                   ("statements", "all", "all statements")],
    "experiments": [("reproduced", "repr.", "reproduced"), ("partial", "partial", "partial"),
                    ("not reproduced", "not repr.", "not reproduced"), ("experiments", "all", "all experiments")],
    "not paper claims": [("finding", "findings", "findings of ours"), ("integrity", "checks", "integrity checks")],
}


def chapter_counts(ledger: dict, full: dict | None = None) -> dict:
    """A chapter's headline counts (:func:`headline_counts`) with the totals of statements and
    experiments and the numbers of findings of ours (``finding``) and integrity checks (``integrity``)."""
    counts = headline_counts(ledger, full)
    counts["statements"] = sum(counts[s] for s in STATEMENT_STATUSES)
    counts["experiments"] = sum(counts[s] for s in EXPERIMENT_STATUSES)
    for kind in ("finding", "integrity"):
        counts[kind] = sum(c.get("kind", "paper") == kind for c in ledger["claims"])
    return counts


def book_totals(ledgers: dict[str, dict], fulls: dict[str, dict | None] | None = None) -> dict[str, int]:
    """The book's headline counts: :func:`chapter_counts` summed over the chapters."""
    fulls = fulls or {}
    names = [name for group in BOOK_TABLE_GROUPS.values() for name, _, _ in group]
    totals = dict.fromkeys(names, 0)
    for key, ledger in ledgers.items():
        counts = chapter_counts(ledger, fulls.get(key))
        for name in names:
            totals[name] += counts[name]
    return totals


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def book_result_html(ledgers: dict[str, dict], fulls: dict[str, dict | None] | None = None, *,
                     scorecard: str = "scorecard.html") -> str:
    """The book-wide result in one sentence (HTML paragraph), each count linked to its rows in the
    scorecard: statements that hold and errata, experiments reproduced, partial and not reproduced
    (headline verdicts: the shipped ``full`` runs where current, else ``fast``). The chapters are counted
    as the table of contents numbers them: a page whose registry entry cites no paper (the front matter)
    is named as such, not counted as a chapter that tests a paper."""
    t = book_totals(ledgers, fulls)

    def link(n: int, status: str, text: str) -> str:
        return f'<a href="{scorecard}?{urlencode({"status": status_class(status)})}">{text}</a>' if n else text

    testing = [key for key, ledger in ledgers.items() if any(c.get("kind", "paper") == "paper" for c in ledger["claims"])]
    front = [key for key in testing if key in all_chapters() and not all_chapters()[key].cites]   # front matter
    where = (_plural(len(testing) - len(front), "chapter that tests a paper", "chapters that test papers")
             + (" and the front matter" if front else ""))
    statements = (f"of the {_plural(t['statements'], 'statement', 'statements')} they print that we checked, "
                  f"{link(t['holds'], 'holds', _plural(t['holds'], 'holds', 'hold'))} and "
                  f"{link(t['erratum'], 'erratum', _plural(t['erratum'], 'is an erratum', 'are errata'))}")
    experiments = (f"of the {_plural(t['experiments'], 'experiment', 'experiments')} we reran, "
                   f"{link(t['reproduced'], 'reproduced', str(t['reproduced']))} "
                   f"{'is' if t['reproduced'] == 1 else 'are'} reproduced, "
                   f"{link(t['partial'], 'partial', str(t['partial']))} partial and "
                   f"{link(t['not reproduced'], 'not reproduced', str(t['not reproduced']))} not reproduced")
    return (f'<p class="rnnrepro-book-result"><strong>The result.</strong> Across the '
            f"{where}, {statements}; "
            f"{experiments}.</p>")


def book_table_html(ledgers: dict[str, dict], fulls: dict[str, dict | None] | None = None, *,
                    page_of: Callable[[str], str] = chapter_page, scorecard: str = "scorecard.html") -> str:
    """The book-wide table (HTML, one block) that fits the page's column: per chapter (its title linked
    to its paper-claims table, ``page_of(key)#claims-paper``, or its first table when it has no paper
    claims; under it the profile its verdicts come from), paper claims per headline status, statements
    (hold, errata) and experiments (reproduced, partial, not reproduced) apart, each with its total and
    linked to the scorecard filtered by chapter and status; findings of ours and integrity checks
    apart; totals. Two header rows: the group, then a short name (its full name in ``title``)."""
    fulls = fulls or {}
    columns = [name for group in BOOK_TABLE_GROUPS.values() for name, _, _ in group]
    rows = []
    for key, ledger in ledgers.items():
        counts = chapter_counts(ledger, fulls.get(key))

        def cell(name: str, key=key, counts=counts) -> str:
            n = counts[name]
            if name in STATUSES:
                query = urlencode({"chapter": key, "status": status_class(name)})
                return f'<a href="{scorecard}?{query}">{n}</a>' if n else "0"
            return f"<strong>{n}</strong>" if name in ("statements", "experiments") else str(n)

        profile = counts["profile"] + (f", {counts['differ']} differ" if counts["differ"] else "")
        kinds = {"paper": counts["statements"] + counts["experiments"], "finding": counts["finding"],
                 "integrity": counts["integrity"]}
        first = next((k for k, n in kinds.items() if n), "paper")   # its first table
        title = (f'<a href="{page_of(key)}#claims-{first}">{html.escape(ledger["title"])}</a>'
                 f'<br><span class="rnnrepro-profile">verdicts: {html.escape(profile)}</span>')
        rows.append(f"<tr><td>{title}</td>" + "".join(f'<td class="n">{cell(c)}</td>' for c in columns) + "</tr>")
    totals = book_totals(ledgers, fulls)
    rows.append("<tr><td><strong>all</strong></td>"
                + "".join(f'<td class="n"><strong>{totals[c]}</strong></td>' for c in columns) + "</tr>")
    groups = "".join(f'<th colspan="{len(g)}" scope="colgroup">{name}</th>' for name, g in BOOK_TABLE_GROUPS.items())
    short = "".join(f'<th scope="col" title="{full}">{head}</th>'
                    for g in BOOK_TABLE_GROUPS.values() for _, head, full in g)
    return ('<table class="rnnrepro-book-table">\n<thead><tr><th rowspan="2" scope="col">chapter</th>'
            f"{groups}</tr>\n<tr>{short}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>")


def counts_table(ledgers: dict[str, dict], fulls: dict[str, dict | None] | None = None) -> str:
    """The book-wide table as it shows on the scorecard (links to the chapters beside it)."""
    return book_table_html(ledgers, fulls)


def filter_html(ledgers: dict[str, dict]) -> str:
    """The scorecard's filter (status, chapter, kind of row), run by ``rnnrepro.js``; the page's
    address keeps the choice (``scorecard.html?status=not-reproduced&chapter=cayci``)."""
    def select(name: str, options: list[tuple[str, str]]) -> str:
        opts = "".join(f'<option value="{v}">{html.escape(t)}</option>' for v, t in [("", "all"), *options])
        return f'<label>{name} <select name="{name}">{opts}</select></label>'

    statuses = [(status_class(s), s) for s in ALL_STATUSES]
    chapters = [(key, ledger["title"]) for key, ledger in ledgers.items()]
    kinds = [("paper", "paper claims"), ("statement", "paper claims: statements"),
             ("experiment", "paper claims: experiments"), ("finding", "findings of ours"),
             ("integrity", "integrity checks")]
    return ('<form class="rnnrepro-filter" data-target=".rnnrepro-scorecard">'
            + select("status", statuses) + select("chapter", chapters) + select("kind", kinds)
            + '<output name="shown" aria-live="polite"></output></form>')


def claims_table(ledgers: dict[str, dict], fulls: dict[str, dict | None] | None = None) -> str:
    """HTML, one block per chapter: its heading, then its paper claims, findings and integrity
    checks (paper's value next to ours, the shipped ``full`` verdict beside); each claim links to its
    row in the chapter."""
    fulls = fulls or {}
    parts = []
    for key, ledger in ledgers.items():
        tables = claims_html(ledger["claims"], chapter=key, page=chapter_page(key), statements=False,
                             full=fulls.get(key))
        parts.append(f'<section class="rnnrepro-scorecard" data-chapter="{key}" id="scorecard-{key}">\n'
                     f'<h3>{html.escape(ledger["title"])}</h3>\n{tables.replace(chr(10) * 2, chr(10))}\n</section>')
    return "\n\n".join(parts)


def legend_html() -> str:
    """The status badges with their meaning, one line."""
    return " ".join(status_badge(s) for s in ALL_STATUSES)


def compute_table(ledgers: dict[str, dict]) -> str:
    """Markdown table: CPU, wall time of each chapter, its margin under the `fast` budget
    (:data:`rnnrepro.book.fast_budget.BUDGET_S`; measured, never enforced) and its sections' times in this build."""
    from rnnrepro.book.fast_budget import BUDGET_S, margin

    lines = [_row(["chapter", "profile", "CPU (torch kernels)", "wall time (s)",
                   f"margin under {BUDGET_S:.0f} s (s)", "sections (s)"]), _row(["---"] * 6)]
    for ledger in ledgers.values():
        wall = ledger["wall_time_s"]
        sections = ", ".join(f"{name} {show(t, '.1f')}" for name, t in wall["sections"].items())   # never "0.0"
        cpu = ledger.get("environment", {}).get("cpu", {})
        cpu_text = f"{cpu.get('model', '?')} ({cpu.get('capability', '?')})"
        left = f"{margin(wall['total']):+.1f}" if ledger["profile"] == "fast" else ""
        lines.append(_row([ledger["title"], ledger["profile"], cpu_text, f"{wall['total']:.1f}", left, sections]))
    return "\n".join(lines)


def full_compute_table(ledgers: dict[str, dict], fulls: dict[str, dict | None]) -> str:
    """Markdown table: each chapter's shipped ``full`` run (commit, date, CPU, wall time natively and
    with torch's kernels one instruction set lower), or that none is shipped."""
    lines = [_row(["chapter", "commit", "shipped", "CPU (torch kernels)", "wall time native (s)",
                   "wall time lower ISA (s)"]), _row(["---"] * 6)]
    for key, ledger in ledgers.items():
        full = fulls.get(key)
        if full is None:
            lines.append(_row([ledger["title"], "not shipped", "", "", "", ""]))
            continue
        m = full.get("manifest", {})
        runs, cpu = m.get("runs", {}), m.get("machine", {})
        wall = [runs.get(name, {}).get("wall_time_s") for name in ("native", "lower_isa")]
        commit = f"`{str(m.get('commit', '?'))[:12]}`" + (" (stale)" if full.get("stale") else "")
        cpu_text = f"{cpu.get('model', '?')} ({cpu.get('capability', '?')})"
        lines.append(_row([ledger["title"], commit, str(m.get("created_utc", "?"))[:10], cpu_text,
                           *("—" if w is None else f"{w:.0f}" for w in wall)]))
    return "\n".join(lines)


def _row(cells) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"
