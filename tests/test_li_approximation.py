"""Tests of rnnrepro.li.approximation: exponential-sum constructions and their L¹ errors."""

import numpy as np
import pytest

from rnnrepro.li import approximation as A


def test_grids_integrate_known_integrals():
    s, ws = A.s_grid()
    assert ws.sum() == pytest.approx(1.0, abs=1e-15) and (s ** 2 * 3) @ ws == pytest.approx(1.0)
    t, wt = A.t_grid()
    assert np.exp(-t) @ wt == pytest.approx(1.0, rel=1e-10)


def test_exact_exponential_sum_is_recovered():
    beta = 0.5
    rho = lambda t: 2 * np.exp(-beta * t) - np.exp(-3 * beta * t)
    b = A.uniform_fit(rho, 4, beta)
    metric = A.L1Metric(rho)
    assert metric.rel(A.uniform_eval(b, beta, metric.t)) < 1e-10


def test_uniform_errors_decrease_and_power_law_metric():
    f = lambda t: np.exp(-t) / (1 + t)
    err, bet = A.uniform_errors(f, A.L1Metric(f), [2, 4, 8], np.geomspace(0.1, 2, 5))
    assert np.all(np.diff(err) <= 0) and err[-1] < 1e-3 and bet.shape == (3,)
    met = A.power_law_metric(0.5)
    assert met.rel(np.zeros_like(met.t)) == pytest.approx(1.0, rel=1e-3)


def test_free_rates_approximate_the_power_law():
    a, w = A.laplace_rates(1.0, 40, -12.0, 3.5)
    met = A.power_law_metric(1.0)
    assert met.rel(np.exp(-np.multiply.outer(met.t, w)) @ a) < 1e-2
    m, wmin = A.free_rate_width(1.0, 1e-2, met, np.linspace(-20, 0, 11))
    assert 2 < m <= 64 and 0 < wmin < 1


def test_condition_13():
    t = np.linspace(0, 400, 401)
    assert A.exp_weighted_sup(lambda t: (1 + t) ** -2.0, 0.1, t) > 1e3
    assert A.exp_weighted_sup(lambda t: np.exp(-t), 0.5, t) == pytest.approx(1.0)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_best_l1_monic_error_against_linear_programming(n):
    """Independent reference: the L¹ best approximation of s^n on a fine midpoint grid as a linear program."""
    from scipy.optimize import linprog

    k = 4000
    s = (np.arange(k) + 0.5) / k
    V = np.vander(s, n, increasing=True)                     # q(s) = Σ_{j<n} c_j s^j
    # variables (c (n,), e (k,)): minimise Σ e/k subject to |s^n − V c| ≤ e
    cost = np.r_[np.zeros(n), np.full(k, 1.0 / k)]
    A_ub = np.block([[V, -np.eye(k)], [-V, -np.eye(k)]])
    b_ub = np.r_[s ** n, -(s ** n)]
    res = linprog(cost, A_ub=A_ub, b_ub=b_ub, bounds=[(None, None)] * n + [(0, None)] * k, method="highs")
    assert res.status == 0
    assert res.fun == pytest.approx(A.best_l1_monic_error(n), rel=1e-3)
    # and the extremal polynomial 4^{-n} U_n(2s − 1) has that L¹ norm
    from scipy.special import eval_chebyu
    assert np.mean(np.abs(eval_chebyu(n, 2 * s - 1))) * 4.0 ** -n == pytest.approx(A.best_l1_monic_error(n), rel=1e-3)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_uniform_fit_is_the_exact_l1_optimum_against_brute_force(m):
    """Independent reference: a discrete weighted L¹ fit with m basis functions has an optimum that
    interpolates the data at m nodes (a vertex of the LP), so on a 10-node grid the best of all
    C(10, m) interpolants is the optimum (m = 1: the weighted median)."""
    from itertools import combinations
    from numpy.polynomial import legendre as leg

    rng = np.random.default_rng(m)
    s = np.sort(rng.uniform(0.05, 1.0, 10))
    ws = rng.uniform(0.5, 1.5, 10) / 10
    beta = 0.7
    rho = lambda t: (1 + t) ** -1.5
    f = rho(-np.log(s) / beta) / s
    V = leg.legvander(2 * s - 1, m - 1)
    best = min(ws @ np.abs(f - V @ np.linalg.solve(V[list(idx)], f[list(idx)]))
               for idx in combinations(range(10), m))
    b = A.uniform_fit(rho, m, beta, grid=(s, ws))
    assert A.l1_residual(rho, b, beta, grid=(s, ws)) == pytest.approx(best, rel=1e-7)
    if m == 1:   # weighted median
        order = np.argsort(f)
        med = f[order][np.searchsorted(np.cumsum(ws[order]), ws.sum() / 2)]
        assert ws @ np.abs(f - med) == pytest.approx(best, rel=1e-12)


