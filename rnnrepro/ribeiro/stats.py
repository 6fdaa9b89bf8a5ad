"""Small statistics used by the Ribeiro chapter's claims."""

from __future__ import annotations

import numpy as np


def density_ratio(mask, inside, outside) -> float:
    """(marked points per grid point inside) / (marked points per grid point outside).

    mask, inside, outside: boolean arrays of one shape; the outside count is floored at 1."""
    mask, inside, outside = (np.asarray(a, bool) for a in (mask, inside, outside))
    return float((mask[inside].sum() / inside.sum()) / (max(mask[outside].sum(), 1) / outside.sum()))


def transition_epochs(epochs, acc, low: float = 0.3, high: float = 0.9) -> int:
    """Epochs from the last accuracy ≤ low before the first ≥ high to that first one; −1 if never ≥ high."""
    e, a = np.asarray(epochs), np.asarray(acc)
    hit = np.flatnonzero(a >= high)
    if not len(hit):
        return -1
    below = np.flatnonzero(a[:hit[0]] <= low)
    return int(e[hit[0]] - e[below[-1]]) if len(below) else int(e[hit[0]] - e[0])


def max_gain_within(epochs, acc, window: float) -> float:
    """Largest rise acc[j] − acc[i] over logged epochs with 0 ≤ epochs[j] − epochs[i] ≤ window.

    A step-like ("abrupt") curve rises by most of its range within a short window; a slow and steady
    one by about range × window / duration."""
    e, a = np.asarray(epochs, float), np.asarray(acc, float)
    if e.shape != a.shape or e.ndim != 1 or e.size == 0:
        raise ValueError("epochs and acc must be non-empty 1-D arrays of one length")
    if not window > 0:
        raise ValueError(f"window must be positive, got {window!r}")
    gain = 0.0
    for i in range(len(e)):
        j = (e >= e[i]) & (e - e[i] <= window)
        gain = max(gain, float(a[j].max() - a[i]))
    return gain


def strict_minima_beyond(v, tol: float) -> np.ndarray:
    """Mask of interior points below both neighbours by more than tol (tol ≥ 0): local minima that
    round-off of size tol cannot create or remove."""
    v = np.asarray(v, float)
    if v.ndim != 1:
        raise ValueError(f"v must be 1-D, got shape {v.shape}")
    if not tol >= 0:
        raise ValueError(f"tol must be non-negative, got {tol!r}")
    mask = np.zeros(v.shape, bool)
    if v.size >= 3:
        mask[1:-1] = (v[1:-1] < v[:-2] - tol) & (v[1:-1] < v[2:] - tol)
    return mask
