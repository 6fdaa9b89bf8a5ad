"""How conservative is τ*: the empirical largest τ that keeps the descent condition (4.1) or Theorem 3's
invariant U ≤ cH, and τ*'s scaling in β_x and α."""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import brentq

from rnnrepro.flynn.bounds import example1_recipe
from rnnrepro.flynn.network import AdjointNetwork
from rnnrepro.flynn.optimisation_system import Diagnostics, Trajectory, diagnose, run_optimisation, warm_up


def run_and_diagnose(net: AdjointNetwork, w0: ArrayLike, tau: float, *, T: float, r: float, warm: float = 30.0,
                     n_out: int = 201) -> tuple[Trajectory, Diagnostics]:
    """A run at τ on [0, T] (n_out times) after a warm-up of ``warm`` time units with w = w0 (x₀ = 0.5, y₀ = 0),
    and its diagnostics with p₁ = 1, p₂ = r."""
    x, y = warm_up(net, w0, np.full(net.n, 0.5), np.zeros(net.n), warm)
    traj = run_optimisation(net, w0, x, y, tau=tau, T=T, n_out=n_out)
    return traj, diagnose(net, traj, 1.0, r)


def max_ratio(net: AdjointNetwork, w0: ArrayLike, tau: float, *, T: float, r: float, warm: float = 30.0) -> float:
    """max_t ‖h − h*‖/‖h‖ of a run at τ after a warm-up of ``warm`` time units (x₀ = 0.5, y₀ = 0)."""
    return float(run_and_diagnose(net, w0, tau, T=T, r=r, warm=warm)[1].ratio.max())


def max_invariant_ratio(net: AdjointNetwork, w0: ArrayLike, tau: float, *, T: float, r: float, c: float,
                        warm: float = 30.0) -> float:
    """max_t U/(cH) of a run at τ (Theorem 3's invariant holds while this is ≤ 1)."""
    d = run_and_diagnose(net, w0, tau, T=T, r=r, warm=warm)[1]
    return float(np.max(d.U / (c * d.H)))


def bisect_log(passes: Callable[[float], bool], lo: float, hi: float, iters: int) -> float:
    """Bisection on log τ between a passing ``lo`` and a failing ``hi`` (not re-evaluated): the largest
    passing τ found, within a factor (hi/lo)^(2^-iters) of the threshold."""
    if not (0 < lo < hi) or iters < 0:
        raise ValueError(f"need 0 < lo < hi and iters >= 0, got lo={lo}, hi={hi}, iters={iters}")
    for _ in range(iters):
        mid = math.sqrt(lo * hi)
        if passes(mid):
            lo = mid
        else:
            hi = mid
    return lo


#: Brent steps allowed to :func:`crossing_log` (it needs about 10-20 on the chapter's brackets)
MAX_BRENT_ITER = 60


def crossing_log(fun: Callable[[float], float], level: float, lo: float, hi: float, *, rtol: float = 1e-4,
                 max_iter: int = MAX_BRENT_ITER) -> float:
    """The τ in [lo, hi] where ``fun`` crosses ``level`` (fun(lo) ≤ level < fun(hi)), by Brent's method on
    log τ, to a relative precision ``rtol`` (the bracket is checked, so the answer is a true crossing).
    Raises RuntimeError naming the bracket when ``max_iter`` steps do not reach it (a runaway search fails)."""
    f_lo, f_hi = fun(lo), fun(hi)
    if not (0 < lo < hi) or not (f_lo <= level < f_hi):
        raise ValueError(f"[{lo:g}, {hi:g}] does not bracket the level {level}: values {f_lo:.4g}, {f_hi:.4g}")
    root, info = brentq(lambda s: fun(math.exp(s)) - level, math.log(lo), math.log(hi), xtol=math.log1p(rtol),
                        rtol=1e-15, maxiter=max_iter, full_output=True, disp=False)
    if not info.converged:
        raise RuntimeError(f"crossing_log: Brent's search for the level {level} in [{lo:g}, {hi:g}] did not reach a "
                           f"relative precision {rtol:g} in {max_iter} steps ({info.flag})")
    return math.exp(root)


def grid_bracket(taus: ArrayLike, values: ArrayLike, level: float) -> tuple[float, float]:
    """(lo, hi): the last grid τ (increasing) with value ≤ level before the first one above it, and that one."""
    taus, values = np.asarray(taus, dtype=np.float64), np.asarray(values, dtype=np.float64)
    bad = np.flatnonzero(values > level)
    if bad.size == 0 or bad[0] == 0:
        raise ValueError(f"the grid does not bracket the level {level}: first value {values[0]:.3g}, "
                         f"last {values[-1]:.3g}")
    return float(taus[bad[0] - 1]), float(taus[bad[0]])


def descent_threshold(net: AdjointNetwork, w0: ArrayLike, alpha: float, *, T: float, r: float, lo: float, hi: float,
                      iters: int = 8) -> float:
    """Bisection on log τ for the largest τ in [lo, hi] with max ratio ≤ α (lo must pass, hi must fail).

    Returns the largest passing τ found (a lower estimate, within a factor (hi/lo)^(2^-iters)).
    """
    if not (0 < lo < hi):
        raise ValueError("need 0 < lo < hi")
    if max_ratio(net, w0, lo, T=T, r=r) > alpha:
        raise ValueError(f"the lower end τ = {lo:g} already breaks the descent condition")
    if max_ratio(net, w0, hi, T=T, r=r) <= alpha:
        return hi
    return bisect_log(lambda tau: max_ratio(net, w0, tau, T=T, r=r) <= alpha, lo, hi, iters)


def tau_star_local_slope(n: int, alpha: float, beta_lo: float, beta_hi: float) -> float:
    """d log τ*/d log β_x between β_x = beta_lo and beta_hi (‖v‖_F = 4(1 − β_x), optimal r)."""
    t_lo = example1_recipe(n, 4 * (1 - beta_lo), alpha).tau
    t_hi = example1_recipe(n, 4 * (1 - beta_hi), alpha).tau
    return math.log(t_hi / t_lo) / math.log(beta_hi / beta_lo)


def tau_star_of_alpha(n: int, v_frob: float, alphas: ArrayLike) -> np.ndarray:
    """The recipe's τ*(α) (optimal r for each α), (len(alphas),)."""
    return np.array([example1_recipe(n, v_frob, float(a)).tau for a in alphas])


def smallest_step_ratio(values: ArrayLike) -> float:
    """min_i values[i+1]/values[i]: > 1 exactly when the sequence is strictly increasing (positive values)."""
    v = np.asarray(values, dtype=np.float64)
    if v.size < 2 or np.any(v <= 0):
        raise ValueError("need at least two positive values")
    return float(np.min(v[1:] / v[:-1]))
