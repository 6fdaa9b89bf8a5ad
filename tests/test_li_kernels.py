"""Tests of rnnrepro.li.kernels: RNN kernels and the model identities."""

import numpy as np
import pytest

from rnnrepro.li import kernels as K


@pytest.fixture
def rnn():
    return K.random_stable(5, np.random.default_rng(0))


def test_random_stable_is_stable(rnn):
    W, U, c = rnn
    assert np.linalg.eigvals(W).real.max() < 0 and U.shape == c.shape == (5,)


def test_continuous_kernel_matches_expm(rnn):
    t = np.linspace(0, 5, 7)
    assert np.allclose(K.continuous_kernel(*rnn, t), K.continuous_kernel_expm(*rnn, t), atol=1e-12)


def test_euler_kernel_is_first_order_and_trapezoid_second(rnn):
    errs, errs2 = [], []
    for h in (0.1, 0.05):
        n = int(round(5 / h))
        ref = K.continuous_kernel(*rnn, h * np.arange(n))
        errs.append(np.abs(K.euler_kernel(*rnn, h, n) - ref).max())
        errs2.append(np.abs(K.trapezoid_kernel(*rnn, h, n) - ref).max())
    assert 1.7 < errs[0] / errs[1] < 2.3 and 3.5 < errs2[0] / errs2[1] < 4.5


def test_simulation_output_is_the_kernel_convolution(rnn):
    W, U, c = rnn
    dt, x = 0.1, np.random.default_rng(1).normal(size=40)
    k = K.euler_kernel(W, U, c, dt, 40)
    assert K.simulate_euler(W, U, c, x, dt)[-1] == pytest.approx(dt * k @ x[::-1], rel=1e-12)


def test_white_noise_mc_matches_closed_form_and_sign_input():
    rng = np.random.default_rng(2)
    km, kt = rng.normal(size=30), rng.normal(size=30)
    mean, se = K.white_noise_mc(km, kt, 0.1, 20000, rng)
    assert abs(mean - K.white_noise_loss(km, kt, 0.1)) < 4 * se
    d = rng.normal(size=100)
    assert K.sign_input_ratio(d, 0.1, 1e-8) == pytest.approx(1.0)
