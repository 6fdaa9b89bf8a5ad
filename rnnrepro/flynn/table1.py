"""Table 1 checks: sampled matrix measures of D_x f and two-trajectory contraction per norm."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.flynn import matrix_measures as mm
from rnnrepro.flynn.network import FixedFeedbackNet
from rnnrepro.flynn.trajectories import integrate_copies, table1_net


def sampled_measure_sup(W: ArrayLike, bias: np.ndarray, ord: mm.Ord, count: int, rng: np.random.Generator,
                        box: float = 5.0) -> float:
    """max over ``count`` states x ~ U[−box, box]ⁿ of μ_ord(D_x f(x)) for ẋ = −x + σ(Wx + bias)."""
    net = table1_net(W)
    X = rng.uniform(-box, box, (count, net.n))
    A = np.stack([net.jac_x(x, bias[:, None]) for x in X])
    return float(np.max(mm.measure(A, ord)))


def pair_distances(net: FixedFeedbackNet, w: ArrayLike, x0: ArrayLike, *, T: float, ords: Sequence[mm.Ord],
                   n_out: int = 401) -> tuple[np.ndarray, dict]:
    """Two forward trajectories from x0 (2, n) with fixed w: t (T,), {ord: ‖x₁(t) − x₂(t)‖_ord (T,)}."""
    n = net.n
    t, X, _ = integrate_copies(net, lambda _s: w, x0, np.zeros((2, n)), T, n_out)
    return t, {o: mm.vector_norm(X[:, 0] - X[:, 1], o) for o in ords}


def adjoint_pair_distances(net: FixedFeedbackNet, w: ArrayLike, x0: np.ndarray, *, y1: np.ndarray, y2: np.ndarray,
                           T: float, ords: Sequence[mm.Ord], n_out: int = 401) -> tuple[np.ndarray, dict]:
    """Two adjoint copies y₁, y₂ driven by the same forward trajectory from x0: t, {ord: ‖y₁ − y₂‖_ord}."""
    t, _, Y = integrate_copies(net, lambda _s: w, np.stack([x0, x0]), np.stack([y1, y2]), T, n_out)
    return t, {o: mm.vector_norm(Y[:, 0] - Y[:, 1], o) for o in ords}


def soderlind_ratios(net: FixedFeedbackNet, w: ArrayLike, x1: ArrayLike, x2: ArrayLike, *, beta: float,
                     ord: mm.Ord) -> np.ndarray:
    """β‖x₁ − x₂‖/‖f(x₁) − f(x₂)‖ in the norm ``ord`` for pairs of rows of x1, x2 (P, n), with w fixed: (P,).

    Söderlind's inequality 4.4 says this is at most 1 for a system contracting at rate β in that norm.
    """
    x1, x2 = np.atleast_2d(x1).astype(np.float64), np.atleast_2d(x2).astype(np.float64)
    if x1.shape != x2.shape or x1.shape[1] != net.n:
        raise ValueError(f"x1 and x2 must both be (P, n={net.n}), got {x1.shape} and {x2.shape}")
    if beta <= 0:
        raise ValueError(f"beta must be a positive contraction rate, got {beta}")
    df = np.stack([net.f(a, w) - net.f(b, w) for a, b in zip(x1, x2)])
    return beta * mm.vector_norm(x1 - x2, ord) / mm.vector_norm(df, ord)
