"""Proposition 6's bound on ‖D_z u‖_Z for the joint system z = (x, y) of Example 1, measured.

u(z) = (f(x, w), Aᵀy − ∇g(x)) with A = D_x f, Z-norm ‖(a, b)‖_Z = ‖a‖₂ + r‖b‖₂ (p₁ = 1, p₂ = r). Its
Jacobian is [[A, 0], [C, Aᵀ]] with C = D_x(Aᵀy) − ∇²g. The printed bound L_x f + (L_x g/β_x) r L_{x²}f
drops the −∇²g block; with it the bound is L_x f + r K, K = (L_x g/β_x) L_{x²}f + L_{x²}g (Prop. 3's k).
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.flynn.activations import L_DSIGMA
from rnnrepro.flynn.bounds import Recipe
from rnnrepro.flynn.network import FixedFeedbackNet

#: steps of the ascent a ← ∇φ(a)/‖∇φ(a)‖ on the unit sphere (monotone for a convex, 1-homogeneous φ)
ASCENT_STEPS = 50


def joint_field(net: FixedFeedbackNet, x: np.ndarray, y: np.ndarray, w: ArrayLike,
                grad_g: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """u(z) = (f(x, w), Aᵀy − ∇g(x)) (2n,); ``grad_g`` replaces the loss gradient (default net.grad_g)."""
    gg = net.grad_g if grad_g is None else grad_g
    return np.concatenate([net.f(x, w), net.jac_x(x, w).T @ y - gg(x)])


def fd_joint_jacobian(net: FixedFeedbackNet, x: np.ndarray, y: np.ndarray, w: ArrayLike, eps: float = 1e-6,
                      grad_g: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """D_z u (2n, 2n) by central differences of :func:`joint_field` with step ``eps``."""
    n = net.n
    z = np.concatenate([x, y])
    cols = []
    for k in range(2 * n):
        e = np.zeros(2 * n)
        e[k] = eps
        zp, zm = z + e, z - e
        cols.append((joint_field(net, zp[:n], zp[n:], w, grad_g) - joint_field(net, zm[:n], zm[n:], w, grad_g))
                    / (2 * eps))
    return np.array(cols).T


def _sum_of_norms_sup(P: np.ndarray, Q: np.ndarray, q: float) -> float:
    """A lower bound on sup_{‖a‖₂=1} ‖P a‖₂ + q‖Q a‖₂: the best of the top right singular vectors of P, Q and
    [P; qQ], each improved by ASCENT_STEPS steps of a ← ∇φ(a)/‖∇φ(a)‖ (every value is attained, so a lower bound)."""
    phi = lambda a: np.linalg.norm(P @ a) + q * np.linalg.norm(Q @ a)  # noqa: E731
    starts = [np.linalg.svd(M)[2][0] for M in (P, Q, np.vstack([P, q * Q]))]
    best = 0.0
    for a in starts:
        for _ in range(ASCENT_STEPS):
            Pa, Qa = P @ a, Q @ a
            g = (P.T @ Pa / max(np.linalg.norm(Pa), 1e-300)) + q * (Q.T @ Qa / max(np.linalg.norm(Qa), 1e-300))
            if not np.linalg.norm(g) > 0:
                break
            a = g / np.linalg.norm(g)
        best = max(best, phi(a))
    return float(best)


def z_norm_bounds(M: ArrayLike, n: int, r: float) -> tuple[float, float]:
    """(lower, upper) bounds on the operator norm of M (2n, 2n) in ‖(a, b)‖_Z = ‖a‖₂ + r‖b‖₂.

    The Z unit ball is the convex hull of (a, 0), ‖a‖ = 1 and (0, b), ‖b‖ = 1/r, so the norm is
    max(sup ‖M₁₁a‖ + r‖M₂₁a‖, sup (‖M₁₂b‖ + r‖M₂₂b‖)/r); each sup lies between the ascent's value (lower)
    and the sum of the two spectral norms (upper).
    """
    M = np.asarray(M, dtype=np.float64)
    if M.shape != (2 * n, 2 * n) or not r > 0:
        raise ValueError(f"M must be (2n, 2n) = ({2 * n}, {2 * n}) and r > 0, got {M.shape} and r = {r}")
    M11, M12, M21, M22 = M[:n, :n], M[:n, n:], M[n:, :n], M[n:, n:]
    lower = max(_sum_of_norms_sup(M11, M21, r), _sum_of_norms_sup(M12, M22, r) / r)
    s = lambda A: np.linalg.norm(A, 2)  # noqa: E731
    upper = max(s(M11) + r * s(M21), (s(M12) + r * s(M22)) / r)
    return lower, float(upper)


def lx_f(v_frob: float) -> float:
    """L_x f for Example 1: ‖D_x f‖₂ = ‖−I + diag(σ')v‖₂ ≤ 1 + L_σ'‖v‖_F (exact, 1, at v = 0)."""
    return 1.0 + L_DSIGMA * v_frob


def prop6_bounds(rec: Recipe, Lxf: float) -> tuple[float, float]:
    """(printed, corrected) bounds on ‖D_z u‖_Z: L_x f + (L_x g/β_x) r L_{x²}f and L_x f + r K."""
    return Lxf + rec.Lxg / rec.beta_x * rec.r * rec.Lx2f, Lxf + rec.r * rec.K
