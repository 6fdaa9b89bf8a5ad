"""rnnrepro.li.approximation_sweeps on small settings."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.li import figures
from rnnrepro.li import approximation_sweeps


def test_density_and_curse_small():
    ms = np.array([2, 4, 8, 12])  # the curse fit uses widths >= 8: two of them
    betas = np.geomspace(0.05, 2, 3)
    dens = approximation_sweeps.density(ms, betas)
    targets = approximation_sweeps.DENSITY_TARGETS
    assert set(dens) == set(targets) and dens["exp_type"]["err"][-1] < dens["exp_type"]["err"][0]
    assert not unlabelled_axes(figures.density(ms, dens, {k: v[0] for k, v in targets.items()}))
    cur = approximation_sweeps.curse([1.0, 0.5], np.array([2, 4, 8, 16]), 2.0 ** -np.arange(7.0, -1, -1),
                                     eps_uniform=0.05, eps_free=0.05, free_omegas=[1.0, 0.5],
                                     free_Ls=np.linspace(1, 8, 8))
    assert cur["m_eps"][1] > cur["m_eps"][0] and cur["cond13"] > 1e3 >= cur["cond13_exp"]
    # the power law's rate scales with ω; exponential memory of the same time-scale keeps one (fast) rate
    # (β grid of powers of 2: e^{-ωt}/(1+ωt) at ω = 1/2 is the ω = 1 kernel rescaled, so its rate is the same)
    assert 0.9 < (cur["p"][1] / 0.5) / cur["p"][0] < 1.1 and cur["p_ctl"].min() > 3 * cur["p"][0]
    assert abs(cur["p_ctl"][1] / cur["p_ctl"][0] - 1) < 0.01
    assert not unlabelled_axes(figures.curse(cur, dens["exp_type"]["err"], cur["ms"], 0.05, 12))
    # none extrapolated:
    assert not unlabelled_axes(figures.curse(cur, dens["exp_type"]["err"], cur["ms"], 0.05, 10 ** 6))


def test_extend_down_keeps_the_grid_and_its_ratio():
    b = np.geomspace(1e-3, 2.0, 12)
    e = approximation_sweeps.extend_down(b, 1e-4)
    assert np.array_equal(e[-12:], b) and e[0] <= 1e-4 < e[1]
    assert np.allclose(e[1:] / e[:-1], b[1] / b[0], rtol=1e-12)
    assert np.array_equal(approximation_sweeps.extend_down(b, 1e-3), b)


def test_curse_raises_when_the_best_beta_is_on_the_grid_edge():
    ms, betas = np.array([8, 12]), np.geomspace(0.5, 2.0, 3)   # (1+t)^{-2} wants beta near 0.1 at m = 8
    with pytest.raises(approximation_sweeps.BetaOnGridEdge, match="edge"):
        approximation_sweeps.curse([1.0], ms, betas, eps_uniform=0.05, eps_free=0.05, free_omegas=[1.0],
                                   free_Ls=np.linspace(1, 8, 8))
    approximation_sweeps.check_inside(np.array([1.0]), betas, "inside")   # an interior point passes


def test_nonintegrable_control_keeps_an_unfittable_tail():
    err = approximation_sweeps.density_nonintegrable(np.array([2, 4, 8]), np.geomspace(1e-3, 2.0, 4))
    # (1+t)^-1 on t <= 1e12: the part beyond the slowest rate 1e-3 (t > ~1e4) is ln(1e8)/ln(1e12) = 2/3 of the norm
    assert np.all(np.diff(err) <= 0) and err[-1] > 0.5


def test_exact_instance_attains_the_closed_form():
    res = approximation_sweeps.exact_instance([1, 2, 4, 6], beta=0.5)
    # measured ≥ best (up to quadrature) and within 1 % of it; one neuron more represents the kernel exactly
    assert np.all(np.abs(res["err"] / res["closed"] - 1) < 0.01)
    assert np.all(res["wider"] < 1e-12)
    assert res["closed"][0] == 0.5   # m = 1: 2·4^{-1}; best constant for s on [0, 1] is 1/2, error 1/4


def test_fixed_rule_stays_below_its_omega_free_bound():
    r = approximation_sweeps.fixed_rule([1, 4, 16], h=0.9, L=4.5, x_max=3.0)
    assert list(r["m"]) == [10, 25, 85]                                  # ⌈(3 + 4.5/ω)/0.9⌉ + 1
    assert np.all(r["err"] <= r["bound"]["total"]) and r["bound"]["total"] < 0.05
    assert r["err_fixed_width"][-1] > 10 * r["bound"]["total"]           # width kept: the error grows
    with pytest.raises(ValueError, match="1/ω"):
        approximation_sweeps.fixed_rule([0.5], h=0.9, L=4.5, x_max=3.0)
