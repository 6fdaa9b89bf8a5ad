"""The first call of every chapter notebook: :func:`start`."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Mapping

import numpy as np

from rnnrepro.book.chapters import get_chapter
from rnnrepro.book.determinism import seed_everything
from rnnrepro.book.ledger import Ledger
from rnnrepro.book.plotting import use_book_style
from rnnrepro.book.profiles import Chapter
from rnnrepro.book.sensitivity import apply_from_env
from rnnrepro.data import check_files


@dataclass
class Run:
    """What a chapter works with: its parameters ``p``, its ``ledger`` and a seeded ``rng``."""

    chapter: Chapter
    p: SimpleNamespace
    ledger: Ledger
    rng: np.random.Generator


def start(key: str, profile: str = "fast", overrides: Mapping[str, Any] | None = None, *,
          float64: bool = True) -> Run:
    """Validate the chapter's parameters, seed everything, apply the book style, open a ledger.

    The seed is the chapter's ``seed`` parameter when it has one, else 0. Raises
    :class:`~rnnrepro.errors.ConfigError` for an unknown chapter, profile or parameter, and
    :class:`~rnnrepro.errors.DataError` when a data file of ``chapter.data`` is missing.
    """
    chapter = get_chapter(key)
    p = chapter.resolve(profile, overrides)
    check_files(chapter.data, who=f"chapter {chapter.key}")   # fail in a second, not after minutes
    apply_from_env()   # a sensitivity run: one numerical helper perturbed (rnnrepro.book.sensitivity)
    seed = getattr(p, "seed", 0)
    rng = seed_everything(seed, float64=float64)
    use_book_style()
    ledger = Ledger(chapter, p, seeds={"seed": seed})
    return Run(chapter=chapter, p=p, ledger=ledger, rng=rng)
