"""The explicit timescale of Example 1 (Props. 3, 5, 6, Theorem 3 and the recipe after Prop. 7).

2-norm on x, Frobenius on w, g = ½‖x − t‖² with t ∈ [0, 1]ⁿ (so L_x g = √n, L_{x²} g = 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from scipy.optimize import minimize_scalar

from rnnrepro.flynn.activations import L_DDSIGMA, L_DSIGMA

#: steps allowed to the bounded search for the optimal r (it needs about 30-40)
MAX_R_ITER = 200


@dataclass(frozen=True)
class Recipe:
    """Every constant of the recipe for one choice of (α, r = p2/p1), p1 = 1."""

    alpha: float
    r: float
    beta_x: float
    K: float
    beta: float
    Lxg: float
    Lwf: float
    Lxwf: float
    Lw2f: float
    Lx2f: float
    Lzh: float
    Lwh: float
    Lwu: float
    c: float
    tau: float


def tau_theorem3(alpha: float, beta: float, c: float, Lwh: float, Lwu: float) -> float:
    """Theorem 3: τ = (1 − α)βc / (c L_w h + L_w u)."""
    return (1.0 - alpha) * beta * c / (c * Lwh + Lwu)


def example1_recipe(n: int, v_frob: float, alpha: float, r: float | None = None, *, rho_norm: float = 1.0,
                    printed_c: bool = False) -> Recipe:
    """The recipe's constants. r = p2/p1 in (0, β_x/K); None: the r that maximises τ.

    printed_c: use c = αβ/L_w h as printed (a typo) instead of Theorem 3's c = αβ/L_z h; r is then
    still chosen for the corrected recipe unless given (the printed one, optimised, runs r to 0).
    """
    Lx2f = L_DDSIGMA * v_frob ** 2
    beta_x = 1.0 - L_DSIGMA * v_frob
    if not 0 < alpha < 1 or beta_x <= 0:
        raise ValueError(f"need 0 < alpha < 1 and ||v||_F < 1/L_sigma' = 4 (got alpha={alpha}, v_frob={v_frob})")
    Lxg, Lx2g = math.sqrt(n), 1.0
    K = Lxg / beta_x * Lx2f + Lx2g
    Lwf, Lxwf, Lw2f = L_DSIGMA * rho_norm, L_DDSIGMA * rho_norm * v_frob, L_DDSIGMA * rho_norm ** 2

    def build(r_: float, printed: bool) -> Recipe:
        beta = beta_x - r_ * K
        Lzh = max(Lxg / beta_x * Lxwf, Lwf / r_)
        Lwh = Lxg / beta_x * Lw2f
        Lwu = Lwf + r_ * Lxwf * Lxg / beta_x
        c = alpha * beta / (Lwh if printed else Lzh)
        return Recipe(alpha, r_, beta_x, K, beta, Lxg, Lwf, Lxwf, Lw2f, Lx2f, Lzh, Lwh, Lwu, c,
                      tau_theorem3(alpha, beta, c, Lwh, Lwu))

    r_max = beta_x / K
    if r is None:
        res = minimize_scalar(lambda q: -build(q * r_max, False).tau, bounds=(1e-9, 1 - 1e-9), method="bounded",
                              options={"xatol": 1e-12, "maxiter": MAX_R_ITER})
        if not res.success:
            raise RuntimeError(f"example1_recipe: the search for the r that maximises tau (n={n}, v_frob={v_frob}, "
                               f"alpha={alpha}) did not converge in {MAX_R_ITER} steps: {res.message}")
        r = float(res.x) * r_max
    if not 0 < r < r_max:
        raise ValueError(f"r must lie in (0, beta_x/K) = (0, {r_max:.4g}), got {r}")
    return build(r, printed_c)


def implied_alpha(rec: Recipe) -> float:
    """The descent tolerance that a recipe's c actually guarantees: c·L_z h/β (= α for the corrected c)."""
    return rec.c * rec.Lzh / rec.beta


def with_tau(rec: Recipe, tau: float) -> Recipe:
    """The same constants with another τ (for runs at multiples of τ*)."""
    return replace(rec, tau=tau)
