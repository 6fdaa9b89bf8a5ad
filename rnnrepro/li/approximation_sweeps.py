"""Thms 4.1–4.2 and the curse in approximation: errors of the exponential-sum constructions over widths,
rates and memories (uniform-grid rates jβ of the proof, freely placed rates of ours)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.core.fits import power_law_exponent
from rnnrepro.li import approximation as A
from rnnrepro.li import targets as T
from rnnrepro.li.approximation import Kernel


DENSITY_TARGETS = {
    "exp_type": ("e^{-t}/(1+t)", lambda t: np.exp(-t) / (1 + t)),
    "airy": ("Ai(t-6)", lambda t: T.airy_kernel(t, 6.0)),
    "bump": ("e^{-(t-5)^2}", lambda t: np.exp(-(t - 5.0) ** 2)),
    "power_law": ("(1+t)^{-2}", lambda t: (1 + t) ** -2.0),
}


def density(ms: Sequence[int], betas: Sequence[float], fixed_beta: float = 2.0) -> dict:
    """Uniform-grid construction on the four targets: errors (len(ms),) per target, plus the
    errors with β fixed at ``fixed_beta`` instead of chosen from ``betas``."""
    out = {}
    for key, (_, f) in DENSITY_TARGETS.items():
        metric = A.power_law_metric(1.0) if key == "power_law" else A.L1Metric(f)
        err, bet = A.uniform_errors(f, metric, ms, betas)
        ctl, _ = A.uniform_errors(f, metric, ms, [fixed_beta])
        out[key] = dict(err=err, beta=bet, control=ctl)
    return out


def density_nonintegrable(ms: Sequence[int], betas: Sequence[float]) -> np.ndarray:
    """The construction on ρ = (1+t)^{-1}, outside Thm 4.1's class (not integrable, so the functional is
    unbounded), relative L¹ error on t ≤ 10^12 → errors (len(ms),) (running minimum over widths)."""
    f = lambda t: 1.0 / (1.0 + t)
    return A.uniform_errors(f, A.L1Metric(f), ms, betas)[0]


def exact_instance(ms: Sequence[int], beta: float = 1.0) -> dict:
    """The construction (rates jβ, width m) on ρ_m = e^{−(m+1)βt}, one rate beyond its grid.

    With s = e^{−βt} the construction is L¹ approximation of e^{βt}ρ_m = s^m by polynomials of degree
    m − 1, so its best relative L¹ error is (m + 1)·4^{−m} (‖ρ_m‖₁ = 1/((m + 1)β)). Returns arrays
    (len(ms),): ``err`` (measured), ``closed`` ((m + 1)·4^{−m}) and ``wider`` (the same ρ_m at width
    m + 1, whose grid holds the rate: exact, error at round-off)."""
    out = dict(err=[], closed=[], wider=[])
    for m in ms:
        f = lambda t, lam=(m + 1) * beta: np.exp(-lam * t)
        metric = A.L1Metric(f)
        out["err"].append(A.uniform_errors(f, metric, [m], [beta])[0][0])
        out["wider"].append(A.uniform_errors(f, metric, [m + 1], [beta])[0][0])
        out["closed"].append((m + 1) * A.best_l1_monic_error(m))
    return {k: np.array(v) for k, v in out.items()}


def extend_down(betas: Sequence[float], lo: float) -> np.ndarray:
    """The increasing log grid ``betas`` (n,) continued below its first point at the same ratio until it
    reaches ``lo`` → (n + k,); the original points are kept exactly."""
    betas = np.asarray(betas, float)
    r = betas[1] / betas[0]
    k = max(0, math.ceil(math.log(betas[0] / lo) / math.log(r) - 1e-9))
    return np.concatenate([betas[0] * r ** -np.arange(k, 0, -1.0), betas])


class BetaOnGridEdge(RuntimeError):
    """The best β of a fitted width lies on the edge of the β grid (the optimum may lie outside it)."""


def check_inside(best: np.ndarray, betas: Sequence[float], what: str) -> None:
    """Raise BetaOnGridEdge if any chosen β in ``best`` is the first or last point of ``betas``."""
    edge = np.isin(np.asarray(best), [betas[0], betas[-1]])
    if edge.any():
        raise BetaOnGridEdge(f"{what}: best beta {np.asarray(best)[edge]} on the edge of the grid "
                             f"[{betas[0]:.3g}, {betas[-1]:.3g}]; extend the grid")


def exp_memory(omega: float) -> Kernel:
    """Exponential memory of time-scale 1/ω, ρ(t) = e^{−ωt}/(1 + ωt) (condition (13) holds)."""
    return lambda t: np.exp(-omega * t) / (1 + omega * t)


def curse(omegas: Sequence[float], ms: ArrayLike, betas: Sequence[float], *, eps_uniform: float, eps_free: float,
          free_omegas: Sequence[float], free_Ls: Sequence[float], free_m_max: int = 128) -> dict:
    """Power-law memory: uniform-grid rates p(ω) and widths m_ε, free-rate widths and w_min; ``p_ctl``: the
    fitted rate of the same construction on the exponential memory e^{−ωt}/(1 + ωt) of the same time-scale.
    The free-rate search tries the lower ends x_min = −L/ω for L in ``free_Ls`` (and widths up to
    ``free_m_max``), on :func:`~rnnrepro.li.approximation.free_rate_metric`'s ω-adapted grid.
    Raises BetaOnGridEdge if a fitted width (m ≥ 8) of a power law picks the edge of ``betas``."""
    ms = np.asarray(ms)
    fit = ms >= 8
    res = dict(omegas=np.asarray(omegas), ms=ms, err=[], p=[], m_eps=[], beta=[], p_ctl=[])
    for om in omegas:
        f = lambda t, om=om: (1 + t) ** (-(1 + om))
        err, bet = A.uniform_errors(f, A.power_law_metric(om), ms, betas)
        check_inside(bet[fit], betas, f"(1+t)^-(1+{om:g})")
        slope, icpt = power_law_exponent(ms[fit], err[fit])[:2]
        res["err"].append(err), res["p"].append(-slope), res["beta"].append(bet)
        res["m_eps"].append(math.exp((math.log(eps_uniform) - icpt) / slope))  # from err ≈ C·m^{-p}
        err_c, _ = A.uniform_errors(exp_memory(om), A.L1Metric(exp_memory(om)), ms[fit], betas)   # fitted widths only
        res["p_ctl"].append(-power_law_exponent(ms[fit], err_c)[0])
    res["free_omegas"] = np.asarray(free_omegas)
    mf, wm = zip(*[A.free_rate_width(om, eps_free, A.free_rate_metric(om), -np.asarray(free_Ls) / om,
                                     m_max=free_m_max) for om in free_omegas])
    res["m_free"], res["w_min"] = np.array(mf, float), np.array(wm)
    res["cond13"] = min(A.exp_weighted_sup(lambda t: (1 + t) ** -2.0, b, np.linspace(0, 400, 4001))
                        for b in (0.05, 0.1, 0.5))
    res["cond13_exp"] = min(A.exp_weighted_sup(DENSITY_TARGETS["exp_type"][1], b, np.linspace(0, 400, 4001))
                            for b in (0.05, 0.1, 0.5))
    return {k: np.asarray(v) if isinstance(v, list) else v for k, v in res.items()}


def fixed_rule(inv_omegas: Sequence[float], *, h: float, L: float, x_max: float) -> dict:
    """The free-rate trapezoidal rule with fixed step h and lower end −L/ω at memories 1/ω = ``inv_omegas``:
    widths m (linear in 1/ω), measured relative L¹ errors, the ω-free error bound
    (:func:`~rnnrepro.li.approximation.trapezoid_rule_bound`) and, as a control, the errors of the same rule
    with the width of the first memory kept (step h, so x_min = x_max − (m₀ − 1)h) → dict of arrays (n,)
    ``inv_omegas``, ``m``, ``err``, ``err_fixed_width`` and the bound's dict under ``bound``."""
    inv = np.asarray(inv_omegas, float)
    if inv.ndim != 1 or inv.size == 0 or np.any(inv < 1):
        raise ValueError(f"inv_omegas must be a non-empty list of memories 1/ω ≥ 1, got {inv_omegas!r}")
    ms = np.array([A.trapezoid_rule_width(1 / v, h, L, x_max) for v in inv])
    err, err_fixed = [], []
    for v, m in zip(inv, ms):
        metric = A.free_rate_metric(1 / v)
        err.append(A.trapezoid_rule_error(1 / v, int(m), L, x_max, metric))
        a, w = A.laplace_rates(1 / v, int(ms[0]), x_max - (ms[0] - 1) * h, x_max)
        err_fixed.append(metric.rel(np.exp(-np.multiply.outer(metric.t, w)) @ a))
    return dict(inv_omegas=inv, m=ms, err=np.array(err), err_fixed_width=np.array(err_fixed),
                bound=A.trapezoid_rule_bound(h, L, x_max))
