"""``python -m rnnrepro fetch-data``: get WikiText-2 (all three splits) for readers outside the build.

The files come from their public source (the tokenised WikiText-2 of ``pytorch/examples``,
:data:`DEFAULT_BASE_URL`) into ``<dest>/wikitext-2/``; each is checked before it is kept (sha256 for
the validation and test splits, the official token count for the training split, whose sha256 is not
recorded here) and a file already present and correct is not fetched again. The splits every chapter
reads (:data:`REQUIRED_SPLITS`, what ``Chapter.data`` lists) come first, so that an offline attempt
names them. ``$RNNREPRO_DATA_URL`` overrides the source. The book build fetches what is missing before
any chapter executes (:mod:`rnnrepro.data.preflight`); its tests serve the files from a local server.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

from rnnrepro.data import FETCH_COMMAND, KNOWN_SHA256, sha256_file, user_data_dir
from rnnrepro.errors import DataError

DEFAULT_BASE_URL = "https://raw.githubusercontent.com/pytorch/examples/main/word_language_model/data/wikitext-2"
URL_ENV = "RNNREPRO_DATA_URL"        # overrides DEFAULT_BASE_URL (tests: a local server, or a closed port)
#: The splits the chapters read in both profiles (the union of ``Chapter.data``); ``full`` also uses
#: ``train`` when it is present.
REQUIRED_SPLITS = ("valid", "test")
SPLITS = (*REQUIRED_SPLITS, "train")


def source_url() -> str:
    """Where the files come from: ``$RNNREPRO_DATA_URL``, else :data:`DEFAULT_BASE_URL`."""
    return os.environ.get(URL_ENV) or DEFAULT_BASE_URL


def verify(path: Path, split: str) -> None:
    """Raise DataError unless ``path`` is the official ``split`` of WikiText-2."""
    from rnnrepro.data.wikitext import TRAIN_TOKENS, count_tokens

    if split == "train":
        n = count_tokens(path)
        if n != TRAIN_TOKENS:
            raise DataError(f"{path} has {n:,} tokens, not the official training split's {TRAIN_TOKENS:,}")
        return
    expected, actual = KNOWN_SHA256[f"wikitext-2/{split}.txt"], sha256_file(path)
    if actual != expected:
        raise DataError(f"{path} has sha256 {actual[:12]}…, not the official {split} split's {expected[:12]}…")


class DownloadError(DataError):
    """A file could not be downloaded (offline, refused, timed out); ``cause`` says which and why."""

    def __init__(self, message: str, cause: str):
        super().__init__(message)
        self.cause = cause


def download(url: str, path: Path, progress: bool, timeout: float = 60.0) -> None:
    """Stream ``url`` to ``path`` (through ``path.part``), with a progress bar when ``progress``;
    DownloadError when the source cannot be reached."""
    from tqdm import tqdm

    part = path.with_name(path.name + ".part")
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(part, "wb") as fh:
            total = int(response.headers.get("Content-Length") or 0) or None
            with tqdm(total=total, unit="B", unit_scale=True, desc=path.name, disable=not progress,
                      file=sys.stderr) as bar:
                for block in iter(lambda: response.read(1 << 16), b""):
                    fh.write(block)
                    bar.update(len(block))
    except (urllib.error.URLError, OSError) as exc:
        part.unlink(missing_ok=True)
        cause = f"could not download {url} ({getattr(exc, 'reason', exc)})"
        raise DownloadError(cause, cause) from None
    part.replace(path)


def fetch_wikitext2(dest: Path | None = None, base_url: str | None = None, progress: bool | None = None, *,
                    splits: tuple[str, ...] = SPLITS, timeout: float = 60.0) -> dict[str, str]:
    """Fetch and check ``splits`` (default all three, the required ones first) into
    ``<dest>/wikitext-2/``; return ``{split: what happened}``.

    ``dest`` defaults to ``$RNNREPRO_DATA`` or else :func:`rnnrepro.data.user_data_dir`; ``base_url``
    to :func:`source_url`. A file that fails its check is deleted and raises DataError, as does a failed
    download (naming the files the chapters need and where to put them by hand); the folders this call
    created are then removed again when they are empty (no empty data folder is left behind).
    """
    dest = Path(dest or os.environ.get("RNNREPRO_DATA") or user_data_dir())
    folder = dest / "wikitext-2"
    created = [d for d in (folder, *folder.parents) if not d.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return _fetch_into(folder, base_url or source_url(), splits,
                           sys.stderr.isatty() if progress is None else progress, timeout)
    except DownloadError as exc:
        _remove_empty(created)
        needed = " and ".join(f"{split}.txt" for split in REQUIRED_SPLITS)
        raise DownloadError(f"{exc.cause}: are you offline? Run `{FETCH_COMMAND}` again with a network, or put "
                            f"{needed} (what every chapter reads; the full profile also uses train.txt) into "
                            f"{folder} by hand", exc.cause) from None
    except BaseException:
        _remove_empty(created)
        raise


def _remove_empty(created: list[Path]) -> None:
    """Remove the folders of ``created`` (deepest first) while they are empty."""
    for d in created:
        try:
            d.rmdir()
        except OSError:                # not empty (a split already fetched): keep it
            break


def _fetch_into(folder: Path, base_url: str, splits: tuple[str, ...], progress: bool,
                timeout: float) -> dict[str, str]:
    """Fetch the splits missing from ``folder`` (or failing their check); ``{split: what happened}``."""
    done = {}
    for split in splits:
        path = folder / f"{split}.txt"
        if path.is_file():
            try:
                verify(path, split)
                done[split] = "already present and checked"
                continue
            except DataError:
                path.unlink()
        download(f"{base_url.rstrip('/')}/{split}.txt", path, progress, timeout)
        try:
            verify(path, split)
        except DataError as exc:
            path.unlink()
            raise DataError(f"the downloaded file differs from the official one and was deleted: {exc}") from None
        done[split] = "downloaded and checked"
    return done
