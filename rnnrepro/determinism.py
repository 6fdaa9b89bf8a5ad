"""One call that makes a run deterministic: seeds, default dtype and thread count."""

from __future__ import annotations

import random

import numpy as np
import torch


def seed_everything(seed: int, *, float64: bool = True, threads: int = 1) -> np.random.Generator:
    """Seed python, numpy and torch; set torch's default dtype and thread count.

    Returns a numpy ``Generator`` seeded with ``seed`` for code that takes one explicitly.
    ``threads=1`` is much faster than more threads for the small recurrences in this book.
    """
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    torch.set_default_dtype(torch.float64 if float64 else torch.float32)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True, warn_only=True)
    return np.random.default_rng(seed)
