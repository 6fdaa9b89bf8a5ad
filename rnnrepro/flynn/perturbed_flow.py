"""Theorem 2 and Corollary 1 on a designed test function: gradient flows with a relative error.

v(z) = ¼‖z‖² + Σ sin(2 z_i) (non-convex, bounded below, ∇v Lipschitz with constant 4.5), z ∈ ℝ^d, d even.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.integrate import solve_ivp


def value(z: ArrayLike) -> float:
    z = np.asarray(z, dtype=np.float64)
    return float(0.25 * z @ z + np.sum(np.sin(2 * z)))


def grad(z: ArrayLike) -> np.ndarray:
    z = np.asarray(z, dtype=np.float64)
    return 0.5 * z + 2 * np.cos(2 * z)


def rotate(g: ArrayLike, angle: float) -> np.ndarray:
    """Rotate every coordinate pair (g_{2k}, g_{2k+1}) by ``angle``: cos·g + sin·Jg with J block-skew."""
    g = np.asarray(g, dtype=np.float64)
    if g.shape[-1] % 2:
        raise ValueError("the dimension must be even")
    Jg = np.empty_like(g)
    Jg[..., 0::2], Jg[..., 1::2] = -g[..., 1::2], g[..., 0::2]
    return np.cos(angle) * g + np.sin(angle) * Jg


def theorem2_field(alpha: float, angle: float) -> Callable[[float, np.ndarray], np.ndarray]:
    """ż = −∇v + u, u = α·R(angle)∇v, so ‖u‖ = α‖∇v‖ (Theorem 2's error at its largest)."""
    return lambda _t, z: -grad(z) + alpha * rotate(grad(z), angle)


def corollary1_field(alpha: float, sign: float = 1.0) -> Callable[[float, np.ndarray], np.ndarray]:
    """ż = −u with u = R(arcsin α)∇v/√(1 − α²): ‖∇v − u‖ = α‖u‖ exactly (the widest admissible angle).

    sign = −1 with α ≥ 1 gives the admissible ascent u = −∇v (‖∇v − u‖ = 2‖u‖ ≤ α‖u‖ for α ≥ 2).
    """
    if sign < 0:
        return lambda _t, z: grad(z)
    if not 0 <= alpha < 1:
        raise ValueError("alpha must be in [0, 1) for the rotated field")
    phi = np.arcsin(alpha)
    return lambda _t, z: -rotate(grad(z), phi) / np.sqrt(1 - alpha ** 2)


def run(field: Callable[[float, np.ndarray], np.ndarray], z0: ArrayLike, T: float, n_out: int = 2001,
        escape: float = 1e3) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Integrate ż = field(t, z) on [0, T] (stops when ‖z‖ > escape). Returns t, z (T, d), v (T,), ‖∇v‖ (T,)."""
    def escaped(_t: float, z: np.ndarray) -> float:
        return escape - np.linalg.norm(z)
    escaped.terminal = True
    sol = solve_ivp(field, (0.0, T), np.asarray(z0, dtype=np.float64), method="LSODA",
                    t_eval=np.linspace(0.0, T, n_out), rtol=1e-10, atol=1e-12, events=escaped)
    t, Z = sol.t, sol.y.T
    if sol.status == 1:                      # escaped: keep the state where it stopped
        t, Z = np.append(t, sol.t_events[0][0]), np.vstack([Z, sol.y_events[0][0]])
    return t, Z, np.array([value(z) for z in Z]), np.linalg.norm(grad(Z), axis=1)


def descent_gap(v: ArrayLike, grad_norm: ArrayLike) -> float:
    """‖∇v(T)‖/‖∇v(0)‖ plus the largest rise of v between outputs relative to v's range (0 for a descent).

    Small only for a run that descends *and* ends at a critical point (an ascent that stalls at a
    local maximum has a small gradient but a large rise). v, grad_norm: (T,).
    """
    v, g = np.asarray(v, dtype=np.float64), np.asarray(grad_norm, dtype=np.float64)
    span = np.ptp(v)
    rise = max(float(np.max(np.diff(v))), 0.0) / span if span > 0 else 0.0
    return float(g[-1] / g[0] + rise)
