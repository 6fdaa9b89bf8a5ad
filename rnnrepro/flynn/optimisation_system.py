"""The optimisation system 2.7 (τẋ = f, τẏ = Aᵀy − ∇g, ẇ = h) and the exact gradient flow ẇ = h*(w).

Works for any :class:`~rnnrepro.flynn.network.AdjointNetwork` (Examples 1, 2 and 3). State layout of the
ODE: [x (n), y (n), vec(w) (prod(net.w_shape))]. Stiff for small τ: LSODA by default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.integrate import solve_ivp

from rnnrepro.flynn.network import AdjointNetwork


def _split(net: AdjointNetwork, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = net.n
    return s[:n], s[n:2 * n], s[2 * n:].reshape(net.w_shape)


def joint_rhs(net: AdjointNetwork, tau: float, train: bool = True) -> Callable[[float, np.ndarray], np.ndarray]:
    """The vector field of 2.7 for solve_ivp; train=False freezes w (the warm-up)."""
    if not tau > 0:
        raise ValueError(f"tau must be positive, got {tau!r}")

    def rhs(_t: float, s: np.ndarray) -> np.ndarray:
        x, y, w = _split(net, s)
        dw = net.h(x, y, w).ravel() if train else np.zeros(w.size)
        return np.concatenate([net.f(x, w) / tau, net.adjoint_field(x, y, w) / tau, dw])
    return rhs


@dataclass
class Trajectory:
    """Output of :func:`run_optimisation`: times (T,), x (T, n), y (T, n), w (T, *net.w_shape)."""

    t: np.ndarray
    x: np.ndarray
    y: np.ndarray
    w: np.ndarray


def warm_up(net: AdjointNetwork, w: ArrayLike, x0: ArrayLike, y0: ArrayLike, duration: float,
            tau: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Run (x, y) with w fixed for ``duration`` (time units of τ = tau): returns (x, y)."""
    s0 = np.concatenate([x0, y0, np.asarray(w, dtype=np.float64).ravel()])
    sol = solve_ivp(joint_rhs(net, tau, train=False), (0.0, duration), s0, method="LSODA",
                    rtol=1e-11, atol=1e-13)
    x, y, _ = _split(net, sol.y[:, -1])
    return x, y


def run_optimisation(net: AdjointNetwork, w0: ArrayLike, x0: ArrayLike, y0: ArrayLike, *, tau: float, T: float,
                     n_out: int = 401, rtol: float = 1e-9, atol: float = 1e-12, method: str = "LSODA") -> Trajectory:
    """Integrate 2.7 on [0, T] and return the trajectory at n_out equally spaced times."""
    s0 = np.concatenate([x0, y0, np.asarray(w0, dtype=np.float64).ravel()])
    t_eval = np.linspace(0.0, T, n_out)
    sol = solve_ivp(joint_rhs(net, tau), (0.0, T), s0, method=method, t_eval=t_eval, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"integration failed at tau={tau}: {sol.message}")
    n = net.n
    return Trajectory(sol.t, sol.y[:n].T, sol.y[n:2 * n].T, sol.y[2 * n:].T.reshape(-1, *net.w_shape))


def gradient_flow(net: AdjointNetwork, w0: ArrayLike, T: float, t_eval: ArrayLike | None = None, *, rtol: float = 1e-11,
                  atol: float = 1e-13, method: str = "DOP853") -> np.ndarray:
    """The exact gradient flow ẇ = h*(w) (τ = 0); returns w at t_eval (default: T only), (len, *w_shape)."""
    t_eval = np.array([T]) if t_eval is None else np.asarray(t_eval, dtype=np.float64)
    sol = solve_ivp(lambda _t, s: net.h_star(s).ravel(), (0.0, T), np.asarray(w0, dtype=np.float64).ravel(),
                    method=method, t_eval=t_eval, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"gradient flow failed: {sol.message}")
    return sol.y.T.reshape(-1, *net.w_shape)


@dataclass
class Diagnostics:
    """Along a trajectory (each (T,)): ratio ‖h − h*‖/‖h‖, U = ‖u‖_Z, H = ‖h‖_F, L*(w(t)), ‖h*‖_F."""

    ratio: np.ndarray
    U: np.ndarray
    H: np.ndarray
    loss_star: np.ndarray
    h_star_norm: np.ndarray


def diagnose(net: AdjointNetwork, traj: Trajectory, p1: float, p2: float) -> Diagnostics:
    """Compute the descent diagnostics of a trajectory (h* by Newton at every output time)."""
    out = {k: np.empty(len(traj.t)) for k in ("ratio", "U", "H", "loss_star", "h_star_norm")}
    for i, (x, y, w) in enumerate(zip(traj.x, traj.y, traj.w)):
        xs, ys = net.equilibrium(w)
        h, hs = net.h(x, y, w), net.h(xs, ys, w)
        out["H"][i] = np.linalg.norm(h)
        out["ratio"][i] = np.linalg.norm(h - hs) / out["H"][i]
        out["U"][i] = net.u_norm(x, y, w, p1, p2)
        out["loss_star"][i] = net.loss(xs)
        out["h_star_norm"][i] = np.linalg.norm(hs)
    return Diagnostics(**out)


def monotone_violation(values: ArrayLike) -> float:
    """Largest increase between consecutive values, relative to the first value (0 if non-increasing)."""
    v = np.asarray(values, dtype=np.float64)
    return float(max(np.max(np.diff(v)), 0.0) / abs(v[0]))
