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
from rnnrepro.book.paths import REPO, output_dir, toc_files
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
        if ledger.get("source_sha256") != sha256_file(REPO / chapter.notebook):
            raise RnnreproError(f"the ledger {path} is stale (written by another version of "
                                f"{chapter.notebook}): rebuild the book with --all")
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
    notebook = all_chapters()[key].notebook.removesuffix(".md") + ".html"
    return os.path.relpath(notebook, "book").replace(os.sep, "/")


def book_table_html(ledgers: dict[str, dict], fulls: dict[str, dict | None] | None = None, *,
                    page_of: Callable[[str], str] = chapter_page, scorecard: str = "scorecard.html") -> str:
    """The book-wide table (HTML, one block): per chapter, paper claims per headline status, statements
    (holds, erratum) and experiments (reproduced, partial, not reproduced) apart, each with its total,
    linked to the chapter's paper-claims table (``page_of(key)#claims-paper``, or its first table when
    it has no paper claims) and to the scorecard filtered by chapter and status; findings and
    integrity checks apart; totals."""
    fulls = fulls or {}
    columns = [*STATEMENT_STATUSES, "statements", *EXPERIMENT_STATUSES, "experiments"]
    head = ["chapter", "verdicts from", *columns, "findings of ours", "integrity checks"]
    rows, totals = [], dict.fromkeys([*columns, "finding", "integrity"], 0)
    for key, ledger in ledgers.items():
        counts = headline_counts(ledger, fulls.get(key))
        counts["statements"] = sum(counts[s] for s in STATEMENT_STATUSES)
        counts["experiments"] = sum(counts[s] for s in EXPERIMENT_STATUSES)
        kinds = {k: sum(c.get("kind", "paper") == k for c in ledger["claims"])
                 for k in ("paper", "finding", "integrity")}
        for name in columns:
            totals[name] += counts[name]
        for name in ("finding", "integrity"):
            totals[name] += kinds[name]

        def link(n: int, status: str = "", key=key) -> str:
            query = urlencode({"chapter": key, **({"status": status_class(status)} if status else {})})
            return f'<a href="{scorecard}?{query}">{n}</a>' if n else "0"

        profile = counts["profile"] + (f" ({counts['differ']} differ)" if counts["differ"] else "")
        first = next((k for k in ("paper", "finding", "integrity") if kinds[k]), "paper")   # its first table
        cells = [f'<a href="{page_of(key)}#claims-{first}">{html.escape(ledger["title"])}</a>', html.escape(profile),
                 *(link(counts[s], s if s in STATUSES else "") if s in STATUSES else f"<strong>{counts[s]}</strong>"
                   for s in columns), kinds["finding"], kinds["integrity"]]
        rows.append("<tr>" + "".join(f'<td class="{"n" if i > 1 else ""}">{c}</td>' for i, c in enumerate(cells))
                    + "</tr>")
    total = ['<strong>all</strong>', "", *(totals[s] for s in columns), totals["finding"], totals["integrity"]]
    rows.append("<tr>" + "".join(f'<td class="{"n" if i > 1 else ""}"><strong>{c}</strong></td>' if i > 1 else
                                 f"<td>{c}</td>" for i, c in enumerate(total)) + "</tr>")
    return ('<table class="rnnrepro-book-table">\n<thead><tr>' + "".join(f"<th>{h}</th>" for h in head)
            + "</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>")


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
    """Markdown table: CPU, wall time of each chapter and of its sections in this build."""
    lines = [_row(["chapter", "profile", "CPU (torch kernels)", "wall time (s)", "sections (s)"]),
             _row(["---"] * 5)]
    for ledger in ledgers.values():
        wall = ledger["wall_time_s"]
        sections = ", ".join(f"{name} {show(t, '.1f')}" for name, t in wall["sections"].items())   # never "0.0"
        cpu = ledger.get("environment", {}).get("cpu", {})
        cpu_text = f"{cpu.get('model', '?')} ({cpu.get('capability', '?')})"
        lines.append(_row([ledger["title"], ledger["profile"], cpu_text, f"{wall['total']:.1f}", sections]))
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
