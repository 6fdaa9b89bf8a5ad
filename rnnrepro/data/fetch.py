"""``python -m rnnrepro fetch-data``: get WikiText-2 (all three splits) for readers outside the build.

The files come from their public source (the tokenised WikiText-2 of ``pytorch/examples``,
:data:`DEFAULT_BASE_URL`) into ``<dest>/wikitext-2/``; each is checked before it is kept (sha256 for
the validation and test splits, the official token count for the training split, whose sha256 is not
recorded here) and a file already present and correct is not fetched again. Nothing in the book or
its tests calls this: they never download (the tests serve the files from a local server).
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
SPLITS = ("train", "valid", "test")


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


def download(url: str, path: Path, progress: bool, timeout: float = 60.0) -> None:
    """Stream ``url`` to ``path`` (through ``path.part``), with a progress bar when ``progress``."""
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
        raise DataError(f"could not download {url} ({getattr(exc, 'reason', exc)}): are you offline? "
                        f"Put the file at {path} by hand, or run `{FETCH_COMMAND}` again with a network") from None
    part.replace(path)


def fetch_wikitext2(dest: Path | None = None, base_url: str = DEFAULT_BASE_URL,
                    progress: bool | None = None) -> dict[str, str]:
    """Fetch and check the three splits into ``<dest>/wikitext-2/``; return ``{split: what happened}``.

    ``dest`` defaults to ``$RNNREPRO_DATA`` or else :func:`rnnrepro.data.user_data_dir`. A file that
    fails its check is deleted and raises DataError, as does a failed download; the folders this call
    created are then removed again when they are empty (no empty data folder is left behind).
    """
    dest = Path(dest or os.environ.get("RNNREPRO_DATA") or user_data_dir())
    folder = dest / "wikitext-2"
    created = [d for d in (folder, *folder.parents) if not d.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return _fetch_into(folder, base_url, sys.stderr.isatty() if progress is None else progress)
    except BaseException:
        for d in created:                  # deepest first
            try:
                d.rmdir()
            except OSError:                # not empty (a split already fetched): keep it
                break
        raise


def _fetch_into(folder: Path, base_url: str, progress: bool) -> dict[str, str]:
    """Fetch the splits missing from ``folder`` (or failing their check); ``{split: what happened}``."""
    done = {}
    for split in SPLITS:
        path = folder / f"{split}.txt"
        if path.is_file():
            try:
                verify(path, split)
                done[split] = "already present and checked"
                continue
            except DataError:
                path.unlink()
        download(f"{base_url.rstrip('/')}/{split}.txt", path, progress)
        try:
            verify(path, split)
        except DataError as exc:
            path.unlink()
            raise DataError(f"the downloaded file differs from the official one and was deleted: {exc}") from None
        done[split] = "downloaded and checked"
    return done
