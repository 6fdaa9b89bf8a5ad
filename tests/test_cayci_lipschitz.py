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