@pytest.mark.parametrize("n", [1, 3, 6])
def test_uniform_fit_attains_the_closed_form(n):
    """On e^{−(n+1)βt} the relative L¹ error of the width-n construction is (n + 1)·4^{−n} (classical)."""
    f = lambda t: np.exp(-(n + 1) * t)
    err = A.uniform_errors(f, A.L1Metric(f), [n], [1.0])[0][0]
    assert err == pytest.approx((n + 1) * A.best_l1_monic_error(n), rel=3e-3)   # Gauss rule on a kinked |residual|


def test_uniform_fit_beats_least_squares_and_perturbations():
    """The LP optimum is no worse than the weighted least-squares fit or any small perturbation of itself."""
    from numpy.polynomial import legendre as leg

    rho = lambda t: (1 + t) ** -1.25
    beta, m = 0.05, 8
    s, ws = A.s_grid()
    b = A.uniform_fit(rho, m, beta)
    best = A.l1_residual(rho, b, beta)
    f = rho(-np.log(s) / beta) / s
    V = leg.legvander(2 * s - 1, m - 1)
    sw = np.sqrt(ws)
    b_ls = np.linalg.lstsq(V * sw[:, None], f * sw, rcond=None)[0]
    assert best <= A.l1_residual(rho, b_ls, beta)
    rng = np.random.default_rng(0)
    for _ in range(20):
        assert best <= A.l1_residual(rho, b + 1e-3 * rng.standard_normal(m) * np.abs(b).max(), beta) * (1 + 1e-6)


def _rule_error_by_quad(omega, m, L, x_max):
    """Independent reference: ∫_0^∞ |ρ − ρ̂| dt / ‖ρ‖₁ by scipy quad in u = log(1 + t), no rnnrepro grid."""
    from scipy.integrate import quad
    from scipy.special import gamma
    x = np.linspace(-L / omega, x_max, m)
    wts = np.full(m, x[1] - x[0])
    wts[[0, -1]] /= 2
    a = wts * np.exp((1 + omega) * x - np.exp(x)) / gamma(1 + omega)

    def integrand(u):
        t = np.expm1(u)
        return abs((1 + t) ** (-(1 + omega)) - a @ np.exp(-np.exp(x) * t)) * np.exp(u)

    edges = np.linspace(0, 40 / omega, 400)
    total = sum(quad(integrand, lo, hi, limit=200)[0] for lo, hi in zip(edges[:-1], edges[1:]))
    return total * omega


@pytest.mark.parametrize("omega", [1.0, 0.25])
def test_trapezoid_rule_error_agrees_with_quad_and_obeys_the_omega_free_bound(omega):
    h, L, x_max = 0.9, 4.5, 3.0
    m = A.trapezoid_rule_width(omega, h, L, x_max)
    assert m == int(np.ceil((x_max + L / omega) / h)) + 1
    err = A.trapezoid_rule_error(omega, m, L, x_max)
    assert err == pytest.approx(_rule_error_by_quad(omega, m, L, x_max), rel=1e-3)
    assert err <= A.trapezoid_rule_bound(h, L, x_max)["total"]


def test_trapezoid_rule_bound_terms_and_bad_input():
    b = A.trapezoid_rule_bound(0.9, 4.5, 3.0)
    assert b["lower"] == pytest.approx(np.exp(-4.5) * 1.45 / A.GAMMA_MIN)
    assert b["total"] == pytest.approx(b["discretisation"] + b["lower"] + b["upper"])
    assert A.trapezoid_rule_bound(0.45, 4.5, 3.0)["discretisation"] < 1e-3 * b["discretisation"]  # e^{-2πd/h}
    from scipy.special import gamma
    assert A.GAMMA_MIN <= gamma(np.linspace(1, 2, 1001)).min() + 1e-15
    with pytest.raises(ValueError, match="positive"):
        A.trapezoid_rule_bound(0.9, -1.0, 3.0)
    with pytest.raises(ValueError, match="omega"):
        A.free_rate_metric(0.0)
