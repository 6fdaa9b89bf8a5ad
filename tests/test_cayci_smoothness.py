import pytest
import torch

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import smoothness as sm


def test_hessian_norms_against_autograd():
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(2, 3, 2, 0)
    _, w, U = E.symmetric_init(4, 2, 0.7, [0])
    N = sm.hessian_norms(X, w[0], U[0], act)
    assert N.shape == (4, 2)

    def f(theta):
        return E.hidden(X[1:], theta[:1], theta[1:][None], act)[0, -1, 0]

    Hs = torch.autograd.functional.hessian(f, torch.cat([w[0, 2:3], U[0, 2]]))
    assert float(Hs.norm()) == pytest.approx(float(N[2, 1]), rel=1e-12)
    with pytest.raises(ValueError):
        sm.hessian_norms(X, w[0], U[0, :, :1], act)
