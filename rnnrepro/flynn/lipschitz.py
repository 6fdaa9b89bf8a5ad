"""Sampled Lipschitz constants of Example 1 against the bounds of Table 2 and Props. 5–6.

Every sampled value is a lower estimate of the true constant, so it must not exceed its bound.
Pairs: x ∈ [0, 1]ⁿ, y in the ball ‖y‖₂ ≤ L_x g/β_x, weights w = 3·N(0, 1).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.flynn.activations import dsigma, sigma
from rnnrepro.flynn.bounds import Recipe
from rnnrepro.flynn.network import FixedFeedbackNet
from rnnrepro.flynn.trajectories import ball_samples


def dw_f_norm(net: FixedFeedbackNet, x: np.ndarray, w: ArrayLike) -> float:
    """‖D_w f‖ from (ℝ^{n×m}, Frobenius) to (ℝⁿ, 2): D_w f = diag(σ'(pre)) ⊗ ρᵀ, norm max_i σ'(pre_i)·‖ρ‖."""
    return float(np.max(dsigma(net.pre(x, w))) * np.linalg.norm(net.rho))


def _u(net, x, y, w):
    return net.f(x, w), net.adjoint_field(x, y, w)


def sampled_constants(net: FixedFeedbackNet, rec: Recipe, count: int, rng: np.random.Generator) -> dict:
    """Largest sampled ratio for each constant over ``count`` random pairs: {name: (sampled, bound)}.

    Names: Lx2f, Lw2f, Lxwf (Table 2), Lzh, Lwh, Lwu (Props. 5–6, in the Z-norm p1‖x‖ + p2‖y‖, p1 = 1).
    """
    n, m = net.n, net.m
    R = rec.Lxg / rec.beta_x
    rho_n = np.linalg.norm(net.rho)
    best = dict.fromkeys(("Lx2f", "Lw2f", "Lxwf", "Lzh", "Lwh", "Lwu"), 0.0)
    for _ in range(count):
        x1, x2 = rng.uniform(0, 1, (2, n))
        y1, y2 = ball_samples(n, R, 2, rng)
        w1 = 3 * rng.standard_normal((n, m))
        w2 = w1 + rng.standard_normal((n, m)) * rng.uniform(0.01, 3)
        dx, dw = np.linalg.norm(x1 - x2), np.linalg.norm(w1 - w2)
        p1, p2 = net.pre(x1, w1), net.pre(x2, w1)
        ratios = {
            "Lx2f": np.linalg.norm(net.jac_x(x1, w1) - net.jac_x(x2, w1), 2) / dx,
            "Lw2f": np.max(np.abs(dsigma(p1) - dsigma(net.pre(x1, w2)))) * rho_n / dw,
            "Lxwf": np.max(np.abs(dsigma(p1) - dsigma(p2))) * rho_n / dx,
            "Lzh": np.linalg.norm(net.h(x1, y1, w1) - net.h(x2, y2, w1))
            / (dx + rec.r * np.linalg.norm(y1 - y2)),
            "Lwh": np.linalg.norm(net.h(x1, y1, w1) - net.h(x1, y1, w2)) / dw,
        }
        (f1, a1), (f2, a2) = _u(net, x1, y1, w1), _u(net, x1, y1, w2)
        ratios["Lwu"] = (np.linalg.norm(f1 - f2) + rec.r * np.linalg.norm(a1 - a2)) / dw
        for k, v in ratios.items():
            best[k] = max(best[k], float(v))
    bounds = {"Lx2f": rec.Lx2f, "Lw2f": rec.Lw2f, "Lxwf": rec.Lxwf, "Lzh": rec.Lzh, "Lwh": rec.Lwh, "Lwu": rec.Lwu}
    return {k: (best[k], bounds[k]) for k in best}


def zero_preactivation_weights(net: FixedFeedbackNet, x: np.ndarray) -> np.ndarray:
    """Weights w (n, m) with v x + w ρ = 0, where σ' = 1/4 is largest: ‖D_w f‖ attains L_σ'‖ρ‖."""
    return -np.outer(net.v @ x, net.rho) / float(net.rho @ net.rho)


__all__ = ["dw_f_norm", "sampled_constants", "zero_preactivation_weights", "sigma"]
