"""Data files, read from the data root and verified against their sha256.

The data root is ``$RNNREPRO_DATA``; by default the ``shared/data`` folder beside the checkout when
it exists (the build machines), else the user data folder (:func:`user_data_dir`), where
``python -m rnnrepro fetch-data`` puts the files. Nothing is downloaded at run or test time: a missing
root or file, or a file whose hash differs, raises :class:`~rnnrepro.errors.DataError` with a message
that names the fix.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from rnnrepro.errors import DataError

_CHECKOUT = Path(__file__).resolve().parents[2]   # the repository (a checkout) or site-packages' parent

DATA_ENV = "RNNREPRO_DATA"
#: The command that puts the data in place; every data error names it.
FETCH_COMMAND = ".venv/bin/python -m rnnrepro fetch-data"

#: sha256 of every data file the book reads, by path relative to the data root.
KNOWN_SHA256 = {
    "wikitext-2/valid.txt": "f0737ed31fc1329026e95cb8b98e19c2a182c39c240ab909dc31abf2f8af58e8",
    "wikitext-2/test.txt": "d790b833ef8cf03a90db7bf1271b7520b83c45ce07ba3c1a9699df81e239eca0",
}


def user_data_dir() -> Path:
    """``$XDG_DATA_HOME/rnnrepro`` (default ``~/.local/share/rnnrepro``): where fetched data goes."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "rnnrepro"


def data_root_path() -> Path:
    """Where the data root is (``$RNNREPRO_DATA``, else ``../shared/data`` when it exists, else
    :func:`user_data_dir`), whether it exists or not."""
    shared = _CHECKOUT.parent / "shared" / "data"
    return Path(os.environ.get(DATA_ENV) or (shared if shared.is_dir() else user_data_dir()))


def data_root() -> Path:
    """The data root folder; raises DataError if it does not exist."""
    root = data_root_path()
    if not root.is_dir():
        raise DataError(f"data folder {root} does not exist: run `{FETCH_COMMAND}` (downloads WikiText-2 "
                        f"there), or set {DATA_ENV} to the folder that holds wikitext-2/ (README, 'Data')")
    return root


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            digest.update(block)
    return digest.hexdigest()


def data_file(relpath: str, sha256: str | None = None) -> Path:
    """Path of ``relpath`` under the data root after checking its sha256.

    ``sha256`` defaults to the entry in :data:`KNOWN_SHA256`; a file with no known hash is refused.
    """
    expected = sha256 or KNOWN_SHA256.get(relpath)
    if expected is None:
        raise DataError(f"no sha256 is known for {relpath!r}: add it to rnnrepro.data.KNOWN_SHA256")
    path = data_root() / relpath
    if not path.is_file():
        raise DataError(f"data file {relpath} is missing from {path.parent}: run `{FETCH_COMMAND}` (downloads "
                        f"it there), or point {DATA_ENV} at a folder that holds {relpath}")
    actual = sha256_file(path)
    if actual != expected:
        raise DataError(f"data file {path} is corrupted or a different version (sha256 {actual[:12]}…, "
                        f"expected {expected[:12]}…): delete it and run `{FETCH_COMMAND}`")
    return path


def check_files(relpaths, *, who: str = "this chapter") -> None:
    """Raise one DataError naming the folder looked in and :data:`FETCH_COMMAND` unless every file of
    ``relpaths`` (paths under the data root) is there with its known sha256 (checked when one is known).

    Called by ``python -m rnnrepro run`` and :func:`rnnrepro.book.session.start` with a chapter's
    ``Chapter.data``, before anything is executed (a few milliseconds for WikiText-2's two small splits).
    """
    relpaths = list(relpaths)
    if not relpaths:
        return
    try:
        root = data_root()
    except DataError as exc:
        raise DataError(f"{who} needs {', '.join(relpaths)}; {exc}") from None
    missing = [rel for rel in relpaths if not (root / rel).is_file()]
    if missing:
        raise DataError(f"{who} needs {', '.join(missing)}, not found in {root}: run `{FETCH_COMMAND}` "
                        f"(downloads WikiText-2 there), or set {DATA_ENV} to a folder that holds them")
    for rel in relpaths:
        if rel in KNOWN_SHA256:
            data_file(rel)
