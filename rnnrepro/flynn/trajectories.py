"""Forward and adjoint trajectories with the weights held fixed or prescribed in time (τ = 1).

Used for the contraction checks of Table 1 and Props. 1–4: several copies z_p = (x_p, y_p) of the
joint (x, y) system driven by the same w(t).
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.integrate import solve_ivp

from rnnrepro.flynn.activations import dsigma, sigma
from rnnrepro.flynn.matrix_measures import Ord
from rnnrepro.flynn.network import FixedFeedbackNet


def zero_diagonal_weights(n: int, ord: Ord, norm: float, seed: int) -> np.ndarray:
    """Gaussian (n, n) matrix with zero diagonal rescaled to induced ‖W‖_ord = norm."""
    W = np.random.default_rng(seed).standard_normal((n, n))
    np.fill_diagonal(W, 0.0)
    return W * (norm / np.linalg.norm(W, ord=ord))


def star_weights(n: int, weight: float) -> np.ndarray:
    """W with W[1:, 0] = weight and zeros elsewhere: ‖W‖_∞ = |weight|, ‖W‖₁ = (n − 1)|weight|."""
    W = np.zeros((n, n))
    W[1:, 0] = weight
    return W


def uniform_weights(n: int, norm: float) -> np.ndarray:
    """W = (J − I)·norm/(n − 1) (J all ones): zero diagonal with ‖W‖₁ = ‖W‖₂ = ‖W‖_∞ = norm (n ≥ 2).

    All rows and columns sum to norm, and 1 is the eigenvector of the largest eigenvalue, norm.
    """
    if n < 2:
        raise ValueError(f"need n >= 2, got {n}")
    return (np.ones((n, n)) - np.eye(n)) * (norm / (n - 1))


def table1_net(W: ArrayLike) -> FixedFeedbackNet:
    """ẋ = −x + σ(Wx + b) as a FixedFeedbackNet with m = 1 and ρ = (1,): pass the bias as w = b[:, None]."""
    W = np.asarray(W, dtype=np.float64)
    return FixedFeedbackNet(W, np.ones(1), np.zeros(W.shape[0]))


def integrate_copies(net: FixedFeedbackNet, w_of_t: Callable[[float], np.ndarray], x0: ArrayLike, y0: ArrayLike,
                     T: float, n_out: int = 401, *, rtol: float = 1e-11,
                     atol: float = 1e-13) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integrate P copies of ẋ = f(x, w(t)), ẏ = Aᵀy − ∇g(x) from x0, y0 (P, n) on [0, T].

    Returns t (T,), X (T, P, n), Y (T, P, n). RK45 with tight tolerances (non-stiff at τ = 1).
    """
    x0, y0 = np.atleast_2d(x0).astype(np.float64), np.atleast_2d(y0).astype(np.float64)
    if x0.shape != y0.shape or x0.shape[1] != net.n:
        raise ValueError(f"x0 and y0 must be (P, n={net.n}), got {x0.shape} and {y0.shape}")
    P, n = x0.shape

    def rhs(t: float, s: np.ndarray) -> np.ndarray:
        s = s.reshape(P, 2, n)
        x, y = s[:, 0], s[:, 1]
        pre = x @ net.v.T + net._w(w_of_t(t)) @ net.rho                 # (P, n)
        gain = dsigma(pre)
        dx = -x + sigma(pre)
        dy = -y + (gain * y) @ net.v - (x - net.target)                 # Aᵀy − ∇g, batched
        return np.stack([dx, dy], axis=1).ravel()

    t_eval = np.linspace(0.0, T, n_out)
    s0 = np.stack([x0, y0], axis=1).ravel()
    sol = solve_ivp(rhs, (0.0, T), s0, method="RK45", t_eval=t_eval, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(sol.message)
    S = sol.y.T.reshape(-1, P, 2, n)
    return sol.t, S[:, :, 0], S[:, :, 1]


def ball_samples(n: int, radius: float, count: int, rng: np.random.Generator, lo: float = 0.0) -> np.ndarray:
    """count vectors (count, n) of random direction with 2-norm radius·U(lo, 1)."""
    d = rng.standard_normal((count, n))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    return d * (radius * rng.uniform(lo, 1.0, count))[:, None]


def leaky_exact(x0: ArrayLike, y0: ArrayLike, drive: np.ndarray, target: np.ndarray,
                t: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Exact solution of ẋ = −x + s, ẏ = −y − (x − target) (the network with v = 0 and fixed w: s = σ(wρ)).

    x0, y0 (P, n); drive s (n,); target (n,); t (T,) from 0. Returns X, Y (T, P, n):
    x = s + (x0 − s)e^{−t}, y = e^{−t}y0 − (s − target)(1 − e^{−t}) − (x0 − s) t e^{−t}.
    """
    x0, y0 = np.atleast_2d(x0).astype(np.float64), np.atleast_2d(y0).astype(np.float64)
    e = np.exp(-np.asarray(t, dtype=np.float64))[:, None, None]
    tt = np.asarray(t, dtype=np.float64)[:, None, None]
    X = drive + (x0 - drive) * e
    Y = e * y0 - (drive - target) * (1 - e) - (x0 - drive) * tt * e
    return X, Y
