import math

import pytest
import torch

from rnnrepro.cayci import elman as E


@pytest.fixture(autouse=True)
def _f64():
    torch.set_default_dtype(torch.float64)


def test_symmetric_init_zero_output_and_shapes():
    c, w, U = E.symmetric_init(6, 3, 0.7, [0, 1])
    assert c.shape == (2, 6) and w.shape == (2, 6) and U.shape == (2, 6, 3)
    assert torch.equal(c[:, :3], -c[:, 3:]) and torch.equal(U[:, :3], U[:, 3:])
    assert torch.all(w.abs() == 0.7)
    X = E.sphere_inputs(4, 5, 3, 0)
    assert E.outputs(X, w, U, c, E.activation("tanh")).abs().max() < 1e-14
    c2, w2, U2 = E.symmetric_init(6, 3, 0.7, [0], mirrored=False)
    assert E.outputs(X, w2, U2, c2, E.activation("tanh")).abs().max() > 1e-3


def test_bad_input():
    with pytest.raises(ValueError, match="even"):
        E.symmetric_init(5, 2, 0.5, [0])
    with pytest.raises(ValueError, match="unknown activation"):
        E.activation("relu")
    with pytest.raises(ValueError, match="shapes"):
        E.hidden(torch.zeros(2, 3, 2), torch.zeros(4), torch.zeros(4, 3), E.activation("tanh"))


@pytest.mark.parametrize("name", ["tanh", "logistic"])
def test_activation_derivatives(name):
    a = E.activation(name)
    z = torch.linspace(-3, 3, 101).requires_grad_()
    d1 = torch.autograd.grad(a.f(z).sum(), z, create_graph=True)[0]
    d2 = torch.autograd.grad(d1.sum(), z)[0]
    assert torch.allclose(d1, a.df(z)) and torch.allclose(d2, a.d2f(z))
    assert torch.allclose(a.df_of_f(a.f(z)), a.df(z))
    assert a.df(z).abs().max() <= a.s1 + 1e-12 and a.d2f(z).abs().max() <= a.s2 + 1e-12


def test_grad_features_match_autograd_and_tangent():
    act = E.activation("tanh")
    _, w, U = E.symmetric_init(4, 2, 0.5, [3])
    w = w + 0.05
    X = E.sphere_inputs(2, 4, 2, 1)
    gw, gu = E.grad_features(X, w, U, act)
    wq, Uq = w.clone().requires_grad_(), U.clone().requires_grad_()
    aw, au = torch.autograd.grad(E.hidden(X[1:], wq, Uq, act)[0, 0, 3].sum(), (wq, Uq))
    assert torch.allclose(aw, gw[0, 1, 3], atol=1e-14) and torch.allclose(au, gu[0, 1, 3], atol=1e-14)
    vw, vu = torch.randn(1, 4), torch.randn(1, 4, 2)
    tan = E.tangent(X, w, U, vw, vu, act)
    assert torch.allclose(tan, gw * vw[:, None, None, :] + (gu * vu[:, None, None]).sum(-1), atol=1e-14)
    gw0, gu0 = E.grad_features(X, w, U, act, drop_k0=True)
    assert torch.allclose(gu0[..., 0, :, :], torch.zeros_like(gu0[..., 0, :, :]))   # t = 1 has only k = 0


def test_outputs_scale():
    act = E.activation("tanh")
    c, w, U = E.symmetric_init(4, 2, 0.5, [0], mirrored=False)
    X = E.sphere_inputs(3, 2, 2, 0)
    assert torch.allclose(E.outputs(X, w, U, c, act, scale=1.0) / math.sqrt(4) * 1.0,
                          E.outputs(X, w, U, c, act) * 1.0)
