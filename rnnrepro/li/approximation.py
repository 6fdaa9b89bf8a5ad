"""Exponential-sum approximation of memory kernels (Thms 4.1, 4.2 and the curse of memory, App. B).

*Uniform-grid construction* (the proofs of Thms 4.1/4.2): rates jβ, j = 1..m, i.e. W = −β·diag(1..m).
With s = e^{−βt}, ρ̂(t) = Σ_j c_j s^j = s·q(s) with deg q = m − 1 and
‖ρ − ρ̂‖_{L¹(dt)} = β^{-1}‖f − q‖_{L¹[0,1]}, f(s) = e^{βt}ρ(t). We fit q (Legendre basis in s, never
monomials: the exponential Gram matrix is Hilbert-like) by exact L¹ regression (a linear program,
HiGHS) on a dyadically graded Gauss grid in s, and evaluate the L¹ error in t on a grid in x = log(1 + t) up to t = 1e12
plus an analytic tail.

*Free rates* (a contrast, not in the paper): for the power law (1+t)^{−(1+ω)} =
Γ(1+ω)^{-1}∫ e^{(1+ω)x − e^x} e^{−e^x t} dx, the trapezoidal rule on [x_min, x_max] gives m
log-spaced rates e^{x_k}.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike
from numpy.polynomial import legendre as leg
from scipy.optimize import linprog
from scipy.special import gamma

from rnnrepro.li.budget import passes

_T_MAX = 1e12
_T_MAX_POWER = 1e30  # power laws with ω ≥ 1/8 keep < 1.3e-2 of their mass beyond this

Kernel = Callable[[np.ndarray], np.ndarray]   # ρ: times t (any shape) → values (same shape)
Grid = tuple[np.ndarray, np.ndarray]           # quadrature (nodes (n,), weights (n,))


def _gauss_panels(edges, n):
    """Composite Gauss–Legendre nodes/weights on consecutive panels ``edges`` (n nodes each)."""
    x, w = leg.leggauss(n)
    a, b = np.asarray(edges[:-1]), np.asarray(edges[1:])
    nodes = (a[:, None] + b[:, None]) / 2 + (b - a)[:, None] / 2 * x
    weights = (b - a)[:, None] / 2 * w
    return nodes.ravel(), weights.ravel()


def s_grid(n_panels: int = 60, n_uniform: int = 48, n_gauss: int = 12) -> Grid:
    """Gauss grid on s ∈ [2^{-n_panels}, 1]: dyadic panels toward 0 merged with ``n_uniform`` equal
    panels on [0, 1] → (s, ds-weights), each of length ≈ (n_panels + n_uniform)·n_gauss."""
    edges = np.union1d(2.0 ** -np.arange(n_panels, -1, -1.0), np.linspace(0, 1, n_uniform + 1)[1:])
    return _gauss_panels(edges, n_gauss)


def t_grid(n_panels: int = 240, n_gauss: int = 12, t_max: float = _T_MAX) -> Grid:
    """Gauss grid in x = log(1 + t) on [0, log(1 + t_max)] → (t, dt-weights)."""
    x, wx = _gauss_panels(np.linspace(0, math.log1p(t_max), n_panels + 1), n_gauss)
    return np.expm1(x), wx * np.exp(x)


class L1Metric:
    """Relative L¹ distance to a target kernel ρ: ‖ρ − ρ̂‖₁/‖ρ‖₁ with ρ's mass beyond t_max as ``tail``."""

    def __init__(self, rho: Kernel, tail: float = 0.0, norm: float | None = None, grid: Grid | None = None) -> None:
        self.t, self.wt = t_grid() if grid is None else grid
        self.rho = rho(self.t)
        self.tail = float(tail)
        self.norm = float(np.abs(self.rho) @ self.wt + tail) if norm is None else float(norm)

    def rel(self, rhohat_values: np.ndarray) -> float:
        """rhohat_values: ρ̂ on ``self.t`` (shape (n,)) → relative L¹ error (float)."""
        return float((np.abs(self.rho - rhohat_values) @ self.wt + self.tail) / self.norm)


