"""Exact arithmetic (sympy) for two printed constants of Cayci & Eryilmaz v1 that a calculator cannot settle.

* the powers of ‖ρ‖ in Theorem 1's bound (18) with α_m held fixed (so L_T, Λ_T, γ_T, β_T are constants), against
  the informal Theorem 1 and Corollary 1, which print ‖ρ‖T/√τ and ‖ρ‖²T√log/√m;
* the constant of the approximation term err₁ in the proof of Theorem 1, L_T√(ν̄_u² + ν̄_w²), against the
  constant 2σ₁μ_{0,T}(ασ₁)(ν̄_u + σ₀ν̄_w) that Proposition 3 provides for the same term.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp


def thm1_rho_degrees() -> tuple[int, int]:
    """Degrees in r = ‖ρ‖₂ of (18)'s τ-term A·T/√τ and m-term B/√m, L_T, Λ_T, γ_T, β_T, y^max fixed: (2, 3).

    A = (ν̄_w² + ν̄_u²)/2 + L_T²(F^max + y^max)²/2 with F^max = L_T r (Prop. 6); B = T(F^max + y^max)·err (19),
    err = L_T‖ν̄‖√log(2Tn/δ) + 2r²(σ₂Λ_T² + σ₁γ_T) + 2β_T r².
    """
    r, L, y, nu, lam, gam, beta, s1, s2, lg, T = sp.symbols("r L y nu Lambda gamma beta sigma1 sigma2 lg T",
                                                             positive=True)
    f_max = L * r
    A = nu ** 2 / 2 + L ** 2 / 2 * (f_max + y) ** 2
    err = L * nu * lg + 2 * r ** 2 * (s2 * lam ** 2 + s1 * gam) + 2 * beta * r ** 2
    B = T * (f_max + y) * err
    return int(sp.degree(sp.expand(A), r)), int(sp.degree(sp.expand(B), r))


def _mu0(z: sp.Rational, t: int) -> sp.Rational:
    return sum(z ** k for k in range(t))


def prop3_over_err1(t: int, alpha: Fraction, alpha_m: Fraction, s0: Fraction, s1: Fraction, nu_u: Fraction,
                    nu_w: Fraction, *, printed: bool = False) -> sp.Expr:
    """Prop. 3's constant 2σ₁μ_{0,t}(ασ₁)(ν̄_u + σ₀ν̄_w) over err₁'s L_t√(ν̄_u² + ν̄_w²), exactly (a sympy number).

    L_t is Lemma 1's corrected σ₁μ_{0,t}(α_mσ₁)√(1 + σ₀²), or the printed μ_{0,t}²(σ₀² + 1)σ₁² with ``printed``.
    Above 1: the proof's err₁ is smaller than what Prop. 3 gives, so step (22) does not follow from Prop. 3.
    Pass rationals (Fraction); the square roots stay exact.
    """
    a, am, z0, z1, nu, nw = (sp.Rational(x.numerator, x.denominator) for x in map(Fraction, (alpha, alpha_m, s0, s1,
                                                                                              nu_u, nu_w)))
    prop3 = 2 * z1 * _mu0(a * z1, t) * (nu + z0 * nw)
    m0 = _mu0(am * z1, t)
    L = m0 ** 2 * (z0 ** 2 + 1) * z1 ** 2 if printed else z1 * m0 * sp.sqrt(1 + z0 ** 2)
    return sp.radsimp(prop3 / (L * sp.sqrt(nu ** 2 + nw ** 2)))
