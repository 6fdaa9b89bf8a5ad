"""rnnrepro.li.growth_statistics against closed forms: pure exponentials and power laws."""

import math

import numpy as np
import pytest

from rnnrepro.li import growth_statistics as G


def _synthetic_pp(mus, rate):
    """A sweep at θ₀ whose gradient and small eigenvalue are exactly e^{-rate·μ}; the contrast is flat."""
    n = mus.size
    eig = np.tile(np.array([-1.0, 0.5, 1.0, 2.0]), (n, 1))
    eig[:, 0] = -np.exp(-rate * mus)
    flat = np.tile(np.array([0.3, 0.5, 1.0, 2.0]), (n, 1))
    flat[:, 0] += 1.0 / mus
    return {"bump": dict(J=np.full(n, 2.0), grad=np.exp(-rate * mus), eig=eig),
            "tail": dict(J=np.ones(n), grad=np.ones(n) + 0.1 / mus, eig=flat),
            "eig_h0": np.array([0.0, 0.5, 1.0, 2.0])}


def test_plateau_point_statistics_on_exact_exponentials():
    mus = np.arange(2.0, 31.0, 2.0)
    st = G.plateau_point_statistics(mus, _synthetic_pp(mus, 0.5), mus[2:], np.exp(-mus[2:]), mus[2:] ** -2.0)
    assert st["grad_slope"] == pytest.approx(-0.5, abs=1e-12)
    assert st["eig_slope"] == pytest.approx(-0.5, abs=1e-12)
    assert st["overlap_slope"] == pytest.approx(-1.0, abs=1e-12)
    assert st["overlap_shape"] == pytest.approx(1.0, abs=1e-12)
    assert st["grad_last_slope"] == pytest.approx(-0.5, abs=1e-12)
    assert st["grad_shape"] == pytest.approx(1.0, abs=1e-12) and st["eig_shape"] == pytest.approx(1.0, abs=1e-12)
    # the contrast 1 + 0.1/μ decays like a power law plus a constant: a positive ratio well below 0.8
    assert 0 < st["grad_shape_ctl"] < 0.8
    # a power law x^-2 on [6, 30] with span 6: the secant ratio is log(30/24)/log(12/6), whatever the exponent
    assert st["overlap_shape_ctl"] == pytest.approx(math.log(30 / 24) / math.log(12 / 6), rel=1e-12)
    assert st["saddle"] < 0 and st["saddle_ctl"] == 0.0 and st["top_gap"] == 0.0


def test_decay_shape_signs_the_secant_ratio():
    x = np.arange(6.0, 31.0, 1.0)
    assert G.decay_shape(x, np.exp(-0.3 * x), 6.0) == pytest.approx(1.0, abs=1e-12)
    assert G.decay_shape(x, 5.0 * np.exp(0.3 * x), 6.0) == pytest.approx(-1.0, abs=1e-12)
    # a quartic decay (1/ω)^-4: log(30/24) / log(12/6), by hand; a 4th-power growth the same, negated
    by_hand = math.log(30 / 24) / math.log(12 / 6)
    assert G.decay_shape(x, x ** -4.0, 6.0) == pytest.approx(by_hand, rel=1e-12)
    assert G.decay_shape(x, x ** 4.0, 6.0) == pytest.approx(-by_hand, rel=1e-12)
    # a rate that rises (e^{-x²/20}) gives more than 1: (30² − 24²)/6 / ((12² − 6²)/6) = 3
    assert G.decay_shape(x, np.exp(-x ** 2 / 20), 6.0) == pytest.approx(3.0, rel=1e-12)
    with pytest.raises(ValueError):
        G.decay_shape(x, x, 20.0)
    # a hump that rises over the first span and falls over the last never reads as a decay (it did: 10)
    hump = np.exp(-((x - 14.0) ** 2) / 8.0)
    assert G.decay_shape(x, hump, 6.0) < 0
    assert G.decay_shape(x, 1 / hump, 6.0) < 0                                  # a dip neither


def test_escape_statistics_rate_and_power_law_control():
    mus = np.arange(4.0, 31.0, 1.0)
    esc = dict(tau=np.exp(0.9 * mus), sep=np.exp(0.8 * mus), control=1.0 + mus, sep_control=2.0 + mus)
    et = G.escape_statistics(mus, esc, np.exp(-0.45 * mus), w_f=0.5)
    assert et["rate_top"] == pytest.approx(1.8, rel=1e-12)
    assert et["rate_window"] == pytest.approx(1.8, rel=1e-12)
    assert et["growth_shape"] == pytest.approx(1.0, abs=1e-12)
    assert et["growth_shape_ctl"] == pytest.approx(math.log(30 / 24) / math.log(14 / 8), rel=1e-12)
    # the escape-time control is the undelayed target's escape time (1 + 1/ω here): log(31/25) / log(15/9)
    assert et["growth_shape_undelayed"] == pytest.approx(math.log(31 / 25) / math.log(15 / 9), rel=1e-12)
    assert et["tg2_slope_top"] == pytest.approx(0.0, abs=1e-12)
    assert et["tau_min_fit"] == pytest.approx(math.exp(7.2))
    assert et["loglinear"] > 1 > et["loglinear_ctl"]
    # the separation time's control is the undelayed target's separation time (not its loss hitting time)
    assert et["sep_shape_ctl"] == pytest.approx(
        math.log((30 + 2) / (24 + 2)) / 6 / (math.log((14 + 2) / (8 + 2)) / 6), rel=1e-12)
