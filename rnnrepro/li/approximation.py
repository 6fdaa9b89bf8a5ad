"""Exponential-sum approximation of memory kernels (Thms 4.1, 4.2 and the curse of memory, App. B).

*Uniform-grid construction* (the proofs of Thms 4.1/4.2): rates jβ, j = 1..m, i.e. W = −β·diag(1..m).
With s = e^{−βt}, ρ̂(t) = Σ_j c_j s^j = s·q(s) with deg q = m − 1 and
‖ρ − ρ̂‖_{L¹(dt)} = β^{-1}‖f − q‖_{L¹[0,1]}, f(s) = e^{βt}ρ(t). We fit q (Legendre basis in s, never
monomials: the exponential Gram matrix is Hilbert-like) by L¹ regression (IRLS) on a dyadically
graded Gauss grid in s, and evaluate the L¹ error in t on a grid in x = log(1 + t) up to t = 1e12
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
from scipy.special import gamma

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


def uniform_fit(rho: Kernel, m: int, beta: float, grid: Grid | None = None, *, n_irls: int = 15,
                lstsq: bool = False) -> np.ndarray:
    """Legendre coefficients (m,) of q minimising ‖f − q‖_{L¹(ds)} for rates jβ (see module doc).

    IRLS: a weighted least-squares start, then ``n_irls`` reweighted steps (normal equations unless
    ``lstsq``)."""
    s, ws = s_grid() if grid is None else grid
    t = -np.log(s) / beta
    f = rho(t) / s
    V = leg.legvander(2 * s - 1, m - 1)
    wts = ws.copy()
    b = None
    for it in range(n_irls + 1):
        if it == 0 or lstsq:
            sw = np.sqrt(wts)
            b = np.linalg.lstsq(V * sw[:, None], f * sw, rcond=None)[0]
        else:  # weighted normal equations: the Legendre Gram matrix is well conditioned
            b = np.linalg.solve(V.T @ (wts[:, None] * V), V.T @ (wts * f))
        r = np.abs(f - V @ b)
        wts = ws / np.maximum(r, 1e-14 * (np.abs(f).max() + 1e-300))
    return b


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
    (m, w_min at that m); (-1, nan) if m_max does not suffice."""
    e_hi, w_hi = free_rate_error(omega, m_max, metric, x_mins)
    if e_hi > eps:
        return -1, np.nan
    lo, hi, w_best = 2, m_max, w_hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        e, w = free_rate_error(omega, mid, metric, x_mins)
        if e <= eps:
            hi, w_best = mid, w
        else:
            lo = mid
    return hi, w_best


def best_l1_monic_error(n: int) -> float:
    """min over polynomials q of degree n − 1 of ∫_0^1 |s^n − q(s)| ds = 4^{−n}.

    Classical (Korkine–Zolotarev): on [−1, 1] the monic polynomial of degree n with the least L¹ norm is
    2^{−n}U_n (Chebyshev, second kind), of norm 2^{1−n}; the map s = (x + 1)/2 gives 4^{−n} on [0, 1]."""
    return 4.0 ** -int(n)


def exp_weighted_sup(rho: Kernel, beta: float, t: np.ndarray) -> float:
    """max_t e^{βt}ρ(t) on the grid t — bounded iff ρ decays at least like e^{−βt} (condition (13))."""
    return float(np.max(np.exp(beta * t) * np.abs(rho(t))))
