"""Statistics of training curves: how long a transition takes and how abrupt it is."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def transition_epochs(epochs: ArrayLike, acc: ArrayLike, low: float = 0.3, high: float = 0.9) -> int:
    """Epochs from the last accuracy ≤ low before the first ≥ high to that first one; −1 if never ≥ high."""
    e, a = np.asarray(epochs), np.asarray(acc)
    hit = np.flatnonzero(a >= high)
    if not len(hit):
        return -1
    below = np.flatnonzero(a[:hit[0]] <= low)
    return int(e[hit[0]] - e[below[-1]]) if len(below) else int(e[hit[0]] - e[0])


def max_gain_within(epochs: ArrayLike, acc: ArrayLike, window: float) -> float:
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


def first_passage_epochs(epochs: ArrayLike, acc: ArrayLike, low: float = 0.4, high: float = 0.9) -> int:
    """Epochs from the first accuracy ≥ low to the first ≥ high (first passages, so a recovery after a collapse
    counts from the first time the curve left ``low``, not from its rebound); −1 if it never reaches ``high``."""
    e, a = np.asarray(epochs), np.asarray(acc)
    if e.shape != a.shape or e.ndim != 1 or e.size == 0:
        raise ValueError("epochs and acc must be non-empty 1-D arrays of one length")
    if not low < high:
        raise ValueError(f"low ({low}) must be below high ({high})")
    hit = np.flatnonzero(a >= high)
    if not len(hit):
        return -1
    return int(e[hit[0]] - e[np.flatnonzero(a >= low)[0]])


def block_steps(acc: ArrayLike, block: int) -> tuple[np.ndarray, np.ndarray]:
    """Largest rise and largest fall between consecutive means over blocks of ``block`` logged values, per seed:
    acc (E, S) (one value per epoch, seeds in columns; the last E mod block values are dropped) -> (rise (S,),
    fall (S,)), each ≥ 0 only when some block goes up (down) from the one before. A curve that climbs slowly and
    steadily has a small largest rise and no large fall; an abrupt one a rise of most of its range in one block."""
    a = np.asarray(acc, float)
    if a.ndim != 2 or not 1 <= block <= a.shape[0] // 2:
        raise ValueError(f"acc must be (epochs, seeds) with at least two blocks of {block} epochs, got {a.shape}")
    n = a.shape[0] // block
    steps = np.diff(a[:n * block].reshape(n, block, a.shape[1]).mean(1), axis=0)   # (n - 1, S)
    return steps.max(0), (-steps).max(0)
