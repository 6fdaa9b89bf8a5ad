import torch

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
