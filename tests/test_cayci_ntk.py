import math

import torch
from scipy import integrate

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import ntk


def test_kernels_psd_and_symmetric_pairs():
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(4, 5, 2, 0)
    c, w, U = E.symmetric_init(16, 2, 0.5, [0])
    K = ntk.feature_kernel(X, w, U, act)[0]
    K_half = ntk.feature_kernel(X, w[:, :8], U[:, :8], act)[0]
    assert torch.allclose(K, K_half) and torch.allclose(K, K.T)
    kap = ntk.limit_kernel(X, act, 0.5, 64)
    assert torch.linalg.eigvalsh(kap).min() > -1e-12
    assert (ntk.limit_kernel(X, act, 0.5, 64, drop_k0=True) - kap).abs().max() > 0.1


def test_kernel_diagonal_at_t1_against_quadrature():
    """κ_1(X, X) = E[σ'(u₀ᵀX₀)²] ‖X₀‖² (no h term: h₀ = 0); for ‖X₀‖ = 1, u₀ᵀX₀ ~ N(0, 1)."""
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(5, 1, 2, 3)
    ref = integrate.quad(lambda z: math.cosh(z) ** -4 * math.exp(-z * z / 2) / math.sqrt(2 * math.pi), -30, 30)[0]
    assert abs(ntk.kernel_diagonal(X, act, 0.7, 2 ** 12, chunk=2) - ref) < 1e-4
    assert ntk.kernel_diagonal(X, act, 0.7, 2 ** 8, drop_k0=True) == 0.0


def test_kernel_diagonal_is_the_mean_of_the_limit_diagonal():
    torch.set_default_dtype(torch.float64)
    act = E.activation("logistic")
    X = E.sphere_inputs(7, 6, 3, 1)
    full = float(ntk.limit_kernel(X, act, 0.5, 64, 2).diagonal().mean())
    assert abs(ntk.kernel_diagonal(X, act, 0.5, 64, 2, chunk=3) - full) < 1e-14
