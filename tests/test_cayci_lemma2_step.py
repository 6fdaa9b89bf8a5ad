import pytest
import sympy as sp
import torch

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import lemma2_step as L


def _exact_ratio(W0, u0, x0, x1):
    """The printed step's LHS/RHS for H_2 = tanh(W tanh(u x0) + u x1), d = 1, in 40-digit arithmetic."""
    W, u = sp.symbols("W u", real=True)
    H2 = sp.tanh(W * sp.tanh(u * x0) + u * x1)
    th = [W, u]
    sub = {W: W0, u: u0}
    gH = [sp.diff(H2, v).subs(sub) for v in th]
    HH, HG = sp.hessian(H2, th).subs(sub), sp.hessian(W * H2, th).subs(sub)
    lhs = sum(HG[i, j] ** 2 for i in range(2) for j in range(2))
    rhs = 2 * sum(g ** 2 for g in gH) + 2 * W0 ** 2 * sum(HH[i, j] ** 2 for i in range(2) for j in range(2))
    return float(sp.N(lhs / rhs, 40))


def test_step_ratio_against_exact_symbolic_hessian():
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    x0, x1, W0, u0 = sp.Rational(3, 5), sp.Rational(-4, 5), sp.Rational(1, 2), sp.Rational(-7, 4)
    exact = _exact_ratio(W0, u0, x0, x1)
    assert exact > 1.9                                   # the printed step fails by almost 2
    X = torch.tensor([[[0.6], [-0.8]]])
    w, U = torch.tensor([0.5]), torch.tensor([[-1.75]])
    assert float(L.step_ratio(X, w, U, act)[0, 0]) == pytest.approx(exact, rel=1e-12)
    assert float(L.step_ratio_fd(X, w, U, act)[0, 0]) == pytest.approx(exact, rel=1e-7)


def test_finite_differences_agree_with_exact_hessians_and_corrected_step_holds():
    torch.set_default_dtype(torch.float64)
    for name, al in (("tanh", 1.5), ("logistic", 0.5)):
        act = E.activation(name)
        X = E.sphere_inputs(4, 6, 3, 1)
        _, w, U = E.symmetric_init(8, 3, al, [0])
        exact = L.step_ratio(X, w[0], U[0], act)
        assert exact.shape == (8, 4)
        assert torch.allclose(L.step_ratio_fd(X, w[0], U[0], act), exact, rtol=1e-6)
        assert float(L.step_ratio(X, w[0], U[0], act, corrected=True).max()) <= 1.0


def test_shapes_are_checked():
    act = E.activation("tanh")
    with pytest.raises(ValueError):
        L.step_ratio(torch.zeros(2, 3, 2), torch.zeros(4), torch.zeros(4, 3), act)
