"""How conservative is τ*: the empirical largest τ that keeps the descent condition, and τ*'s scaling in β_x."""

from __future__ import annotations

import math

import numpy as np

from rnnrepro.flynn.bounds import example1_recipe
from rnnrepro.flynn.network import FixedFeedbackNet
from rnnrepro.flynn.optimisation_system import diagnose, run_optimisation, warm_up


def max_ratio(net: FixedFeedbackNet, w0, tau: float, T: float, r: float, warm: float = 30.0) -> float:
    """max_t ‖h − h*‖/‖h‖ of a run at τ after a warm-up of ``warm`` time units (x₀ = 0.5, y₀ = 0)."""
    x, y = warm_up(net, w0, np.full(net.n, 0.5), np.zeros(net.n), warm)
    return float(diagnose(net, run_optimisation(net, w0, x, y, tau, T, n_out=201), 1.0, r).ratio.max())


def descent_threshold(net: FixedFeedbackNet, w0, alpha: float, T: float, r: float, lo: float, hi: float,
                      iters: int = 8) -> float:
    """Bisection on log τ for the largest τ in [lo, hi] with max ratio ≤ α (lo must pass, hi must fail).

    Returns the largest passing τ found (a lower estimate, within a factor (hi/lo)^(2^-iters)).
    """
    if not (0 < lo < hi):
        raise ValueError("need 0 < lo < hi")
    if max_ratio(net, w0, lo, T, r) > alpha:
        raise ValueError(f"the lower end τ = {lo:g} already breaks the descent condition")
    if max_ratio(net, w0, hi, T, r) <= alpha:
        return hi
    for _ in range(iters):
        mid = math.sqrt(lo * hi)
        if max_ratio(net, w0, mid, T, r) <= alpha:
            lo = mid
        else:
            hi = mid
    return lo


def tau_star_local_slope(n: int, alpha: float, beta_lo: float, beta_hi: float) -> float:
    """d log τ*/d log β_x between β_x = beta_lo and beta_hi (‖v‖_F = 4(1 − β_x), optimal r)."""
    t_lo = example1_recipe(n, 4 * (1 - beta_lo), alpha).tau
    t_hi = example1_recipe(n, 4 * (1 - beta_hi), alpha).tau
    return math.log(t_hi / t_lo) / math.log(beta_hi / beta_lo)
