"""Before the build executes any chapter: every chapter's data in place (``builder-inited``).

Missing files are fetched, with a progress bar, and checked (:func:`rnnrepro.data.preflight.ensure_data`);
when the source cannot be reached the build stops at once with one line on stderr that names the
chapters, the files, the folder and what to do, and exit status 2: no traceback, and no chapter
executed first (an exception raised here would reach the reader as Sphinx's and Jupyter Book's
tracebacks, since Jupyter Book re-raises every build error). Only chapters whose notebooks are part
of the project being built count, and nothing is checked when the build executes no notebooks.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)


def built_chapters(app: Sphinx) -> list:
    """The registered chapters whose notebooks are in the project ``app`` builds."""
    from rnnrepro.book.chapters import all_chapters

    return [ch for ch in all_chapters().values() if (Path(app.srcdir) / ch.notebook).is_file()]


def check_data(app: Sphinx) -> None:
    """Fetch the built chapters' missing data, or print one line and stop the build (SystemExit 2)."""
    if getattr(app.config, "nb_execution_mode", "off") == "off":
        return
    from rnnrepro.data.preflight import ensure_data
    from rnnrepro.errors import DataError

    try:
        ensure_data(built_chapters(app), log=logger.info)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", check_data)
