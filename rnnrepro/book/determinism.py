"""One call that makes a run deterministic: seeds, default dtype and thread counts."""

from __future__ import annotations

import ctypes
import random
import re

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
    pin_blas_threads(threads)
    return np.random.default_rng(seed)


_BLAS_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
                 "openblas_set_num_threads64_", "openblas_set_num_threads")


def pin_blas_threads(threads: int = 1) -> int:
    """Set every OpenBLAS loaded by numpy and scipy to ``threads`` threads; return how many were set.

    Environment variables act only before numpy is imported, so this calls each loaded library's
    ``*set_num_threads*`` entry point through ctypes (Linux; elsewhere it does nothing and returns 0).
    Extra BLAS threads only slow the small dense solves of this book on a 2-core machine.
    """
    import scipy.linalg  # noqa: F401  (load scipy's BLAS too)

    try:
        maps = open("/proc/self/maps").read()
    except OSError:
        return 0
    count = 0
    for path in sorted(set(re.findall(r"(/\S*openblas\S*\.so\S*)", maps))):
        lib = ctypes.CDLL(path)
        setter = next((name for name in _BLAS_SETTERS if hasattr(lib, name)), None)
        if setter is not None:
            getattr(lib, setter)(ctypes.c_int(threads))
            count += 1
    return count
