"""The scorecard and the compute table, generated from the ledgers of the same build."""

from __future__ import annotations

import json
import os
from pathlib import Path

from rnnrepro.book.chapters import all_chapters
from rnnrepro.data import sha256_file
from rnnrepro.book.errors import RnnreproError
from rnnrepro.book.ledger import STATUSES, claims_markdown
from rnnrepro.book.paths import REPO, output_dir, toc_files


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


def _row(cells) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def counts_table(ledgers: dict[str, dict]) -> str:
    """Markdown table: paper claims per chapter and status, with totals; integrity checks apart."""
    lines = [_row(["chapter", "profile", *STATUSES, "paper claims", "integrity checks"]),
             _row(["---"] * (len(STATUSES) + 4))]
    totals = dict.fromkeys(STATUSES, 0)
    checks = 0
    for ledger in ledgers.values():
        counts = ledger["counts"]
        for s in STATUSES:
            totals[s] += counts.get(s, 0)
        checks += ledger.get("integrity_checks", 0)
        lines.append(_row([ledger["title"], ledger["profile"], *(counts.get(s, 0) for s in STATUSES),
                           sum(counts.get(s, 0) for s in STATUSES), ledger.get("integrity_checks", 0)]))
    lines.append(_row(["**all**", "", *(totals[s] for s in STATUSES), sum(totals.values()), checks]))
    return "\n".join(lines)


def claims_table(ledgers: dict[str, dict]) -> str:
    """Markdown: per chapter, its paper claims (paper's value next to ours), then its integrity checks;
    each claim links to its row in the chapter."""
    parts = []
    for ledger in ledgers.values():
        parts += [f"### {ledger['title']}",
                  claims_markdown(ledger["claims"], page=chapter_page(ledger["chapter"]), statements=False)]
    return "\n\n".join(parts)


def chapter_page(key: str) -> str:
    """The chapter's HTML page relative to the scorecard's (``book/scorecard``): ``chapters/<key>.html``."""
    notebook = all_chapters()[key].notebook.removesuffix(".md") + ".html"
    return os.path.relpath(notebook, "book").replace(os.sep, "/")


def compute_table(ledgers: dict[str, dict]) -> str:
    """Markdown table: CPU, wall time of each chapter and of its sections in this build."""
    lines = [_row(["chapter", "profile", "CPU (torch kernels)", "wall time (s)", "sections (s)"]),
             _row(["---"] * 5)]
    for ledger in ledgers.values():
        wall = ledger["wall_time_s"]
        sections = ", ".join(f"{name} {t:.1f}" for name, t in wall["sections"].items())
        cpu = ledger.get("environment", {}).get("cpu", {})
        cpu_text = f"{cpu.get('model', '?')} ({cpu.get('capability', '?')})"
        lines.append(_row([ledger["title"], ledger["profile"], cpu_text, f"{wall['total']:.1f}", sections]))
    return "\n".join(lines)
