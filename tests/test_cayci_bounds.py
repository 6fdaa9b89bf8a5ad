import math

import pytest

from rnnrepro.cayci import bounds as B

TANH = dict(s0=1.0, s1=1.0, s2=4 / (3 * math.sqrt(3)))


def test_memory_functions():
    assert B.mu0(0.5, 3) == pytest.approx(1.75)
    assert B.mu1(0.5, 3) == pytest.approx(1 + 1 + 0.75)
    assert B.mu_T(1.0, 10) == pytest.approx(550)
    assert B.mu_T(0.5, 200) <= (1 - 0.5) ** -3


def test_lipschitz_printed_is_square_of_corrected():
    s = B.Setting(**TANH, alpha=0.5, d=2, T=5)
    for t in (1, 3, 5):
        assert B.lipschitz(t, 0.6, s, printed=True) == pytest.approx(B.lipschitz(t, 0.6, s) ** 2)
    log = B.Setting(1.0, 0.25, math.sqrt(3) / 18, alpha=0.5, d=2, T=1)
    assert B.lipschitz(1, 0.5, log, printed=True) == pytest.approx(0.125)


def test_calculator_reference_and_exponents():
    s = B.Setting(**TANH, alpha=0.5, d=2, T=10, n=100, delta=0.1)
    m, tau = B.thm1_requirements(0.1, s, printed=True)
    assert m == pytest.approx(4.16e12, rel=0.01) and tau == pytest.approx(2.22e12, rel=0.01)   # study §2.8
    m1, _ = B.thm1_requirements(1e-6, s)
    m2, _ = B.thm1_requirements(1e-7, s)
    assert math.log10(m2 / m1) == pytest.approx(2, abs=1e-3)
    a, t0, eta = B.thm2_requirements(1e-6, s)
    b, t1, _ = B.thm2_requirements(1e-7, s)
    assert math.log10(b / a) == pytest.approx(3, abs=0.02) and math.log10(t1 / t0) == pytest.approx(3, abs=0.02)
    assert B.thm1_rhs(1e4, 1e4, s) > 1


def test_other_bounds_positive_and_errors():
    s = B.Setting(**TANH, alpha=0.5, d=2, T=8)
    assert B.prop3_rhs(8, 256, 0.1, s) > 0 and B.prop5_rhs(256, s) > B.prop3_rhs(8, 256, 0.1, s)
    assert B.prop4_rhs(8, 64, 0.25, s) > B.prop4_rhs(8, 256, 0.25, s)
    assert B.with_(s, T=4).T == 4
    with pytest.raises(ValueError):
        B.Setting(**TANH, alpha=-1, d=2, T=8)
    with pytest.raises(ValueError):
        B.thm1_requirements(0.0, s)
    with pytest.raises(ValueError):
        B.thm2_requirements(-1.0, s)


def test_cor1_rhs_against_the_printed_formula_at_T1():
    # T = 1: μ₀ = μ₁ = 1, so L_1 = σ₁√(1+σ₀²) = √2 (tanh); the paper's Cor. 1 expanded by hand
    s = B.Setting(**TANH, alpha=0.5, d=2, T=1, n=10, delta=0.1)
    m, tau = 100.0, 400.0
    am, L, s2 = 0.6, math.sqrt(2), TANH["s2"]
    beta = B.smoothness(1, am, s)
    Lam, gam = math.sqrt(2) * (2 + am * L), math.sqrt(2) * (L + am * beta)
    phi = L * math.sqrt(2) + 2.0                       # F^max(ρ = (1, 1)) + y^max = σ₁μ₀(ασ₁)(ν̄_u + σ₀ν̄_w)
    err = L * math.sqrt(2) * math.sqrt(math.log(2 * 1 * 10 / 0.1)) + 2 * 2 * (s2 * Lam ** 2 + gam) + 2 * beta * 2
    ref = (2 / math.sqrt(tau) * (2 + L ** 2 * phi ** 2) + 4 * phi / math.sqrt(m) * err
           + 6 / m * (Lam ** 2 * s2 + gam) * 2)
    assert B.cor1_rhs(m, tau, s) == pytest.approx(ref, rel=1e-12)
    assert B.cor1_rhs(m, tau, s) > B.thm1_rhs(m, tau, s)


def test_thm1_requirements_fails_when_the_fixed_point_runs_away():
    s = B.Setting(1.0, 1.0, 0.77, 0.5, 2, 10, n=100, delta=0.1)
    with pytest.raises(RuntimeError, match="ran away"):
        B.thm1_requirements(0.1, s, iters=1)
    assert B.thm1_requirements(0.1, s, iters=100)[0] > 0
