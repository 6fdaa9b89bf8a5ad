"""Tests of rnnrepro.li.targets: closed-form Laplace moments and norms against quadrature."""

import math

import numpy as np
import pytest
from scipy import integrate

from rnnrepro.li import targets as T


def _quad(f, lo=0.0, hi=80.0, pts=None):
    return integrate.quad(f, lo, hi, points=pts, limit=500)[0]


@pytest.mark.parametrize("k", [0, 1, 2])
@pytest.mark.parametrize("w", [0.2, 1.0, 30.0])
def test_two_part_moments_match_quadrature(k, w):
    tg = T.two_part(9.0, amp=0.7, width=1.3)
    q = _quad(lambda t: t ** k * math.exp(-w * t) * tg(t), pts=[9.0])
    assert tg.moment(k, w) == pytest.approx(q, rel=1e-10, abs=1e-14)


def test_bump_moment_stable_for_large_rates_and_memory():
    g = T.GaussBump(24.0)
    vals = g.moment(0, np.array([0.1, 1.0, 60.0, 200.0]))
    assert np.all(np.isfinite(vals)) and np.all(vals > 0)


def test_norms_match_quadrature():
    for tg in (T.two_part(6.0), T.exp_tail_control(6.0, 1.2), T.ExpSum([1.0, -0.5], [1.0, 3.0])):
        assert tg.l2norm2() == pytest.approx(_quad(lambda t, tg=tg: tg(t) ** 2, hi=200.0, pts=[6.0]), rel=1e-9)


def test_exp_tail_control_has_requested_level():
    tail = T.exp_tail_control(10.0, 1.25).parts[1]
    assert tail.l2norm2() == pytest.approx(1.25)


def test_airy_and_power_law_kernels():
    assert T.airy_kernel(np.array([6.0]), 6.0)[0] == pytest.approx(0.3550280538878172)
    assert T.airy_kernel(np.array([1e12]))[0] == 0.0
    assert T.power_law(np.array([0.0, 1.0]), 1.0) == pytest.approx([1.0, 0.25])


def test_random_exp_sum_kernel_is_a_decaying_exponential_sum():
    t = np.linspace(0, 40, 401)
    r = T.random_exp_sum_kernel(t, 8, seed=3)
    assert r.shape == t.shape and abs(r[-1]) < 1e-6 * np.abs(r).max()
