"""Kernels of linear RNNs and the model identities of Prop. 3.1 and (17).

Continuous model: ρ̂(t) = cᵀe^{Wt}U (W: (m, m), U: (m,), c: (m,)). Euler (residual) model
h_{k+1} = h_k + Δt(W h_k + U x_k), ŷ_k = cᵀh_k, whose kernel is k_j = cᵀ(I + ΔtW)^j U and whose
output is ŷ_K = Δt Σ_j k_j x_{K−1−j}.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.linalg import expm


def random_stable(m: int, rng: np.random.Generator, shift: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(W, U, c): W = −ŴŴᵀ/m − shift·I (Re eig < 0), U, c ~ N(0, I/m). Shapes (m,m), (m,), (m,)."""
    Wh = rng.normal(size=(m, m))
    W = -(Wh @ Wh.T) / m - shift * np.eye(m)
    return W, rng.normal(size=m) / np.sqrt(m), rng.normal(size=m) / np.sqrt(m)


def continuous_kernel(W: np.ndarray, U: np.ndarray, c: np.ndarray, t: ArrayLike) -> np.ndarray:
    """cᵀe^{W t}U at the times t (shape (n,)) → (n,), by an eigendecomposition of W (diagonalisable)."""
    lam, V = np.linalg.eig(W)
    coef = (c @ V) * np.linalg.solve(V, U)
    return np.real(np.exp(np.multiply.outer(np.asarray(t, float), lam)) @ coef)


def continuous_kernel_expm(W: np.ndarray, U: np.ndarray, c: np.ndarray, t: ArrayLike) -> np.ndarray:
    """cᵀe^{W t}U via scipy's expm at each time t (n,) → (n,) (reference for :func:`continuous_kernel`)."""
    return np.array([c @ expm(W * ti) @ U for ti in np.asarray(t, float)])


def euler_kernel(W: np.ndarray, U: np.ndarray, c: np.ndarray, dt: float, K: int) -> np.ndarray:
    """k_j = cᵀ(I + Δt W)^j U for j = 0..K−1 → (K,)."""
    P = np.eye(len(U)) + dt * W
    v, out = np.asarray(U, float).copy(), np.empty(K)
    for j in range(K):
        out[j] = c @ v
        v = P @ v
    return out


def trapezoid_kernel(W: np.ndarray, U: np.ndarray, c: np.ndarray, dt: float, K: int) -> np.ndarray:
    """Second-order (Crank–Nicolson) kernel cᵀ[(I − ΔtW/2)^{-1}(I + ΔtW/2)]^j U → (K,) (a contrast)."""
    m = len(U)
    P = np.linalg.solve(np.eye(m) - dt * W / 2, np.eye(m) + dt * W / 2)
    v, out = np.asarray(U, float).copy(), np.empty(K)
    for j in range(K):
        out[j] = c @ v
        v = P @ v
    return out


def simulate_euler(W: np.ndarray, U: np.ndarray, c: np.ndarray, x: np.ndarray, dt: float, *,
                   Wt: Callable[[int], np.ndarray] | None = None) -> np.ndarray:
    """Run the Euler RNN on the input x (shape (K,)) from h_0 = 0 → outputs ŷ_1..ŷ_K (K,).

    ``Wt(k)`` optionally gives a time-varying recurrent matrix (used as a contrast for homogeneity).
    """
    h = np.zeros(len(U))
    y = np.empty(len(x))
    for k, xk in enumerate(x):
        Wk = W if Wt is None else Wt(k)
        h = h + dt * (Wk @ h + U * xk)
        y[k] = c @ h
    return y


def white_noise_mc(kernel_model: np.ndarray, kernel_target: np.ndarray, dt: float, n_paths: int,
                   rng: np.random.Generator, *, scale: str = "white") -> tuple[float, float]:
    """Monte Carlo of E(ŷ_T − y_T)² for inputs x_k ~ N(0, 1/Δt) (``scale="white"``, x_kΔt = ΔB_k)
    or x_k ~ Δt·N(0, 1) (``scale="dt"``). Kernels shape (K,). Returns (mean, standard error)."""
    e = np.asarray(kernel_model) - np.asarray(kernel_target)
    K = e.size
    sd = 1 / np.sqrt(dt) if scale == "white" else dt
    sq = np.empty(n_paths)
    for s in range(0, n_paths, 5000):
        x = rng.normal(0.0, sd, (min(5000, n_paths - s), K))
        sq[s:s + len(x)] = (dt * x[:, ::-1] @ e) ** 2
    return float(sq.mean()), float(sq.std(ddof=1) / np.sqrt(n_paths))


def white_noise_loss(kernel_model: np.ndarray, kernel_target: np.ndarray, dt: float) -> float:
    """Closed form (17) after Itô's isometry, discrete version: Δt Σ_j (k_j − ρ_j)² (kernels (K,))."""
    e = np.asarray(kernel_model) - np.asarray(kernel_target)
    return float(dt * e @ e)


def sign_input_ratio(diff: np.ndarray, dt: float, eta: float) -> float:
    """|Σ_j Δt·diff_j·x_j| / ‖diff‖₁ for the smoothed sign input x_j = tanh(diff_j/η) (sup-norm ≤ 1).

    ``diff`` = ρ − ρ̂ on the grid (shape (n,)). A ratio → 1 shows sup_x |H_t(x) − Ĥ_t(x)| = ‖ρ − ρ̂‖₁.
    """
    diff = np.asarray(diff, float)
    x = np.tanh(diff / eta)
    return float(abs(dt * diff @ x) / (dt * np.abs(diff).sum()))
