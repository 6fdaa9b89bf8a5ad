import math

import pytest
import torch

from rnnrepro.cayci import bounds as B
from rnnrepro.cayci import elman as E
from rnnrepro.cayci import lipschitz as lip


def test_worst_case_attains_bound():
    torch.set_default_dtype(torch.float64)
    tanh = E.activation("tanh")
    g = lip.worst_case_u_gradient(10, 0.9, tanh)
    assert torch.allclose(g, torch.tensor([float(B.mu0(0.9, t)) for t in range(1, 11)]), rtol=1e-13)
    assert lip.worst_case_u_gradient(30, 1.5, tanh, offset=1e-3)[-1] < 0.1 * g.new_tensor(B.mu0(1.5, 30))
    X, w, U = lip.worst_case_input(5, 1.0, E.activation("logistic"))
    assert torch.allclose(X.norm(dim=-1), torch.ones(1, 5))
    with pytest.raises(ValueError):
        lip.worst_case_input(5, 3.0, tanh, offset=2.0)


def test_ball_point_and_norms():
    w, U = lip.ball_point(64, 2, 0.5, 1.0, 0)
    assert ((w.abs() - 0.5).abs() <= 1 / math.sqrt(64) + 1e-12).all()
    X = E.sphere_inputs(3, 4, 2, 0)
    g = lip.gradient_norms(X, w, U, E.activation("tanh"))
    assert g.shape == (4,) and (g > 0).all()


def test_gradient_norm_quantiles():
    torch.set_default_dtype(torch.float64)
    w, U = lip.ball_point(32, 2, 0.5, 1.0, 0)
    X = E.sphere_inputs(3, 4, 2, 0)
    q = lip.gradient_norm_quantiles(X, w, U, E.activation("tanh"))
    assert q.shape == (3, 4) and (q[0] <= q[2]).all()
    assert torch.allclose(lip.gradient_norms(X, w, U, E.activation("tanh")),
                          lip.gradient_norm_quantiles(X, w, U, E.activation("tanh"), (1.0,))[0])


def test_rms_gradient_against_autograd_of_the_output():
    torch.set_default_dtype(torch.float64)
    tanh = E.activation("tanh")
    c, w0, U0 = E.symmetric_init(8, 2, 1.5, [0])
    X = E.sphere_inputs(3, 5, 2, 1)
    rms = lip.rms_gradient(X, w0[0], U0[0], tanh)
    ref = torch.zeros(5)
    for j in range(3):
        for t in range(5):
            w, U = w0[0].clone().requires_grad_(), U0[0].clone().requires_grad_()
            F = E.outputs(X[j:j + 1], w, U, c[0], tanh)[0, t]
            gw, gu = torch.autograd.grad(F, (w, U))
            ref[t] += (gw.square().sum() + gu.square().sum()) / 3
    assert rms.shape == (5,) and torch.allclose(rms, ref.sqrt(), rtol=1e-12)


def test_recurrent_term_gradient_norms_against_autograd():
    torch.set_default_dtype(torch.float64)
    for act in (E.activation("tanh"), E.activation("logistic")):
        w0, U0 = lip.ball_point(6, 3, 0.7, 1.0, 2)
        X = E.sphere_inputs(2, 4, 3, 5)
        got = lip.recurrent_term_gradient_norms(X, w0, U0, act)
        ref = torch.zeros(4)
        for j in range(2):
            for t in range(4):
                for i in range(6):
                    w, U = w0.clone().requires_grad_(), U0.clone().requires_grad_()
                    gamma = w[i] * E.hidden(X[j:j + 1], w, U, act)[0, t, i]
                    gw, gu = torch.autograd.grad(gamma, (w, U))
                    ref[t] = max(ref[t], (gw.square().sum() + gu.square().sum()).sqrt())
        assert got.shape == (4,) and torch.allclose(got, ref, rtol=1e-12)