class LinearProgramFailed(RuntimeError):
    """HiGHS did not solve an L¹ fit to optimality (the message names the width and β)."""


_HIGHS = dict(primal_feasibility_tolerance=1e-10, dual_feasibility_tolerance=1e-10)   # default 1e-7: gaps of 1e-3


def uniform_fit(rho: Kernel, m: int, beta: float, grid: Grid | None = None, *, gap_tol: float = 1e-3,
                gap_floor: float = 1e-10) -> np.ndarray:
    """Legendre coefficients (m,) of q minimising Σ_i w_i |f(s_i) − q(s_i)| on the quadrature grid
    (the L¹(ds) norm of the module doc), solved exactly as a linear program.

    We solve the dual, max_y Σ_i w_i f_i y_i subject to Σ_i w_i y_i P_k(s_i) = 0 (k < m), |y_i| ≤ 1
    (m equality rows instead of the primal's 2n inequalities); the coefficients are minus the
    multipliers of its equalities. The primal objective of those coefficients must equal the dual
    optimum to ``gap_tol`` (relative) plus ``gap_floor``·‖f‖ (for exact fits, optimum ≈ 0): a certificate
    of optimality, else LinearProgramFailed."""
    s, ws = s_grid() if grid is None else grid
    f = rho(-np.log(s) / beta) / s
    V = leg.legvander(2 * s - 1, m - 1)
    fw, Vw = ws * f, ws[:, None] * V               # rows scaled by the weights: residual w_i (f_i − (Vb)_i)
    res = linprog(-fw, A_eq=Vw.T, b_eq=np.zeros(m), bounds=(-1, 1), method="highs", options=_HIGHS)
    if res.status != 0:
        raise LinearProgramFailed(f"L¹ fit (width {m}, β = {beta:.4g}): HiGHS status {res.status}: {res.message}")
    b = -res.eqlin.marginals
    primal, dual = float(np.abs(fw - Vw @ b).sum()), -float(res.fun)
    if primal - dual > gap_tol * abs(dual) + gap_floor * float(np.abs(fw).sum()):
        raise LinearProgramFailed(f"L¹ fit (width {m}, β = {beta:.4g}): duality gap {primal - dual:.3e} "
                                  f"on an optimum {dual:.3e}")
    return b


def l1_residual(rho: Kernel, b: np.ndarray, beta: float, grid: Grid | None = None) -> float:
    """Σ_i w_i |f(s_i) − q(s_i)| for Legendre coefficients b (m,): the objective ``uniform_fit`` minimises."""
    s, ws = s_grid() if grid is None else grid
    f = rho(-np.log(s) / beta) / s
    return float(ws @ np.abs(f - leg.legval(2 * s - 1, b)))


def uniform_eval(b: np.ndarray, beta: float, t: ArrayLike) -> np.ndarray:
    """ρ̂(t) = s·q(s), s = e^{−βt}, for Legendre coefficients b; t any shape."""
    s = np.exp(-beta * np.asarray(t, float))
    return s * leg.legval(2 * s - 1, b)


