"""Proposition 4(ii): the "energy" U = ‖u‖_Z of a contracting system with moving parameters.

D⁺U ≤ −βU + L_w u‖ẇ‖_W, so U(t) ≤ I(t) where İ = −βI + L_w u‖ẇ(t)‖, I(0) = U(0).
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.integrate import solve_ivp

from rnnrepro.flynn.activations import dsigma, sigma
from rnnrepro.flynn.network import FixedFeedbackNet


def u_norms(net: FixedFeedbackNet, X: ArrayLike, Y: ArrayLike, W: ArrayLike, p1: float, p2: float) -> np.ndarray:
    """U = p1‖f‖₂ + p2‖Aᵀy − ∇g‖₂ for states X, Y (..., n) and weights W (..., n, m) broadcast to them."""
    pre = np.einsum("ij,...j->...i", net.v, X) + np.einsum("...ik,k->...i", W, net.rho)
    f = -X + sigma(pre)
    adj = -Y + np.einsum("...j,ji->...i", dsigma(pre) * Y, net.v) - (X - net.target)
    return p1 * np.linalg.norm(f, axis=-1) + p2 * np.linalg.norm(adj, axis=-1)


def comparison_solution(t: np.ndarray, U0: ArrayLike, beta: float, Lwu: float,
                        wdot_norm: Callable[[float], float]) -> np.ndarray:
    """I(t) at the times t (T,) for each start U0 (P,): the solution of İ = −βI + L_w u‖ẇ(t)‖. Returns (T, P)."""
    U0 = np.atleast_1d(np.asarray(U0, dtype=np.float64))
    sol = solve_ivp(lambda s, I: -beta * I + Lwu * wdot_norm(s), (t[0], t[-1]), U0, t_eval=t,
                    method="RK45", rtol=1e-11, atol=1e-14)
    return sol.y.T
