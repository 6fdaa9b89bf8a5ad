"""Tests of rnnrepro.li.diagonal: loss against quadrature, gradient and Hessian against differences."""

import numpy as np
import pytest
from scipy import integrate

from rnnrepro.li import diagonal as D
from rnnrepro.li import targets as T

TH = np.array([0.8, -0.3, 0.4, 1.1, 0.6, 2.0])


def test_loss_matches_quadrature():
    tg = T.two_part(5.0)
    q = integrate.quad(lambda t: (D.kernel(TH, t) - tg(t)) ** 2, 0, 80, points=[5.0], limit=400)[0]
    assert D.loss(TH, tg) == pytest.approx(q, rel=1e-10)


def test_loss_infinite_for_nonpositive_rates():
    assert D.loss(np.array([1.0, -0.1]), T.two_part(5.0)) == np.inf


def test_gradient_and_hessian_match_finite_differences():
    tg = T.two_part(7.0)
    h = 1e-6
    E = np.eye(TH.size) * h
    g_fd = np.array([(D.loss(TH + e, tg) - D.loss(TH - e, tg)) / (2 * h) for e in E])
    H_fd = np.array([(D.grad(TH + e, tg) - D.grad(TH - e, tg)) / (2 * h) for e in E])
    assert np.allclose(D.grad(TH, tg), g_fd, atol=1e-7)
    assert np.allclose(D.hessian(TH, tg), H_fd, atol=1e-6)
    assert np.allclose(D.hessian(TH, tg), D.hessian(TH, tg).T)


def test_exact_fit_is_critical_with_zero_loss():
    tg = T.ExpSum([1.0, 2.0], [1.0, 3.0])
    th = np.array([1.0, 2.0, 1.0, 3.0])
    assert D.loss(th, tg) == pytest.approx(0.0, abs=1e-14)
    assert np.abs(D.grad(th, tg)).max() < 1e-14


def test_laplace_quad_matches_closed_form_for_gaussian():
    val = D.laplace_quad(lambda s: np.exp(-s * s), 1.0, 8.0)
    assert val == pytest.approx(float(T.GaussBump(8.0).moment(0, 1.0)), rel=1e-8)
