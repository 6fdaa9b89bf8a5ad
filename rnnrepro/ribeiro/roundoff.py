"""Float32 round-off tolerances for re-verifying shipped float32 results on another CPU.

Float32 kernels differ in the last bits between instruction sets (AVX-512, AVX2, SSE) and vendors, so
a shipped float32 value re-computed elsewhere agrees only to round-off. We use the classical worst-case
bound for a floating-point reduction of length n, |error| ≤ n·u·Σ|terms| with u = eps/2 (Higham,
*Accuracy and Stability of Numerical Algorithms*, §3.1), written as a relative tolerance n·eps; the
caller states which n (the longest chain of dependent float32 operations behind one value).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
import torch

FLOAT32_EPS = float(np.finfo(np.float32).eps)   # 2**-23 ≈ 1.19e-7


def relative_tolerance(n_ops: int) -> float:
    """n_ops · eps(float32): the relative round-off tolerance of a reduction of length n_ops (n_ops ≥ 1)."""
    if int(n_ops) != n_ops or n_ops < 1:
        raise ValueError(f"n_ops must be a positive integer, got {n_ops!r}")
    return int(n_ops) * FLOAT32_EPS


def relative_gap(a: ArrayLike, b: ArrayLike) -> float:
    """max_i |a_i − b_i| / max(|b_i|, tiny): the largest relative difference of two equal-length sequences."""
    a, b = np.asarray(a, float).ravel(), np.asarray(b, float).ravel()
    if a.shape != b.shape or a.size == 0:
        raise ValueError(f"need two non-empty sequences of one length, got {a.shape} and {b.shape}")
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), np.finfo(float).tiny)))


def flipped_sequences(acc_a: ArrayLike, acc_b: ArrayLike, n: int) -> int:
    """Largest number of sequences whose prediction differs, from accuracies measured on n sequences."""
    a, b = np.asarray(acc_a, float).ravel(), np.asarray(acc_b, float).ravel()
    if a.shape != b.shape or a.size == 0 or n < 1:
        raise ValueError("need two non-empty accuracy sequences of one length and n ≥ 1")
    return int(np.max(np.rint(np.abs(a - b) * n)))


def one_ulp_up(theta: torch.Tensor) -> torch.Tensor:
    """Every float32 entry moved to the next representable float32 towards +inf (a one-ulp perturbation)."""
    if theta.dtype != torch.float32:
        raise TypeError(f"one_ulp_up needs a float32 tensor, got {theta.dtype}")
    return torch.nextafter(theta, torch.full_like(theta, float("inf")))
