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


def curse(omegas: Sequence[float], ms: ArrayLike, betas: Sequence[float], *, eps_uniform: float, eps_free: float,
          free_omegas: Sequence[float], x_mins: Sequence[float]) -> dict:
    """Power-law memory: uniform-grid rates p(ω) and widths m_ε, free-rate widths and w_min."""
    ms = np.asarray(ms)
    fit = ms >= 8
    res = dict(omegas=np.asarray(omegas), ms=ms, err=[], p=[], m_eps=[])
    for om in omegas:
        f = lambda t, om=om: (1 + t) ** (-(1 + om))
        err, _ = A.uniform_errors(f, A.power_law_metric(om), ms, betas)
        slope, icpt = power_law_exponent(ms[fit], err[fit])[:2]
        res["err"].append(err), res["p"].append(-slope)
        res["m_eps"].append(math.exp((math.log(eps_uniform) - icpt) / slope))  # from err ≈ C·m^{-p}
    res["free_omegas"] = np.asarray(free_omegas)
    mf, wm = zip(*[A.free_rate_width(om, eps_free, A.power_law_metric(om), x_mins) for om in free_omegas])
    res["m_free"], res["w_min"] = np.array(mf, float), np.array(wm)
    res["cond13"] = min(A.exp_weighted_sup(lambda t: (1 + t) ** -2.0, b, np.linspace(0, 400, 4001))
                        for b in (0.05, 0.1, 0.5))
    res["cond13_exp"] = min(A.exp_weighted_sup(DENSITY_TARGETS["exp_type"][1], b, np.linspace(0, 400, 4001))
                            for b in (0.05, 0.1, 0.5))
    return {k: np.asarray(v) if isinstance(v, list) else v for k, v in res.items()}
