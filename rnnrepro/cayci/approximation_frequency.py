"""Prop. 3 as the frequency statement it is: over random symmetric initialisations, how often the linear
model at the transport point Θ̄ misses F̃ by more than the stated bound 2μ_{0,t}σ₁(ν̄_u + σ₀ν̄_w)√(log(1/δ)/m)."""

from __future__ import annotations

from typing import Iterable

import numpy as np
import torch

from rnnrepro.cayci.elman import Activation, symmetric_init
from rnnrepro.cayci.linearisation import linear_outputs
from rnnrepro.cayci.transport import TransportMap, target, theta_bar


def linear_transport_errors(X: torch.Tensor, act: Activation, tmap: TransportMap, *, alpha: float, m: int,
                            seeds: Iterable[int], M: int = 2 ** 12) -> np.ndarray:
    """|F^Lin_t(X_j; Θ̄) − F̃_t(X_j)| for each initialisation seed: (S, n, T). X (n, T, d).

    Θ̄ is (20) around each symmetric initialisation; F̃ is (8) by QMC with 4M points.
    """
    Y = target(X, act, tmap, alpha=alpha, M=M, seed=0)                     # (n, T)
    c, w0, U0 = symmetric_init(m, X.shape[-1], alpha, seeds)
    wb, Ub = theta_bar(c, w0, U0, tmap)
    F_lin = linear_outputs(X, w0, U0, c, dw=wb - w0, dU=Ub - U0, act=act)   # (S, n, T)
    return (F_lin - Y).abs().numpy()


def certified_delta(err: np.ndarray, K: np.ndarray, m: int) -> np.ndarray:
    """The δ at which a bound K √(log(1/δ)/m) equals ``err``: exp(−m (err/K)²), same shape as err (K broadcasts)."""
    return np.exp(-m * (np.asarray(err) / np.asarray(K)) ** 2)


def exceedance_gap(deltas: np.ndarray) -> float:
    """sup_δ (P̂(δ* ≤ δ) − δ) over the S samples δ* along axis 0, maximised over the other axes.

    "err ≤ bound(δ) with probability ≥ 1 − δ for every δ" says δ* is stochastically at least uniform on (0, 1),
    so this one-sided Kolmogorov–Smirnov gap is ≤ 0 up to sampling error (DKW: ≤ √(log(1/p)/(2S)) w.p. 1 − p).
    """
    d = np.sort(np.asarray(deltas, float), axis=0)
    S = d.shape[0]
    ranks = np.arange(1, S + 1).reshape((S,) + (1,) * (d.ndim - 1)) / S
    return float(np.max(ranks - d))
