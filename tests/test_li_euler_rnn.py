"""Tests of rnnrepro.li.euler_rnn: analytic gradients, kernels, inits and the training loop."""

import numpy as np
import pytest

from rnnrepro.li import euler_rnn as E


def _fd(fun, params, name, idx, h=1e-6):
    q = {k: v.copy() for k, v in params.items()}
    q[name][idx] += h
    lp = fun(q)[0]
    q[name][idx] -= 2 * h
    return (lp - fun(q)[0]) / (2 * h)


@pytest.fixture
def setup():
    rng = np.random.default_rng(0)
    return E.random_init(6, rng), np.sin(0.3 * np.arange(37)), rng


def test_kernel_loss_gradient(setup):
    p, rho, _ = setup
    f = lambda q: E.kernel_loss_grad(q, rho, 0.1)
    g = f(p)[1]
    for name, idx in (("W", (1, 2)), ("U", (3,)), ("c", (0,))):
        assert g[name][idx] == pytest.approx(_fd(f, p, name, idx), rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("act", ["linear", "tanh"])
def test_sample_path_gradient(setup, act):
    p, rho, rng = setup
    x = rng.normal(size=(5, 37))
    f = lambda q: E.sample_path_loss_grad(q, rho, 0.1, x, act)
    g = f(p)[1]
    for name, idx in (("W", (2, 0)), ("U", (1,)), ("c", (4,))):
        assert g[name][idx] == pytest.approx(_fd(f, p, name, idx), rel=1e-6, abs=1e-9)


def test_kernel_by_doubling_matches_powers(setup):
    p, _, _ = setup
    P = np.eye(6) + 0.1 * p["W"]
    ref = [p["c"] @ np.linalg.matrix_power(P, j) @ p["U"] for j in range(13)]
    assert np.allclose(E.kernel(p, 0.1, 13), ref, atol=1e-13)


def test_structured_init_fits_exponential():
    p = E.structured_init(5, np.random.default_rng(1))
    k = E.kernel(p, 0.01, 100)
    assert np.allclose(k, (1 - 0.01) ** np.arange(100))


def test_train_gd_adam_clip_and_smooth():
    f = lambda q, k: (float(q["x"] @ q["x"]), {"x": 2 * q["x"]})
    for method, lr in (("gd", 0.1), ("adam", 0.1)):
        _, L = E.train({"x": np.ones(3)}, f, 200, lr, method=method)
        assert L[-1] < 1e-3 * L[0]
    _, L = E.train({"x": np.ones(3)}, f, 200, 0.1, stop_below=0.5)
    assert L[-1] < 0.5 and L.size < 200
    _, L = E.train({"x": np.ones(3)}, f, 2, 0.1, clip=1e-3)
    assert L[1] == pytest.approx(L[0], rel=1e-2)
    assert np.allclose(E.smooth(np.arange(5.0), 2), [0, 0.5, 1.5, 2.5, 3.5])


def test_train_options_are_keyword_only():
    f = lambda q, k: (float(q["x"] @ q["x"]), {"x": 2 * q["x"]})
    with pytest.raises(TypeError):
        E.train({"x": np.ones(3)}, f, 2, 0.1, "adam")
