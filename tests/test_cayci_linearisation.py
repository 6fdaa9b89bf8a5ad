import torch

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import linearisation as lin


def test_linear_error_second_order_and_directions():
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(3, 4, 2, 0)
    c, w, U = E.symmetric_init(16, 2, 0.5, [0])
    dw, dU = lin.random_ball(w.shape, 2, 1.0, 0)
    assert (dU.norm(dim=-1) - 0.25).abs().max() < 1e-12 and dw.abs().max() <= 0.25
    e1 = lin.linearisation_error(X, w, U, c, w=w + dw, U=U + dU, act=act)
    e2 = lin.linearisation_error(X, w, U, c, w=w + dw / 2, U=U + dU / 2, act=act)
    assert 3 < float(e1 / e2) < 5                     # quadratic in the displacement
    a = lin.adversarial_w(X[:1], w, U, c, act)
    assert torch.all(a[:, 8:] == 0) and a.max() == 0.25
