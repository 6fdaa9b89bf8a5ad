import mpmath
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


def _exact_spectral(act_name, alpha, r):
    """‖∇²(W H_2)‖₂ on the tight instance, from a 40-digit symbolic Hessian in (W, u₁, u₂) and its eigenvalues."""
    W, u1, u2 = sp.symbols("W u1 u2", real=True)
    f = sp.tanh if act_name == "tanh" else (lambda z: 1 / (1 + sp.exp(-z)))
    r_, al = sp.nsimplify(r), sp.nsimplify(alpha)
    a = -al * f(r_) / r_
    x1 = (a, sp.sqrt(1 - a ** 2))
    gamma2 = W * f(W * f(u1) + u1 * x1[0] + u2 * x1[1])      # X_0 = e₁, so the first pre-activation is u₁
    Hs = sp.hessian(gamma2, [W, u1, u2]).subs({W: al, u1: r_, u2: 0})
    with mpmath.workdps(40):                              # not a global setting for later tests
        M = mpmath.matrix([[mpmath.mpf(str(sp.N(Hs[i, j], 40))) for j in range(3)] for i in range(3)])
        return float(max(abs(v) for v in mpmath.eigsy(M)[0]))


@pytest.mark.parametrize("name", ["tanh", "logistic"])
def test_tight_instance_spectral_norm_against_symbolic_hessian(name):
    torch.set_default_dtype(torch.float64)
    act = E.activation(name)
    X, w, U = L.tight_instance(0.01, 3.0, act)
    assert X.shape == (1, 2, 2) and float(X[0].norm(dim=-1).max()) == pytest.approx(1.0, abs=1e-15)
    z2 = float(w[0] * act.f(U[0] @ X[0, 0]) + U[0] @ X[0, 1])
    assert abs(z2) < 1e-15                                   # the second pre-activation is zero
    exact = _exact_spectral(name, 0.01, 3.0)
    assert float(L.recurrent_term_hessian_spectral(X, w, U, act)[0, 0]) == pytest.approx(exact, rel=1e-12)
    assert float(L.recurrent_term_hessian_spectral(X, w, U, act, fd=1e-5)[0, 0]) == pytest.approx(exact, rel=1e-7)


def test_tight_instance_reaches_the_limit_ratio():
    """As α → 0 and r → ∞ the spectral norm tends to σ₁(σ₀ + √(1 + σ₀²)) = 1 + √2 for tanh, and to
    (1 + √2)/4 for the logistic function (σ₀ = 1, σ₁ = 1/4): above √2 L_t = 2σ₁ by (1 + √2)/2."""
    torch.set_default_dtype(torch.float64)
    for name, limit in (("tanh", 1 + 2 ** 0.5), ("logistic", (1 + 2 ** 0.5) / 4)):
        act = E.activation(name)
        X, w, U = L.tight_instance(1e-7, 30.0, act)
        assert float(L.recurrent_term_hessian_spectral(X, w, U, act)[0, 0]) == pytest.approx(limit, rel=1e-5)


def test_tight_instance_refuses_bad_input():
    act = E.activation("tanh")
    with pytest.raises(ValueError, match="alpha > 0"):
        L.tight_instance(0.0, 3.0, act)
    with pytest.raises(ValueError, match="larger r"):
        L.tight_instance(5.0, 1.0, act)
    with pytest.raises(ValueError):
        L.recurrent_term_hessian_spectral(torch.zeros(2, 3, 2), torch.zeros(4), torch.zeros(4, 3), act)
