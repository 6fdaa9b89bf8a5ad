"""The registry of chapters: every module in this package defines one ``CHAPTER``.

Modules are discovered automatically, so adding a chapter means adding one file here.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from rnnrepro.errors import ConfigError
from rnnrepro.book.profiles import Chapter


@lru_cache(maxsize=None)
def all_chapters() -> dict[str, Chapter]:
    """Every registered chapter by key, in the order of the book's table of contents."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        chapter = importlib.import_module(f"{__name__}.{info.name}").CHAPTER
        if chapter.key != info.name:
            raise ValueError(f"rnnrepro/book/chapters/{info.name}.py defines key {chapter.key!r}")
        found[chapter.key] = chapter
    return dict(sorted(found.items(), key=lambda kv: _toc_position(kv[1].notebook)))


def get_chapter(key: str) -> Chapter:
    """The chapter called ``key``, or a ConfigError listing the valid chapters."""
    chapters = all_chapters()
    if key not in chapters:
        raise ConfigError(f"unknown chapter {key!r}: choose one of {', '.join(chapters)}")
    return chapters[key]


def _toc_position(notebook: str) -> int:
    from rnnrepro.book.paths import toc_files

    files = toc_files()
    stem = notebook.removesuffix(".md")
    return files.index(stem) if stem in files else len(files)
