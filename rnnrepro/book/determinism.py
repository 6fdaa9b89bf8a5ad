"""One call that makes a run deterministic: seeds, default dtype and thread counts."""

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
    deterministic_kernels()
    pin_blas_threads(threads)
    return np.random.default_rng(seed)


def deterministic_kernels() -> None:
    """Make torch's eager kernels deterministic (a warning, not an error, where one has no deterministic
    variant): what ``torch.use_deterministic_algorithms(True, warn_only=True)`` sets for them.

    That function also imports ``torch._inductor`` to set the flag of ``torch.compile``'s code generator,
    which this book never uses: 1.5 s of imports in every chapter run and every process that seeds (torch
    2.13). Where torch's own setter of the eager flag is missing (another version), the public function
    is called instead."""
    setter = getattr(torch._C, "_set_deterministic_algorithms", None)
    if setter is None:
        torch.use_deterministic_algorithms(True, warn_only=True)
    else:
        setter(True, warn_only=True)


def pin_blas_threads(threads: int = 1) -> int:
    """Set every BLAS loaded by numpy, scipy and torch (OpenBLAS, MKL, BLIS) to ``threads`` threads for
    the rest of the process; return how many libraries were set (threadpoolctl, which finds them in the
    process on Linux, macOS and Windows alike).

    Environment variables act only before numpy is imported, so this calls each loaded library's own
    setter. Extra BLAS threads only slow the small dense solves of this book on a 2-core machine.
    """
    import scipy.linalg  # noqa: F401  (load scipy's BLAS too)
    from threadpoolctl import threadpool_info, threadpool_limits

    threadpool_limits(limits=threads, user_api="blas")     # not as a context: the limit stays
    return sum(1 for pool in threadpool_info() if pool["user_api"] == "blas")
