"""The abstract's width that grows only with log n, in training: the loss that projected GD reaches at a fixed width
m on the first n sequences of one pool, for several n, on targets in the transport class and on random labels of
the same per-sequence norm (the hypothesis removed)."""

from __future__ import annotations

import math
from typing import Iterable, Sequence

import numpy as np
import torch

from rnnrepro.cayci import pgd
from rnnrepro.cayci.elman import Activation, symmetric_init


def union_growth(n, *, n0: int, T: int, delta: float = 0.1) -> np.ndarray:
    """Remark 6's union bound's growth from n0 to n sequences of length T: √(log(2nT/δ) / log(2·n0·T/δ)), for
    n (k,) or a scalar; 1 at n = n0."""
    n = np.asarray(n, dtype=float)
    if np.any(n < 1) or n0 < 1 or T < 1 or not 0 < delta < 1:
        raise ValueError(f"need n, n0, T >= 1 and 0 < delta < 1, got n={n}, n0={n0}, T={T}, delta={delta}")
    return np.sqrt(np.log(2 * n * T / delta) / math.log(2 * n0 * T / delta))


def random_labels(Y: torch.Tensor, seed: int) -> torch.Tensor:
    """Gaussian labels with the per-sequence norm of Y (n, T): the same energy, no structure the class can fit."""
    if Y.ndim != 2:
        raise ValueError(f"Y must be (n, T), got shape {tuple(Y.shape)}")
    g = torch.Generator().manual_seed(int(seed))
    R = torch.randn(Y.shape, generator=g, dtype=torch.float64)
    return R / R.norm(dim=1, keepdim=True) * Y.norm(dim=1, keepdim=True)


def _checked_pool(X: torch.Tensor, Y: torch.Tensor, ns: Sequence[int], tau: int, seeds: list) -> None:
    """One clear error for a pool X (N, T, d), Y (N, T), sizes ``ns``, ``tau`` steps and ``seeds`` that do not fit."""
    if X.ndim != 3 or Y.shape != X.shape[:2]:
        raise ValueError(f"X must be (N, T, d) and Y (N, T): got {tuple(X.shape)}, {tuple(Y.shape)}")
    if not ns or min(ns) < 1 or max(ns) > X.shape[0]:
        raise ValueError(f"every n must be between 1 and the pool size {X.shape[0]}, got {list(ns)}")
    if tau < 1 or not seeds:
        raise ValueError("need tau >= 1 and at least one seed")


def _normalised_min_loss(X: torch.Tensor, Y: torch.Tensor, R: torch.Tensor, init, *, act: Activation,
                         tau: int) -> np.ndarray:
    """min_s R̂ / R̂(Θ(0)) of τ projected GD steps (η = 1/(T√τ), ρ_w = ρ_u = 1) on X (n, T, d) with targets Y and
    random labels R (n, T), each from every initialisation ``init`` = (c, w, U) of S seeds: (2, S)."""
    c, w, U = init
    S = c.shape[0]
    targets = torch.cat([Y.expand(S, -1, -1), R.expand(S, -1, -1)])
    r = pgd.train(X, targets, torch.cat([c, c]), torch.cat([w, w]), torch.cat([U, U]), act=act,
                  eta=1 / (X.shape[1] * math.sqrt(tau)), taus=tau, rho_w=1.0, rho_u=1.0)
    return (np.nanmin(r.loss, 1) / r.loss[:, 0]).reshape(2, S)


def sample_size_sweep(X: torch.Tensor, Y: torch.Tensor, ns: Sequence[int], *, act: Activation, m: int, alpha: float,
                      seeds: Iterable[int], tau: int, label_seed: int) -> np.ndarray:
    """min_s R̂ / R̂(Θ(0)) after τ projected GD steps (Theorem 1: η = 1/(T√τ), ρ_w = ρ_u = 1) at width m.

    X (N, T, d) is the pool and Y (N, T) its targets; run n trains on X[:n], Y[:n]. Random labels
    (:func:`random_labels` of the whole pool, ``label_seed``) are trained the same way from the same
    initialisations. Returns (2, len(ns), S): [0] the targets, [1] the random labels.
    """
    seeds = list(seeds)
    _checked_pool(X, Y, ns, tau, seeds)
    R = random_labels(Y, label_seed)
    init = symmetric_init(m, X.shape[2], alpha, seeds)
    return np.stack([_normalised_min_loss(X[:n], Y[:n], R[:n], init, act=act, tau=tau) for n in ns], 1)


def block_sweep(X: torch.Tensor, Y: torch.Tensor, ns: Sequence[int], *, act: Activation, m: int, alpha: float,
                seeds: Iterable[int], tau: int, label_seed: int) -> dict[int, np.ndarray]:
    """:func:`sample_size_sweep` over disjoint draws: for each n of ``ns``, the pool X (N, T, d), Y (N, T) is cut
    into its N // n disjoint blocks of n consecutive sequences, and each block is trained on as one data set.

    Returns {n: (2, N // n, S)} of min_s R̂ / R̂(Θ(0)): [0] the targets, [1] random labels of the whole pool
    (:func:`random_labels`, ``label_seed``), both from the same initialisations. Every n sees the same N
    sequences, so a statistic over blocks and seeds at small n averages over data draws as well as over
    initialisations."""
    seeds = list(seeds)
    _checked_pool(X, Y, ns, tau, seeds)
    R = random_labels(Y, label_seed)
    init = symmetric_init(m, X.shape[2], alpha, seeds)
    out = {}
    for n in ns:
        blocks = [slice(b * n, (b + 1) * n) for b in range(X.shape[0] // n)]
        out[int(n)] = np.stack([_normalised_min_loss(X[sl], Y[sl], R[sl], init, act=act, tau=tau) for sl in blocks], 1)
    return out


def residual_odds(loss: np.ndarray) -> np.ndarray:
    """L / (1 − L) of a normalised loss L = min R̂ / R̂(0) in [0, 1): what training left over what it removed.

    Equal to L to first order where L is small (the regime of eq. (18)), unbounded as L → 1, so it keeps
    growing where the normalised loss saturates at 1 (random labels at large n). L ≥ 1 (nothing fitted) is
    refused: the odds are infinite there."""
    loss = np.asarray(loss, dtype=float)
    if np.any(loss < 0) or np.any(loss >= 1):
        raise ValueError("the normalised loss must lie in [0, 1): a run that removed nothing has infinite odds; "
                         "train longer or check the step size")
    return loss / (1 - loss)
