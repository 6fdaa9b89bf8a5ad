"""Strict local minima of sampled 1-D and 2-D functions (cost along a line or over a grid), and how densely
they fill a region.

Only interior points count; ties are not minima; a NaN neighbour (or value) never makes a minimum.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def _as_array(name: str, values, ndim: int) -> np.ndarray:
    if hasattr(values, "detach"):
        values = values.detach().cpu().numpy()
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    return arr


def strict_local_minima_mask_1d(v: ArrayLike) -> np.ndarray:
    """Boolean mask (n,): ``v[i] < v[i-1]`` and ``v[i] < v[i+1]``; the end points are False."""
    v = _as_array("v", v, 1)
    mask = np.zeros(v.shape, dtype=bool)
    if v.size >= 3:
        mask[1:-1] = (v[1:-1] < v[:-2]) & (v[1:-1] < v[2:])
    return mask


def strict_local_minima_mask_2d(V: ArrayLike) -> np.ndarray:
    """Boolean mask (n, m): interior points strictly below all 8 neighbours; the border is False."""
    V = _as_array("V", V, 2)
    mask = np.zeros(V.shape, dtype=bool)
    if min(V.shape) < 3:
        return mask
    n, m = V.shape
    centre = V[1:-1, 1:-1]
    inner = np.ones(centre.shape, dtype=bool)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            if di or dj:
                inner &= centre < V[1 + di:n - 1 + di, 1 + dj:m - 1 + dj]
    mask[1:-1, 1:-1] = inner
    return mask


def count_strict_local_minima_1d(v: ArrayLike, return_indices: bool = False) -> int | tuple[int, np.ndarray]:
    """Number of strict interior local minima of v (n,); with ``return_indices`` also their indices (k,)."""
    idx = np.flatnonzero(strict_local_minima_mask_1d(v))
    return (int(idx.size), idx) if return_indices else int(idx.size)


def count_strict_local_minima_2d(V: ArrayLike, return_indices: bool = False) -> int | tuple[int, np.ndarray]:
    """Number of strict interior local minima of V (n, m) (8-neighbourhood); with ``return_indices``
    also their (row, column) indices (k, 2)."""
    idx = np.argwhere(strict_local_minima_mask_2d(V))
    return (int(len(idx)), idx) if return_indices else int(len(idx))


def strict_minima_beyond(v: ArrayLike, tol: float) -> np.ndarray:
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


def density_ratio(mask: np.ndarray, inside: np.ndarray, outside: np.ndarray) -> float:
    """(marked points per grid point inside) / (marked points per grid point outside).

    mask, inside, outside: boolean arrays of one shape; the outside count is floored at 1."""
    mask, inside, outside = (np.asarray(a, bool) for a in (mask, inside, outside))
    return float((mask[inside].sum() / inside.sum()) / (max(mask[outside].sum(), 1) / outside.sum()))


def line_grid(lo: float, hi: float, n: int, nodes: ArrayLike = ()) -> np.ndarray:
    """``n`` evenly spaced points of [lo, hi] joined with the exact ``nodes`` (e.g. 0 and 1), sorted, with no
    near-duplicate: the spaced points are rounded to 12 decimals first, so that a point 1e-17 from a node
    (``linspace``'s round-off) becomes that node instead of a second grid point beside it."""
    return np.union1d(np.round(np.linspace(lo, hi, n), 12), np.asarray(nodes, float))
