"""Where things are: the repository, the book's table of contents and the output folder."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT_ENV = "RNNREPRO_OUT"


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
