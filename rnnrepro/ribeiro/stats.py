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