def uniform_errors(rho: Kernel, metric: L1Metric, ms: Sequence[int], betas: Sequence[float],
                   grid: Grid | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Best relative L¹ error of the uniform-grid construction over ``betas`` for each width in ``ms``.

    Returns (err (len(ms),), best_beta (len(ms),)), with err made a running minimum over m (a wider
    network can always switch neurons off).
    """
    grid = s_grid() if grid is None else grid
    errs, bets = [], []
    for m in ms:
        e = [metric.rel(uniform_eval(uniform_fit(rho, m, bt, grid), bt, metric.t)) for bt in betas]
        k = int(np.argmin(e))
        errs.append(e[k]), bets.append(betas[k])
    return np.minimum.accumulate(np.array(errs)), np.array(bets)


def power_law_metric(omega: float, grid: Grid | None = None) -> L1Metric:
    """L1Metric for ρ = (1+t)^{-(1+ω)} with the exact norm 1/ω and the analytic tail beyond 1e12."""
    g = t_grid(n_panels=240, n_gauss=8, t_max=_T_MAX_POWER) if grid is None else grid
    t_end = _T_MAX_POWER if grid is None else float(g[0].max())
    return L1Metric(lambda t: (1 + t) ** (-(1 + omega)), tail=(1 + t_end) ** (-omega) / omega,
                    norm=1 / omega, grid=g)


def laplace_rates(omega: float, m: int, x_min: float, x_max: float) -> tuple[np.ndarray, np.ndarray]:
    """Free-rate construction: (a (m,), w (m,)) from the trapezoidal rule on [x_min, x_max]."""
    x = np.linspace(x_min, x_max, m)
    h = (x_max - x_min) / (m - 1)
    tw = np.full(m, h)
    tw[[0, -1]] /= 2
    a = tw * np.exp((1 + omega) * x - np.exp(x)) / gamma(1 + omega)
    return a, np.exp(x)


def free_rate_error(omega: float, m: int, metric: L1Metric, x_mins: Sequence[float],
                    x_maxs: Sequence[float] = (2.0, 3.5)) -> tuple[float, float]:
    """Best relative L¹ error of the free-rate construction for width m → (err, w_min)."""
    best = (np.inf, np.nan)
    for xmax in x_maxs:
        for xmin in x_mins:
            if xmin >= xmax:
                continue
            a, w = laplace_rates(omega, m, xmin, xmax)
            e = metric.rel(np.exp(-np.multiply.outer(metric.t, w)) @ a)
            if e < best[0]:
                best = (e, float(w.min()))
    return best


def free_rate_width(omega: float, eps: float, metric: L1Metric, x_mins: Sequence[float],
                    m_max: int = 64) -> tuple[int, float]:
    """Smallest m whose free-rate error ≤ eps (bisection, error assumed non-increasing in m) →
    (m, w_min at that m); (-1, nan) if m_max does not suffice. The bisection is bounded to
    ⌈log₂ m_max⌉ + 1 halvings (RunawayError beyond)."""
    e_hi, w_hi = free_rate_error(omega, m_max, metric, x_mins)
    if e_hi > eps:
        return -1, np.nan
    lo, hi, w_best = 2, m_max, w_hi
    for _ in passes(math.ceil(math.log2(max(m_max, 2))) + 2, f"free-rate width bisection (ω = {omega:g}, ε = {eps:g})"):
        if hi - lo <= 1:
            break
        mid = (lo + hi) // 2
        e, w = free_rate_error(omega, mid, metric, x_mins)
        if e <= eps:
            hi, w_best = mid, w
        else:
            lo = mid
    return hi, w_best


def free_rate_metric(omega: float, tail_tol: float = 1e-4, dx: float = 0.25, n_gauss: int = 8) -> L1Metric:
    """L1Metric for ρ = (1+t)^{-(1+ω)} on Gauss panels of width ≤ ``dx`` in x = log(1 + t), reaching far
    enough (at least t = 1e30) that the mass beyond is at most ``tail_tol`` of ‖ρ‖₁: long memories (small ω)
    and the exponentially small rates the free-rate networks use need t up to tail_tol^{-1/ω}."""
    if not 0 < omega <= 1:
        raise ValueError(f"omega must be in (0, 1], got {omega!r}")
    x_end = max(math.log1p(_T_MAX_POWER), -math.log(tail_tol) / omega)
    x, wx = _gauss_panels(np.linspace(0, x_end, max(240, math.ceil(x_end / dx)) + 1), n_gauss)
    return power_law_metric(omega, grid=(np.expm1(x), wx * np.exp(x)))


GAMMA_MIN = 0.8856031944108887   # min of Γ on [1, 2] (at 1.4616…): bounds 1/Γ(1 + ω) for every ω ∈ (0, 1]


def trapezoid_rule_width(omega: float, h: float, L: float, x_max: float) -> int:
    """Width m of the fixed free-rate rule: nodes from x_min = −L/ω to ``x_max`` at step ≤ h,
    m = ⌈(x_max + L/ω)/h⌉ + 1 (linear in 1/ω)."""
    return math.ceil((x_max + L / omega) / h) + 1


def trapezoid_rule_bound(h: float, L: float, x_max: float) -> dict:
    """An ω-free bound on the relative L¹ error of ``laplace_rates(ω, m, −L/ω, x_max)`` with step ≤ h, valid
    for every ω ∈ (0, 1] (so for the width :func:`trapezoid_rule_width`, linear in 1/ω) → dict of floats
    ``discretisation``, ``lower``, ``upper``, ``total``.

    The rule is the trapezoidal rule for (1+t)^{-(1+ω)} = Γ(1+ω)^{-1}∫ f(x) dx, f = e^{(1+ω)x − e^x(1+t)}.
    *Discretisation* (the rule on all nodes x_min + kh, k ∈ Z; analytic-strip bound, Trefethen & Weideman
    2014, Thm 5.1): in |Im x| < d < π/2, ∫|f(x+iy)|dx = (cos y (1+t))^{-(1+ω)}, so after integrating over t
    and dividing by ‖ρ‖₁ = 1/ω the error is at most 2(cos d)^{-2}/(e^{2πd/h} − 1) (minimised over d).
    *Truncation*: a node x with weight w carries relative mass ω·w·e^{ωx − e^x}/Γ(1+ω); the nodes below
    x_min and half the end node give at most e^{-L}(1 + h/2)/Γ_min, those above x_max and half the end
    node at most (e^{-e^{x_max}} + (h/2)e^{x_max − e^{x_max}})/Γ_min (x_max > 0)."""
    if not (h > 0 and L > 0 and x_max > 0):
        raise ValueError(f"h, L and x_max must be positive, got h={h!r}, L={L!r}, x_max={x_max!r}")
    d = np.linspace(1e-3, math.pi / 2 - 1e-3, 4000)
    disc = float(np.min(2 / np.cos(d) ** 2 / np.expm1(2 * math.pi * d / h)))
    lower = math.exp(-L) * (1 + h / 2) / GAMMA_MIN
    upper = (math.exp(-math.exp(x_max)) + h / 2 * math.exp(x_max - math.exp(x_max))) / GAMMA_MIN
    return dict(discretisation=disc, lower=lower, upper=upper, total=disc + lower + upper)


def trapezoid_rule_error(omega: float, m: int, L: float, x_max: float, metric: L1Metric | None = None) -> float:
    """Relative L¹ error of the fixed rule (m nodes from −L/ω to x_max) on (1+t)^{-(1+ω)}."""
    metric = free_rate_metric(omega) if metric is None else metric
    a, w = laplace_rates(omega, m, -L / omega, x_max)
    return metric.rel(np.exp(-np.multiply.outer(metric.t, w)) @ a)


def best_l1_monic_error(n: int) -> float:
    """min over polynomials q of degree n − 1 of ∫_0^1 |s^n − q(s)| ds = 4^{−n}.

    Classical (Korkine–Zolotarev): on [−1, 1] the monic polynomial of degree n with the least L¹ norm is
    2^{−n}U_n (Chebyshev, second kind), of norm 2^{1−n}; the map s = (x + 1)/2 gives 4^{−n} on [0, 1]."""
    return 4.0 ** -int(n)


def exp_weighted_sup(rho: Kernel, beta: float, t: np.ndarray) -> float:
    """max_t e^{βt}ρ(t) on the grid t — bounded iff ρ decays at least like e^{−βt} (condition (13))."""
    return float(np.max(np.exp(beta * t) * np.abs(rho(t))))
