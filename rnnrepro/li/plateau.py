"""Plateau detection on a training curve (the paper gives no detector; this one is ours).

A *plateau* is a run of steps [i, j] over which the loss stays inside a band (max/min ≤ ``band``)
and after which the loss later drops below L_i/``drop``; a slow convergence tail without such a
drop is not a plateau. Only runs at a level ≥ ``min_level`` count.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from numpy.typing import ArrayLike


def plateaus(L: ArrayLike, *, band: float = 1.1, drop: float = 2.0, min_level: float = 0.0,
             min_len: int = 1) -> list[tuple[int, int]]:
    """Maximal band-runs of the loss curve L (shape (n,)) that end in a later drop.

    Returns a list of (start, end) index pairs (end inclusive), non-overlapping, longest first.
    """
    L = np.asarray(L, float)
    n = L.size
    later_min = np.minimum.accumulate(L[::-1])[::-1]
    # for each start i the largest j with max/min of L[i..j] ≤ band (two pointers with monotone deques)
    ends = np.empty(n, int)
    mx, mn = deque(), deque()
    j = 0
    for i in range(n):
        if j < i:
            j = i
        while j < n:
            hi = max(L[mx[0]] if mx else -np.inf, L[j])
            lo = min(L[mn[0]] if mn else np.inf, L[j])
            if hi > band * lo:
                break
            while mx and L[mx[-1]] <= L[j]:
                mx.pop()
            mx.append(j)
            while mn and L[mn[-1]] >= L[j]:
                mn.pop()
            mn.append(j)
            j += 1
        ends[i] = j - 1
        if mx and mx[0] == i:
            mx.popleft()
        if mn and mn[0] == i:
            mn.popleft()
    cand = []
    for i in range(n):
        e = ends[i]
        if e - i + 1 < min_len or L[i] < min_level or e + 1 >= n:
            continue
        if later_min[e + 1] < L[i] / drop:
            cand.append((e - i + 1, i, e))
    cand.sort(key=lambda c: (-c[0], c[1]))
    taken, out = np.zeros(n, bool), []
    for _, i, e in cand:
        if not taken[i:e + 1].any():
            out.append((int(i), int(e)))
            taken[i:e + 1] = True
    return out


def longest_plateau(L: ArrayLike, *, band: float = 1.1, drop: float = 2.0, min_level: float = 0.0) -> tuple[int,
                    int, int]:
    """(length, start, end) of the longest plateau of L (n,), or (0, -1, -1) if none."""
    p = plateaus(L, band=band, drop=drop, min_level=min_level)
    if not p:
        return 0, -1, -1
    i, e = p[0]
    return e - i + 1, i, e


def steps_to_fraction(L: ArrayLike, frac: float) -> int:
    """First index k with L[k] ≤ frac·L[0] for L (n,) (int; -1 if never)."""
    L = np.asarray(L, float)
    hit = np.nonzero(L <= frac * L[0])[0]
    return int(hit[0]) if hit.size else -1
