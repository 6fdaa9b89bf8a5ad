import math

import numpy as np
import pytest
import torch

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import pgd


@pytest.fixture(autouse=True)
def _f64():
    torch.set_default_dtype(torch.float64)


def test_loss_and_grad_match_autograd():
    act = E.activation("tanh")
    X = E.sphere_inputs(5, 4, 2, 0)
    c, w, U = E.symmetric_init(6, 2, 0.5, [0, 1])
    w = w + 0.1
    Y = torch.randn(2, 5, 4)
    scale = torch.tensor([6 ** -0.5, 1 / 6])
    L, gw, gU = pgd.loss_and_grad(X, Y, w, U, c=c, act=act, scale=scale)
    wq, Uq = w.clone().requires_grad_(), U.clone().requires_grad_()
    F = torch.stack([E.outputs(X, wq[b], Uq[b], c[b], act, scale=float(scale[b])) for b in range(2)])
    L2 = ((F - Y) ** 2).sum(-1).mean(-1)
    aw, au = torch.autograd.grad(L2.sum(), (wq, Uq))
    assert torch.allclose(L, L2) and torch.allclose(gw, aw, atol=1e-14) and torch.allclose(gU, au, atol=1e-14)


def test_train_projection_and_average():
    act = E.activation("tanh")
    X = E.sphere_inputs(4, 3, 2, 0)
    c, w, U = E.symmetric_init(8, 2, 0.5, [0, 0])
    Y = torch.ones(2, 4, 3)
    r = pgd.train(X, Y, c, w, U, act=act, eta=[0.5, 0.5], taus=[20, 5], rho_w=[0.1, math.inf], rho_u=[0.1, math.inf])
    assert np.nanmax(r.disp_w[0]) <= 0.1 + 1e-12 and np.nanmax(r.disp_u[0]) <= 0.1 + 1e-12
    assert np.isnan(r.loss[1, 5:]).all() and not np.isnan(r.loss[1, :5]).any()
    assert r.trajectory_average()[0] == pytest.approx(np.mean(r.loss[0]))
    with pytest.raises(ValueError):
        pgd.train(X, Y, c, w, U, act=act, eta=0.1, taus=0)
