"""Sphinx extension: Jupyter Book's execution cache (``execute_notebooks: cache``) kept true to the code.

jupyter-cache re-executes a notebook when its code cells change, and otherwise takes its outputs from
``_build/.jupyter_cache``. Three things it does not see, which this guard handles before anything
executes (``builder-inited``, after myst-nb has set up the cache):

- **The package and what the chapters read.** A chapter's outputs depend on ``rnnrepro/`` (not the
  site's Sphinx code), the pinned environment, ``CITATION.cff`` and ``book/references.bib`` (its cite
  block), the shipped results under ``book/artifacts/`` and the public address the build is given.
  Their fingerprint is kept beside the cache; when it changes, the whole cache is dropped and every
  chapter executes again.
- **Side effects.** A chapter writes its ledger JSON and figure data beside its executed notebook
  (:func:`rnnrepro.book.paths.output_dir`); a cached chapter whose ledger is missing, or was written
  by other code (its ``code_sha256`` differs from the notebook's), executes again.
- **Pages that read other pages.** Executed pages that are not chapters (the scorecard and the
  environment page read the chapters' ledgers of this build) are never taken from the cache.

A clean clone has no ``_build``, hence no cache: CI and the README's command execute everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx

LOGGER = logging.getLogger(__name__)
FINGERPRINT = "rnnrepro-fingerprint.txt"
#: Environment variables a chapter's output depends on (the cite block's address).
ENV_INPUTS = ("RNNREPRO_BASE_URL",)


def input_files(repo: Path) -> list[Path]:
    """The files, besides a chapter's own code cells, that a chapter's outputs depend on."""
    files = [p for p in (repo / "rnnrepro").rglob("*.py") if "site" not in p.relative_to(repo / "rnnrepro").parts[:1]]
    files += [repo / name for name in ("requirements.txt", "pyproject.toml", "CITATION.cff", "book/references.bib")]
    artifacts = repo / "book" / "artifacts"
    files += [p for p in artifacts.rglob("*") if p.is_file()] if artifacts.is_dir() else []
    return sorted(p for p in files if p.is_file())


def fingerprint(repo: Path) -> str:
    """sha256 over :func:`input_files` (path and content) and :data:`ENV_INPUTS`."""
    digest = hashlib.sha256()
    for path in input_files(repo):
        digest.update(str(path.relative_to(repo)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    for name in ENV_INPUTS:
        digest.update(f"{name}={os.environ.get(name, '')}\0".encode())
    return digest.hexdigest()


def built_ledger(chapter) -> Path:
    """Where the book build's execution of ``chapter`` writes its ledger."""
    from rnnrepro.book.paths import ledger_paths

    return ledger_paths(chapter)[1]


def stale_records(cache, repo: Path, chapters=None, ledger_of=built_ledger) -> list[tuple[int, str]]:
    """``(pk, why)`` of each cache record to drop: pages that are not chapters (of ``chapters``, by
    default the registry's); chapters whose ledger (``ledger_of``) is missing or was not written by the
    notebook's present code."""
    from rnnrepro.book.chapters import all_chapters
    from rnnrepro.book.paths import code_sha256

    chapters = {(repo / ch.notebook).resolve(): ch for ch in (chapters or all_chapters().values())}
    drop = []
    for record in cache.list_cache_records():
        chapter = chapters.get(Path(record.uri).resolve())
        if chapter is None:
            drop.append((record.pk, f"{record.uri}: reads other pages' outputs"))
            continue
        ledger = ledger_of(chapter)
        if not ledger.is_file():
            drop.append((record.pk, f"{chapter.key}: no ledger at {ledger}"))
        elif json.loads(ledger.read_text()).get("code_sha256") != code_sha256(repo / chapter.notebook):
            drop.append((record.pk, f"{chapter.key}: its ledger was written by other code"))
    return drop


def guard_cache(cache_path: Path, repo: Path, **kwargs) -> list[str]:
    """Drop what the cache at ``cache_path`` holds that is no longer true (see the module); return why.
    The fingerprint of what the chapters read is stamped when the cache is started (or dropped), before
    anything executes: a build that fails later keeps its cache. ``kwargs`` go to :func:`stale_records`."""
    from jupyter_cache import get_cache

    cache_path = Path(cache_path)
    stamp, now = cache_path / FINGERPRINT, fingerprint(repo)
    if stamp.is_file() and stamp.read_text().strip() == now:
        cache = get_cache(str(cache_path))
        reasons = []
        for pk, why in stale_records(cache, repo, **kwargs):
            try:
                cache.remove_cache(pk)
            except KeyError:                      # its notebook file is gone already: the record alone
                from jupyter_cache.cache.db import NbCacheRecord

                NbCacheRecord.remove_records([pk], cache.db)
            reasons.append(why)
        return reasons
    reasons = []
    if cache_path.is_dir():
        dropped = len(get_cache(str(cache_path)).list_cache_records())
        shutil.rmtree(cache_path)
        reasons.append(f"the package, environment, citation or shipped results changed: all {dropped} cached "
                       f"pages dropped")
    cache_path.mkdir(parents=True)
    stamp.write_text(now + "\n")
    return reasons


def _on_builder_inited(app: Sphinx) -> None:
    config = getattr(app.env, "mystnb_config", None)
    if config is None or config.execution_mode != "cache":
        return
    from rnnrepro.book.paths import REPO

    for why in guard_cache(Path(config.execution_cache_path), REPO):
        LOGGER.info(f"[rnnrepro] execution cache: {why}")


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _on_builder_inited, priority=900)   # after myst-nb sets the cache path
    return {"parallel_read_safe": True, "parallel_write_safe": True}
