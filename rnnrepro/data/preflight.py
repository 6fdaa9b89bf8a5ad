"""Before any chapter executes: every chapter's data in place, fetched when it can be, else one line.

:func:`ensure_data` checks the files the chapters list (``Chapter.data``) under the data root; what is
missing (or differs from its known sha256) is fetched from its source with a progress bar and checked
(:mod:`rnnrepro.data.fetch`, a short timeout); when that fails, one :class:`~rnnrepro.errors.DataError`
names the chapters, the files, the folder and what to do. The book build calls it before any notebook
executes (:mod:`rnnrepro.site.sphinxext.data_check`), as does the test session when it will run chapters
(``tests/conftest.py``). With the data in place (CI: ``../shared/data``) it only hashes two small files.
"""

from __future__ import annotations

from pathlib import Path

from rnnrepro.data import DATA_ENV, FETCH_COMMAND, KNOWN_SHA256, data_root_path, sha256_file
from rnnrepro.errors import DataError

#: Seconds to wait for the source before calling it unreachable (the build must stop within seconds).
TIMEOUT = 10.0


def needed_files(chapters) -> dict[str, list[str]]:
    """``{file: [chapter keys]}`` for the data files of ``chapters`` (paths under the data root), in
    the order the chapters list them."""
    needed: dict[str, list[str]] = {}
    for chapter in chapters:
        for rel in chapter.data:
            needed.setdefault(rel, []).append(chapter.key)
    return needed


def missing_files(root: Path, relpaths) -> list[str]:
    """The files of ``relpaths`` absent from ``root`` or differing from their known sha256."""
    def usable(rel: str) -> bool:
        path = root / rel
        return path.is_file() and (rel not in KNOWN_SHA256 or sha256_file(path) == KNOWN_SHA256[rel])

    return [rel for rel in relpaths if not usable(rel)]


def ensure_data(chapters, *, fetch: bool = True, progress: bool | None = None, log=None) -> list[str]:
    """Make sure every data file of ``chapters`` is in the data root; return the files fetched.

    Missing files are fetched when ``fetch`` (WikiText-2's splits, checked before they are kept;
    ``log`` gets one line per fetched file); otherwise, or when the source cannot be reached, raise one
    DataError naming the chapters, the files, the data root and the fix.
    """
    needed = needed_files(chapters)
    root = data_root_path()
    missing = missing_files(root, needed)
    if not missing:
        return []
    who = sorted({key for rel in missing for key in needed[rel]})
    if not root.is_dir():
        why = "is not there"
    elif any(not (root / rel).is_file() for rel in missing):
        why = "lacks them"
    else:
        why = "holds other versions of them (their sha256 differs)"
    head = (f"chapter{'s' if len(who) > 1 else ''} {', '.join(who)} need{'' if len(who) > 1 else 's'} "
            f"{', '.join(missing)} in the data folder {root}, which {why}")
    fixes = (f"run `{FETCH_COMMAND}` with a network, put the files there by hand, or set {DATA_ENV} to a "
             f"folder that holds them (README, 'Data')")
    if not fetch:
        raise DataError(f"{head}: {fixes}")
    others = [rel for rel in missing if not rel.startswith("wikitext-2/")]
    if others:
        raise DataError(f"{head}, and nothing here knows where to fetch {', '.join(others)} from: {fixes}")
    from rnnrepro.data.fetch import DownloadError, fetch_wikitext2, source_url

    splits = tuple(Path(rel).stem for rel in missing)
    try:
        done = fetch_wikitext2(root, progress=progress, splits=splits, timeout=TIMEOUT)
    except DataError as exc:           # unreachable source, or a file that differs from the official one
        reason = exc.cause if isinstance(exc, DownloadError) else str(exc)
        raise DataError(f"{head}, and fetching them from {source_url()} failed ({reason}): {fixes}") from None
    for split, what in done.items():
        if log is not None:
            log(f"wikitext-2/{split}.txt: {what} (into {root})")
    return missing
