import math
from fractions import Fraction as F

import numpy as np
import sympy as sp

from rnnrepro.cayci import bounds
from rnnrepro.cayci import errata_exact as E


def test_rho_degrees_of_eq18_are_two_and_three():
    assert E.thm1_rho_degrees() == (2, 3)


def test_rho_degrees_match_the_calculator_at_large_rho():
    """The calculator's (18) terms (independent transcription, floats) have the exact degrees as slopes."""
    s0 = bounds.Setting(1.0, 1.0, 4 / (3 * math.sqrt(3)), 0.5, 2, 8, n=16)
    r = np.array([1e4, 1e5])
    terms = np.array([bounds.thm1_terms(math.inf, bounds.with_(s0, rho_w=x / math.sqrt(2), rho_u=x / math.sqrt(2)))
                      for x in r])
    slopes = np.log(terms[1] / terms[0]) / np.log(r[1] / r[0])
    assert np.allclose(slopes, E.thm1_rho_degrees(), atol=1e-3)


def test_prop3_over_err1_exact_values():
    # tanh (σ₀ = σ₁ = 1), ν̄_u = ν̄_w: √(1+σ₀²)√(ν̄_u²+ν̄_w²) = 2ν̄ = half of 2(ν̄_u + σ₀ν̄_w) → exactly 2 at α_m = α
    assert E.prop3_over_err1(8, F(1, 2), F(1, 2), 1, 1, 1, 1) == 2
    # at α_m = 9/16: 2·μ₀(1/2)/μ₀(9/16), by Fractions
    mu = lambda z, t: sum(z ** k for k in range(t))  # noqa: E731
    expect = 2 * mu(F(1, 2), 8) / mu(F(9, 16), 8)
    assert E.prop3_over_err1(8, F(1, 2), F(9, 16), 1, 1, 1, 1) == sp.Rational(expect.numerator, expect.denominator)
    # logistic, printed L_t, α_m = α: 2σ₁μ₀·2 / (μ₀²·2σ₁²·√2) = √2/(σ₁μ₀) = 4√2/μ₀
    r = E.prop3_over_err1(3, F(1, 2), F(1, 2), 1, F(1, 4), 1, 1, printed=True)
    m0 = mu(F(1, 8), 3)
    assert sp.simplify(r - sp.Rational(4, 1) * sp.sqrt(2) / sp.Rational(m0.numerator, m0.denominator)) == 0


def test_prop3_over_err1_without_the_w_channel():
    # ν̄_w = 0, σ₀ = 1: 2ν̄_u against √2·ν̄_u, ratio exactly √2
    assert E.prop3_over_err1(5, F(1, 2), F(1, 2), 1, 1, 1, 0) == sp.sqrt(2)
