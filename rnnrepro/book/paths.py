"""Where things are: the repository, the book's table of contents, the output folders and the last
ledgers of a chapter (imported by the command line, the ledger and the citations: nothing heavy here)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT_ENV = "RNNREPRO_OUT"
#: Where ``python -m rnnrepro run`` writes by default.
DEFAULT_OUT = REPO / "_build" / "runs"


def output_dir(notebook: str) -> Path:
    """Folder for a chapter's ledger and figure data, next to its executed notebook.

    ``$RNNREPRO_OUT`` when set (the CLI sets it to ``--out``); otherwise the folder where the book
    build puts the executed notebook ``notebook`` (``_build/jupyter_execute/book/chapters`` for
    ``book/chapters/<key>.md``).
    """
    default = REPO / "_build" / "jupyter_execute" / Path(notebook).parent
    out = Path(os.environ.get(OUT_ENV) or default)
    out.mkdir(parents=True, exist_ok=True)
    return out


def toc_files() -> list[str]:
    """Paths (relative to the repository, no suffix) of the pages in ``_toc.yml``, in order."""
    import yaml

    toc = yaml.safe_load((REPO / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                files.append(entry["file"])
            walk(entry.get("chapters") or entry.get("sections"))

    walk(toc.get("parts") or [{"chapters": toc.get("chapters")}])
    return list(dict.fromkeys(files))


def ledger_paths(chapter) -> list[Path]:
    """Where a chapter's last ledgers are: the CLI's default output and the book build's."""
    return [DEFAULT_OUT / f"{chapter.key}.ledger.json",
            REPO / "_build" / "jupyter_execute" / Path(chapter.notebook).parent / f"{chapter.key}.ledger.json"]


def last_ledger(chapter, out: str | None = None) -> Path:
    """The chapter's ledger in ``out``, or else the newer of the CLI's and the book build's."""
    if out is not None:
        return Path(out) / f"{chapter.key}.ledger.json"
    return max(ledger_paths(chapter), key=lambda path: path.stat().st_mtime if path.is_file() else -1.0)


def code_sha256(notebook: Path) -> str:
    """sha256 of a MyST notebook's code: every non-blank, non-comment line of its code cells, in order.

    Prose, captions, cell tags, the way code is split into cells and a claim's ``quantity=`` label on a
    line of its own (presentation: :meth:`rnnrepro.book.ledger.Ledger.claim`) do not change it, so a
    shipped result stays current when only the page's text changes (:func:`rnnrepro.book.full.shipped_full`).
    Nor do the cells tagged ``draft`` (a draft row, :meth:`rnnrepro.book.ledger.Ledger.draft`, before its re-ship).
    """
    import hashlib

    import jupytext

    lines = [line.rstrip() for cell in jupytext.read(notebook).cells if cell.cell_type == "code"
             and "draft" not in cell.metadata.get("tags", [])
             for line in cell.source.splitlines()
             if line.strip() and not line.lstrip().startswith(("#", "quantity="))]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


PAPERS_ENV = "RNNREPRO_PAPERS"


def papers_root() -> Path:
    """The folder of the papers' text files that claims quote: ``$RNNREPRO_PAPERS``, else ``../shared/papers``
    beside the checkout (not shipped with the book: only the tests read it)."""
    return Path(os.environ.get(PAPERS_ENV) or REPO.parent / "shared" / "papers")
