"""A system on which the proof of Theorem 3 is an equality, so its τ* is exactly where the invariant is lost.

Theorem 3 bounds, for τż = u(z, w), ẇ = h(z, w), the two derivatives D⁺U ≤ −(β/τ)U + (L_w u)H (Prop. 4) and
D⁺H ≥ −(L_z h/τ)U − (L_w h)H, with U = |u|, H = |h|. The scalar linear system

    τż = u = −βz + (L_w u)w,    ẇ = h = −(L_z h)z − (L_w h)w

has |D_z u| = β, |D_w u| = L_w u, |D_z h| = L_z h, |D_w h| = L_w h exactly, and while u, h > 0 both bounds
hold with equality. On the boundary u = ch the proof's last line then reads D⁺(cH − U) = U·(c(β − cL_z h)/τ
− cL_w h − L_w u)/c, which changes sign exactly at Theorem 3's τ*. With ``sign=+1`` (D_z h = +L_z h, the same
norms) the bound on D⁺H is no longer attained and the invariant survives up to (1 + α)/(1 − α)·τ*.
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp


def coefficient_matrix(*, beta: float, l_wu: float, l_zh: float, l_wh: float, sign: float = -1.0) -> np.ndarray:
    """M with (u, h) = M (z, w): rows (−β, L_w u) and (sign·L_z h, −L_w h), (2, 2)."""
    if sign not in (-1.0, 1.0):
        raise ValueError(f"sign must be -1 (extremal) or +1 (the control), got {sign}")
    return np.array([[-beta, l_wu], [sign * l_zh, -l_wh]], dtype=np.float64)


def trajectory(tau: float, *, beta: float, l_wu: float, l_zh: float, l_wh: float, c: float, ratio0: float = 0.5,
               sign: float = -1.0, t_end: float | None = None, n_out: int = 2001) -> tuple[np.ndarray, np.ndarray]:
    """(t, (z, w)) of the linear system at τ from u(0) = ratio0·c, h(0) = 1: t (n_out,), states (2, n_out).

    Integrated with DOP853 (rtol 1e-12) on [0, t_end]; t_end defaults to 50 τ/β (fifty fast time constants).
    """
    if tau <= 0 or c <= 0 or not 0 <= ratio0 < 1:
        raise ValueError(f"need tau > 0, c > 0 and 0 <= ratio0 < 1 (got {tau}, {c}, {ratio0})")
    m = coefficient_matrix(beta=beta, l_wu=l_wu, l_zh=l_zh, l_wh=l_wh, sign=sign)
    rates = np.diag([1.0 / tau, 1.0]) @ m                    # (ż, ẇ) = rates (z, w)
    s0 = np.linalg.solve(m, [ratio0 * c, 1.0])
    t_end = 50.0 * tau / beta if t_end is None else t_end
    t = np.linspace(0.0, t_end, n_out)
    sol = solve_ivp(lambda _, s: rates @ s, (0.0, t_end), s0, method="DOP853", t_eval=t, rtol=1e-12, atol=1e-14)
    return t, sol.y


def invariant_ratio_path(tau: float, *, beta: float, l_wu: float, l_zh: float, l_wh: float, c: float,
                         ratio0: float = 0.5, sign: float = -1.0, t_end: float | None = None,
                         n_out: int = 2001) -> tuple[np.ndarray, np.ndarray]:
    """(t, U/(cH)) along :func:`trajectory`, both (n_out,)."""
    t, s = trajectory(tau, beta=beta, l_wu=l_wu, l_zh=l_zh, l_wh=l_wh, c=c, ratio0=ratio0, sign=sign, t_end=t_end,
                      n_out=n_out)
    uh = coefficient_matrix(beta=beta, l_wu=l_wu, l_zh=l_zh, l_wh=l_wh, sign=sign) @ s
    return t, np.abs(uh[0]) / (c * np.abs(uh[1]))


def descent_ratio_path(tau: float, *, beta: float, l_wu: float, l_zh: float, l_wh: float, c: float,
                       ratio0: float = 0.5, sign: float = -1.0, t_end: float | None = None,
                       n_out: int = 2001) -> tuple[np.ndarray, np.ndarray]:
    """(t, |h − h*|/|h|) along :func:`trajectory`: the relative error of the descent condition 4.1.

    h* = h(z*(w), w) is the weight field at the equilibrium z*(w) of the fast system, u(z*, w) = 0, which is
    z* = (L_w u/β)·w. Both (n_out,).
    """
    t, (z, w) = trajectory(tau, beta=beta, l_wu=l_wu, l_zh=l_zh, l_wh=l_wh, c=c, ratio0=ratio0, sign=sign,
                           t_end=t_end, n_out=n_out)
    m = coefficient_matrix(beta=beta, l_wu=l_wu, l_zh=l_zh, l_wh=l_wh, sign=sign)
    h = m[1, 0] * z + m[1, 1] * w
    h_star = m[1, 0] * (l_wu / beta) * w + m[1, 1] * w
    return t, np.abs(h - h_star) / np.abs(h)


def max_invariant_ratio(tau: float, *, beta: float, l_wu: float, l_zh: float, l_wh: float, c: float,
                        ratio0: float = 0.5, sign: float = -1.0) -> float:
    """max_t U/(cH) of :func:`invariant_ratio_path` (the invariant U ≤ cH holds while this is ≤ 1)."""
    return float(invariant_ratio_path(tau, beta=beta, l_wu=l_wu, l_zh=l_zh, l_wh=l_wh, c=c, ratio0=ratio0,
                                      sign=sign)[1].max())
