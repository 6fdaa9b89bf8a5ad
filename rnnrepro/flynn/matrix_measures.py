"""Matrix measures (logarithmic norms) μ₁, μ₂, μ∞ and contraction checks built on them (numpy, float64).

The matrix measure induced by a vector norm is μ(A) = lim_{h→0+} (‖I + hA‖ − 1)/h. A system
ż = u(z, t) with μ(D_z u) ≤ −β everywhere contracts: ‖z₁(t) − z₂(t)‖ ≤ e^{−βt}‖z₁(0) − z₂(0)‖.
Norms are named by numpy's ``ord``: 1, 2 or ``np.inf``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

#: a norm's ``ord``: 1, 2 or np.inf
Ord = int | float

ORDS = (1, 2, np.inf)


def _check_ord(ord) -> None:
    if ord not in ORDS:
        raise ValueError(f"ord must be one of 1, 2, np.inf, got {ord!r}")


def _square(A) -> np.ndarray:
    A = np.asarray(A, dtype=np.float64)
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"A must have shape (..., n, n), got {A.shape}")
    return A


def dual_ord(ord: Ord) -> Ord:
    """The dual norm's ord: 1 ↔ ∞, 2 ↔ 2."""
    _check_ord(ord)
    return {1: np.inf, 2: 2, np.inf: 1}[ord]


def measure(A: ArrayLike, ord: Ord) -> np.ndarray:
    """Closed-form matrix measure of A (..., n, n) -> (...).

    μ₁ = max_j (A_jj + Σ_{i≠j}|A_ij|) (columns), μ∞ = max_i (A_ii + Σ_{j≠i}|A_ij|) (rows),
    μ₂ = λ_max((A + Aᵀ)/2).
    """
    _check_ord(ord)
    A = _square(A)
    if ord == 2:
        return np.linalg.eigvalsh(0.5 * (A + np.swapaxes(A, -1, -2)))[..., -1]
    diag = np.diagonal(A, axis1=-2, axis2=-1)
    off = np.abs(A).sum(axis=-1 if ord == np.inf else -2) - np.abs(diag)
    return (diag + off).max(axis=-1)


def measure_by_definition(A: ArrayLike, ord: Ord, h: float = 1e-7) -> np.ndarray:
    """(‖I + hA‖ − 1)/h for A (..., n, n) -> (...): the definition at a finite step h > 0.

    Exact for μ₁ and μ∞ once h is small enough that the diagonal of I + hA stays positive; for μ₂
    the error is O(h‖A‖²) (plus round-off of order 1e-16/h).
    """
    _check_ord(ord)
    if not h > 0:
        raise ValueError(f"h must be positive, got {h!r}")
    A = _square(A)
    eye = np.eye(A.shape[-1])
    return (np.linalg.norm(eye + h * A, ord=ord, axis=(-2, -1)) - 1.0) / h


def vector_norm(x: ArrayLike, ord: Ord, axis: int = -1) -> np.ndarray:
    """‖x‖_ord along ``axis`` (1, 2 or np.inf)."""
    _check_ord(ord)
    return np.linalg.norm(np.asarray(x, dtype=np.float64), ord=ord, axis=axis)


def certified_rate(W: ArrayLike, ord: Ord, L_dsigma: float) -> float:
    """Table 1 certificate of ẋ = −x + σ(Wx + ρ): β = 1 − L_σ'‖W‖_ord (contracting when > 0).

    W (n, n); L_dsigma = sup|σ'|. The induced matrix norm of W is used.
    """
    _check_ord(ord)
    W = _square(W)
    if W.ndim != 2:
        raise ValueError(f"W must be one (n, n) matrix, got {W.shape}")
    return float(1.0 - L_dsigma * np.linalg.norm(W, ord=ord))


def envelope_ratio(distances: ArrayLike, t: ArrayLike, beta: float) -> float:
    """max over t > t[0] of d(t) / (e^{−β(t − t[0])} d(t[0])): ≤ 1 when the distances obey the envelope 3.2.

    distances: (T,) or (T, P) (P pairs), t: (T,) increasing, T ≥ 2, with t[0] the start; d(t[0]) > 0.
    The start itself is left out: there the ratio is 1 by construction.
    """
    d = np.asarray(distances, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    if d.ndim == 1:
        d = d[:, None]
    if d.ndim != 2 or d.shape[0] != t.shape[0] or t.ndim != 1 or t.shape[0] < 2:
        raise ValueError(f"distances must be (T,) or (T, P) with T = len(t) >= 2, got {d.shape} and {t.shape}")
    if np.any(d[0] <= 0):
        raise ValueError("initial distances must be positive")
    return float(np.max(d[1:] / (d[0] * np.exp(-beta * (t[1:] - t[0]))[:, None])))


def growth(distances: ArrayLike) -> float:
    """max over the times after the start of d(t)/d(0), for distances (T,) or (T, P), T ≥ 2: > 1 means some
    pair moved apart (the start, where the ratio is 1 by construction, is left out)."""
    d = np.asarray(distances, dtype=np.float64)
    if d.ndim == 1:
        d = d[:, None]
    if d.shape[0] < 2:
        raise ValueError("need at least two times")
    if np.any(d[0] <= 0):
        raise ValueError("initial distances must be positive")
    return float(np.max(d[1:] / d[0]))


def window_envelope_ratio(distances: ArrayLike, t: ArrayLike, beta: float, *,
                          floor: float = 1e-5) -> tuple[float, float]:
    """The envelope 3.2 restarted at every sample: max over s < t of d(t) e^{β(t − s)} / d(s), and the time t
    where it is largest. Returns (ratio, t_at).

    A system contracting at rate β obeys 3.2 from every starting time, so this is ≤ 1 over the whole run;
    a stretch that contracts more slowly than β anywhere (the rival hypothesis) pushes it above 1 there,
    wherever it lies in the run. distances (T,) or (T, P), t (T,) increasing, T ≥ 2; d(t[0]) > 0. Samples
    where a pair's distance has fallen below ``floor`` times its start are left out for that pair (there the
    integrator's absolute error, about 1e-11 at rtol 1e-11, would be a relative error above 1e-6 of d).
    O(T·P): the largest log d(t) + βt minus the running minimum before t.
    """
    d = np.asarray(distances, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    if d.ndim == 1:
        d = d[:, None]
    if d.ndim != 2 or t.ndim != 1 or d.shape[0] != t.shape[0] or t.shape[0] < 2:
        raise ValueError(f"distances must be (T,) or (T, P) with T = len(t) >= 2, got {d.shape} and {t.shape}")
    if np.any(d[0] <= 0):
        raise ValueError("initial distances must be positive")
    valid = d >= floor * d[0]
    with np.errstate(divide="ignore"):
        L = np.where(valid, np.log(np.where(valid, d, 1.0)) + beta * t[:, None], np.inf)
    run_min = np.minimum.accumulate(L, axis=0)                              # min over s ≤ t
    gap = np.where(valid[1:], L[1:] - run_min[:-1], -np.inf)               # log ratio, s < t
    i, _ = np.unravel_index(np.argmax(gap), gap.shape)
    return float(np.exp(gap.max())), float(t[1:][i])
