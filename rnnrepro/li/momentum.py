"""Appendix E: escaping a plateau of f(θ) = ½(λθ₁² − εθ₂²) with GD and heavy ball.

Only the unstable coordinate θ₂ matters: GD gives θ₂ ← (1 + ηε)θ₂; heavy ball
v ← βv + ηεθ₂, θ₂ ← θ₂ + v. Escape = first step with |θ₂| ≥ ``gap``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.core.fits import power_law_exponent
from rnnrepro.li.budget import passes


def gd_escape_steps(eps: float, lr: float, theta0: float, *, gap: float = 1.0) -> int:
    """GD escape steps, exact: ⌈ln(gap/θ₀)/ln(1 + ηε)⌉ (int)."""
    return int(math.ceil(math.log(gap / theta0) / math.log1p(lr * eps)))


def gd_escape_steps_iterated(eps: float, lr: float, theta0: float, *, gap: float = 1.0, max_steps: int = 10**7) -> int:
    """GD escape steps by iterating the recursion (checks the closed form; int; RunawayError if it has
    not escaped after ``max_steps``)."""
    th = theta0
    for k in passes(max_steps, f"GD escape (ε = {eps:g}, η = {lr:g})"):
        th += lr * eps * th
        if abs(th) >= gap:
            return k


def hb_escape_steps(eps: float, lr: float, beta: float, theta0: float, *, gap: float = 1.0,
                    max_steps: int = 10**7) -> int:
    """Heavy-ball escape steps (int) from θ₂ = θ₀, v = 0; RunawayError if it has not escaped after
    ``max_steps``."""
    th, v = theta0, 0.0
    for k in passes(max_steps, f"heavy-ball escape (ε = {eps:g}, η = {lr:g}, β = {beta:g})"):
        v = beta * v + lr * eps * th
        th += v
        if abs(th) >= gap:
            return k


def tuned_beta(eps: float, lr: float) -> float:
    """The momentum β = 1 − 2√(ηε) (critical damping of the slow mode; our reading of App. E)."""
    return 1.0 - 2.0 * math.sqrt(lr * eps)


def exponent(eps: ArrayLike, steps: ArrayLike) -> float:
    """Slope of log(steps) against log(ε) (both (n,)) → float."""
    return power_law_exponent(eps, steps).slope


def appendix_e(eps: ArrayLike, lr: float, theta0: float) -> dict:
    """Escape steps of GD (closed form), heavy ball with β = 0.9 and with the tuned β, per ε (n,):
    arrays (n,) ``gd``, ``hb``, ``hb_tuned``, their exponents ``exp_*`` and the closed-form check."""
    eps = np.asarray(eps, float)
    gd = np.array([gd_escape_steps(e, lr, theta0) for e in eps])
    hb = np.array([hb_escape_steps(e, lr, 0.9, theta0) for e in eps])
    hbt = np.array([hb_escape_steps(e, lr, tuned_beta(e, lr), theta0) for e in eps])
    check = gd_escape_steps_iterated(eps[0], lr, theta0) == gd[0]
    return dict(eps=eps, gd=gd, hb=hb, hb_tuned=hbt, gd_closed_form_ok=bool(check),
                exp_gd=exponent(eps, gd), exp_hb=exponent(eps, hb), exp_hbt=exponent(eps, hbt))
