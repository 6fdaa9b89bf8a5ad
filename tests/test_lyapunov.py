import math

import pytest
import torch

from rnnrepro.core.cells import linear_step, lstm_concat_step, tanh_rnn_step
from rnnrepro.core.lyapunov import largest_lyapunov, reverse_jvp

torch.set_num_threads(1)
D = torch.float64


def rand(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=D)


def logistic4(x):  # logistic map r = 4 in Chebyshev form on [-1, 1]: x -> 1 - 2 x^2, exponent ln 2
    return 1 - 2 * x * x


def test_reverse_jvp_agrees_with_jacobian():
    W, b = rand(2, 3, 3), rand(2, 3, seed=1)
    f = lambda h: tanh_rnn_step(h, None, W, None, b)  # noqa: E731
    h, v = rand(2, 4, 3, seed=2), rand(2, 4, 3, seed=3)
    y, jv = reverse_jvp(f)(h, v)
    J = torch.autograd.functional.jacobian(lambda z: f(z.reshape(1, 1, 3).expand(2, 1, 3))[0, 0], h[0, 1])
    assert torch.allclose(jv[0, 1], J @ v[0, 1], atol=1e-14)
    assert torch.equal(y, f(h))
    const = torch.ones(2, 4, 3, dtype=D)
    assert not reverse_jvp(lambda z: const)(h, v)[1].any()  # f independent of h
    assert not reverse_jvp(lambda z: const + 0 * z)(h, v)[1].any()
    hg = h.clone().requires_grad_(True)  # works on a state that already requires grad
    assert torch.equal(reverse_jvp(f)(hg, v)[1], jv)


def test_linear_map_gives_log_spectral_radius():
    P = 4
    A = rand(P, 5, 5)
    rho = torch.linalg.eigvals(A).abs().amax(-1)
    target = torch.tensor([0.3, 0.9, 1.0, 1.4], dtype=D)  # includes contracting and expanding maps
    A = A * (target / rho)[:, None, None]
    lam = largest_lyapunov(lambda h: linear_step(h, None, A), rand(P, 2, 5, seed=1), n_steps=500)
    assert lam.shape == (P, 2) and lam.dtype == D
    assert torch.allclose(lam, target.log()[:, None].expand(P, 2), atol=1e-3, rtol=0)


def test_rotation_dilation_with_complex_eigenvalues():
    r, th = 0.8, 0.7
    A = r * torch.tensor([[[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]]], dtype=D)
    lam = largest_lyapunov(lambda h: linear_step(h, None, A), rand(1, 3, 2), n_steps=50, n_burn=0)
    assert torch.allclose(lam, torch.full((1, 3), math.log(r), dtype=D), atol=1e-12)


def test_logistic_map_r4_is_ln2():
    h0 = torch.linspace(-0.9, 0.9, 257, dtype=D)[:-1].reshape(1, 256, 1) + 1e-3
    lam = largest_lyapunov(logistic4, h0, n_steps=200, n_burn=20)
    assert abs(lam.mean().item() - math.log(2)) < 2e-3
    # a long run with the analytic tangent: every trajectory is close to ln 2
    lam_long = largest_lyapunov(None, h0, n_steps=2000, n_burn=20,
                                tangent=lambda x, v: (logistic4(x), -4 * x * v))
    assert (lam_long - math.log(2)).abs().max() < 0.02
    assert abs(lam_long.mean().item() - math.log(2)) < 5e-4


def test_contracting_fixed_point_and_log_growth():
    a = torch.tensor([[[0.5]], [[0.25]]], dtype=D)
    f = lambda h: torch.tanh(h @ a.mT)  # noqa: E731  fixed point 0 with slope a
    lam, growth = largest_lyapunov(f, torch.full((2, 3, 1), 0.5, dtype=D), n_steps=100, return_log_growth=True)
    assert growth.shape == (100, 2, 3)
    assert torch.allclose(lam, a.log().reshape(2, 1).expand(2, 3), atol=1e-6)


def test_lstm_concat_map_is_deterministic_and_seeded():
    P, B, H = 2, 3, 4
    g = 3.0  # large recurrent weights
    step = lstm_concat_step(None, g * rand(P, 4 * H, H), rand(P, 4 * H, seed=1), None)
    z0 = rand(P, B, 2 * H, seed=2)
    lam1 = largest_lyapunov(step, z0, n_steps=50, n_burn=10)
    lam2 = largest_lyapunov(step, z0, n_steps=50, n_burn=10)
    assert lam1.shape == (P, B) and torch.equal(lam1, lam2) and torch.isfinite(lam1).all()
    v = rand(P, B, 2 * H, seed=5)
    eps = 1e-6  # the default tangent against central differences
    fd = (step(z0 + eps * v) - step(z0 - eps * v)) / (2 * eps)
    assert torch.allclose(reverse_jvp(step)(z0, v)[1], fd, atol=1e-8)


def test_errors():
    h0 = torch.zeros(1, 2, 3, dtype=D)
    with pytest.raises(ValueError, match=r"\(P, B, H\)"):
        largest_lyapunov(torch.tanh, h0[0], 10)
    with pytest.raises(ValueError, match="n_steps"):
        largest_lyapunov(torch.tanh, h0, 0)
    with pytest.raises(ValueError, match="v0"):
        largest_lyapunov(torch.tanh, h0, 5, v0=torch.ones(1, 2, 2, dtype=D))
    with pytest.raises(ValueError, match="changed the state shape"):
        largest_lyapunov(lambda h: h.expand(2, 2, 3) * 1.0, h0, 5)
    with pytest.raises(ValueError, match="give the map"):
        largest_lyapunov(None, h0, 5)


def test_driven_map_uses_each_input_once():
    # h_{t+1} = x_t h_t (1-D): the exponent over the averaged steps is the mean of log x_t
    x = torch.exp(torch.linspace(-1.0, 0.5, 30, dtype=torch.float64)).view(30, 1, 1, 1)
    h0 = torch.ones(1, 1, 1, dtype=torch.float64)
    expected = torch.log(x[10:]).mean()
    lam = largest_lyapunov(lambda h, xt: xt * h, h0, n_steps=20, n_burn=10, inputs=x)
    assert torch.allclose(lam, expected.expand(1, 1))
    lam_t = largest_lyapunov(None, h0, n_steps=20, n_burn=10, inputs=x, tangent=lambda h, v, xt: (xt * h, xt * v))
    assert torch.allclose(lam_t, lam)
    with pytest.raises(ValueError, match="n_burn \\+ n_steps"):
        largest_lyapunov(lambda h, xt: xt * h, h0, n_steps=5, n_burn=10, inputs=x)
