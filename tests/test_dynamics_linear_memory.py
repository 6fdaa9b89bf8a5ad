import math

import pytest
import torch

from rnnrepro.dynamics import linear_memory as lm
from rnnrepro.dynamics import systems


def system(P=2, n=5, radius=0.8, seed=0):
    W = systems.with_spectral_radius(P, n, radius, seed)
    gen = torch.Generator().manual_seed(seed + 1)
    U, c = torch.randn(2, P, n, generator=gen, dtype=torch.float64)
    return W, U, c


def test_kernel_of_a_scalar_system():
    W = torch.tensor([[[0.5]]], dtype=torch.float64)
    k = lm.memory_kernel(W, torch.tensor([[2.0]], dtype=torch.float64), torch.tensor([[3.0]], dtype=torch.float64), 4)
    assert k.tolist() == [[6.0, 3.0, 1.5, 0.75]]


def test_run_is_the_convolution_with_the_kernel():
    W, U, c = system()
    x = torch.randn(12, 2, 3, generator=torch.Generator().manual_seed(3), dtype=torch.float64)
    kernel = lm.memory_kernel(W, U, c, 12)
    y = lm.run(W, U, c, x)
    assert y.shape == (12, 2, 3)
    assert torch.allclose(y, lm.convolve(kernel, x), atol=1e-12, rtol=0)


def test_shifted_kernel_is_not_the_convolution():
    W, U, c = system()
    x = torch.randn(8, 2, 3, generator=torch.Generator().manual_seed(4), dtype=torch.float64)
    kernel = lm.memory_kernel(W, U, c, 9)
    assert (lm.run(W, U, c, x) - lm.convolve(kernel[:, 1:], x)).abs().max() > 1e-3


def test_decay_rate_recovers_the_spectral_radius():
    assert torch.allclose(lm.decay_rate(0.7 ** torch.arange(50.0).view(1, -1), 5, 30, 10), torch.tensor([0.7]))
    W, U, c = system(P=3, n=6, radius=0.85, seed=2)
    rate = lm.decay_rate(lm.memory_kernel(W, U, c, 3000), 800, 2400, 400)
    assert torch.allclose(rate, torch.full((3,), 0.85, dtype=torch.float64), atol=2e-3)
    edge = lm.decay_rate(lm.memory_kernel(W / 0.85, U, c, 3000), 800, 2400, 400)
    assert (edge - 1.0).abs().max() < 2e-3


def test_single_rate_fit():
    assert math.isclose(lm.single_rate_fit(0.95 ** torch.arange(500, dtype=torch.float64), 300), 0.95)
    target = lm.power_law_kernel(20000, 1.5)
    gaps = [1 - lm.single_rate_fit(target, K) for K in (1000, 10000)]
    assert all(0.95 < g * K / 4.5 < 1.0 for g, K in zip(gaps, (1000, 10000)))   # 1 - λ* ≈ 3α/K


def test_bad_input():
    W, U, c = system()
    with pytest.raises(ValueError):
        lm.memory_kernel(W, U[:, :3], c, 5)
    with pytest.raises(ValueError):
        lm.memory_kernel(W, U, c, 0)
    with pytest.raises(ValueError):
        lm.run(W, U, c, torch.zeros(4, 3, 1))
    with pytest.raises(ValueError):
        lm.convolve(torch.zeros(2, 3), torch.zeros(5, 2, 1))
    with pytest.raises(ValueError):
        lm.decay_rate(torch.ones(1, 10), 5, 8, 5)
    with pytest.raises(ValueError):
        lm.power_law_kernel(1, 1.0)
    with pytest.raises(ValueError):
        lm.single_rate_fit(lm.power_law_kernel(10, 1.0), 11)


def test_max_state_norm_against_the_geometric_series_and_a_plain_loop():
    # W = λI with a constant input: ||h_t|| = ||U|| (1 − λ^t)/(1 − λ), largest at the last step
    lam, T = torch.tensor([0.5, 0.9]), 60
    W = lam.view(2, 1, 1) * torch.eye(3, dtype=torch.float64)
    U = torch.tensor([[3.0, 0.0, 4.0], [1.0, 2.0, 2.0]], dtype=torch.float64)
    top = lm.max_state_norm(W, U, torch.ones(T, 2, 1, dtype=torch.float64))
    want = U.norm(dim=1) * (1 - lam.double() ** T) / (1 - lam.double())
    assert torch.allclose(top[:, 0], want, rtol=1e-12)
    # a non-normal W and signed inputs against numpy, step by step (the largest norm is not at the end)
    import numpy as np

    Wn = np.array([[0.9, 2.0], [0.0, 0.9]])
    Un, xs = np.array([0.0, 1.0]), np.where(np.arange(40) < 20, 1.0, -1.0)
    h, norms = np.zeros(2), []
    for x_t in xs:
        h = Wn @ h + Un * x_t
        norms.append(np.linalg.norm(h))
    got = lm.max_state_norm(torch.tensor(Wn)[None], torch.tensor(Un)[None], torch.tensor(xs).view(40, 1, 1))
    assert float(got[0, 0]) == pytest.approx(max(norms), rel=1e-12) and max(norms) > np.linalg.norm(h)
    with pytest.raises(ValueError, match="need W"):
        lm.max_state_norm(W, U[:, :2], torch.ones(T, 2, 1, dtype=torch.float64))
