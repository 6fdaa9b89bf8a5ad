import math

import torch

from rnnrepro.dynamics import systems


def test_spectral_norm_and_radius():
    W = systems.with_spectral_norm(3, 6, 0.7, seed=1)
    assert W.shape == (3, 6, 6) and W.dtype == torch.float64
    assert torch.allclose(torch.linalg.matrix_norm(W, ord=2), torch.full((3,), 0.7))
    A = systems.with_spectral_radius(2, 5, 1.3, seed=2)
    assert torch.allclose(systems.spectral_radius(A), torch.full((2,), 1.3))
    assert torch.equal(systems.with_spectral_norm(1, 4, 1.0, 9), systems.with_spectral_norm(1, 4, 1.0, 9))


def test_logistic_map():
    f = systems.logistic_map(4.0)
    x = torch.tensor([[[0.5]]])
    assert f(x).item() == 1.0
    assert math.isclose(f(torch.tensor([[[0.25]]])).item(), 0.75)
