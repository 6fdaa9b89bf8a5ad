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


def test_recurrent_term_hessian_against_autograd_and_product_rule():
    torch.set_default_dtype(torch.float64)
    act = E.activation("logistic")
    X = E.sphere_inputs(2, 4, 3, 1)
    _, w, U = E.symmetric_init(4, 3, 0.9, [2])
    N = sm.recurrent_term_hessian_norms(X, w[0], U[0], act)
    assert N.shape == (4, 2)

    def h(theta):
        return E.hidden(X[:1], theta[:1], theta[1:][None], act)[0, -1, 0]

    theta = torch.cat([w[0, 1:2], U[0, 1]])
    H_gamma = torch.autograd.functional.hessian(lambda th: th[0] * h(th), theta)
    assert float(H_gamma.norm()) == pytest.approx(float(N[1, 0]), rel=1e-12)
    g, Hh = torch.autograd.functional.jacobian(h, theta), torch.autograd.functional.hessian(h, theta)
    e = torch.zeros_like(theta)
    e[0] = 1.0
    product_rule = theta[0] * Hh + torch.outer(e, g) + torch.outer(g, e)
    assert torch.allclose(H_gamma, product_rule, atol=1e-13)
