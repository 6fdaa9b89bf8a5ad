"""The constants and bounds of Cayci & Eryilmaz (v1), as printed and corrected: a calculator.

Memory functions (10)/(30), Lemma 1-2 constants, Prop. 3-6 right-hand sides, Theorem 1's bound (18)-(19)
and the widths/iterations it and Theorem 2 require for a target ε. Plain floats (numpy for arrays).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike


def mu0(z: ArrayLike, t: int) -> np.ndarray:
    """μ_{0,t}(z) = Σ_{k<t} z^k (z scalar or array, t ≥ 1)."""
    k = np.arange(int(t))
    return np.sum(np.power.outer(np.asarray(z, float), k), axis=-1)


def mu1(z: ArrayLike, t: int) -> np.ndarray:
    """μ_{1,t}(z) = Σ_{k<t} (k+1) z^k."""
    k = np.arange(int(t))
    return np.sum((k + 1) * np.power.outer(np.asarray(z, float), k), axis=-1)


def mu_T(z: ArrayLike, T: int) -> np.ndarray:
    """Remark 5's μ_T = μ_{0,T}(z)·μ_{1,T}(z) with z = σ₁α_m."""
    return mu0(z, T) * mu1(z, T)


@dataclass(frozen=True)
class Setting:
    """Everything the bounds depend on: activation constants, init scale, data size, radii."""

    s0: float
    s1: float
    s2: float
    alpha: float
    d: int
    T: int
    n: int = 64
    delta: float = 0.1
    nu_w: float = 1.0
    nu_u: float = 1.0
    rho_w: float = 1.0
    rho_u: float = 1.0

    def __post_init__(self):
        if min(self.s0, self.s1, self.alpha, self.delta) <= 0 or self.T < 1 or self.d < 1 or self.n < 1:
            raise ValueError(f"invalid setting {self}")


def lipschitz(t: int, alpha_m: float, s: Setting, *, printed: bool = False) -> float:
    """Lemma 1's L_t: printed μ₀²(σ₀²+1)σ₁², corrected σ₁μ₀√(1+σ₀²), μ₀ = μ_{0,t}(α_m σ₁)."""
    m0 = float(mu0(alpha_m * s.s1, t))
    if printed:
        return m0 ** 2 * (s.s0 ** 2 + 1) * s.s1 ** 2
    return s.s1 * m0 * math.sqrt(1 + s.s0 ** 2)


def smoothness(t: int, alpha_m: float, s: Setting) -> float:
    """Lemma 1's β_t, eq. (31) (α, not α_m, inside the brackets, as printed)."""
    m0, m1 = float(mu0(alpha_m * s.s1, t)), float(mu1(alpha_m * s.s1, t))
    a, s0, s1, s2, d = s.alpha, s.s0, s.s1, s.s2, s.d
    return (d * s2 * (a * s1 * m0 + 1) * m1
            + math.sqrt(d) * (s1 ** 2 * m0 ** 2 + s0 * s1 * m0 * m1 + m1 * (s1 + s2 + a * s1 * s2 * m0))
            + s1 ** 2 * m0 ** 2 + s0 * s2 * m1 * (a * s1 * m0 + 1))


def lemma2(t: int, alpha_m: float, s: Setting, *, printed: bool = False) -> tuple[float, float]:
    """Lemma 2's (Λ_t, γ_t) = (√2(σ₀ + 1 + α_m L_t), √2(L_t + α_m β_t))."""
    L = lipschitz(t, alpha_m, s, printed=printed)
    return math.sqrt(2) * (s.s0 + 1 + alpha_m * L), math.sqrt(2) * (L + alpha_m * smoothness(t, alpha_m, s))


def f_max(alpha_m: float, s: Setting, rho_w: float, rho_u: float, *, printed: bool = False) -> float:
    """Prop. 6: F_T^max = L_T √(ρ_w² + ρ_u²)."""
    return lipschitz(s.T, alpha_m, s, printed=printed) * math.hypot(rho_w, rho_u)


def y_max(s: Setting, t: int | None = None) -> float:
    """Prop. 6: y^max = σ₁ μ_{0,t}(ασ₁)(ν̄_u + σ₀ν̄_w), at t = T by default."""
    return s.s1 * float(mu0(s.alpha * s.s1, t or s.T)) * (s.nu_u + s.s0 * s.nu_w)


def prop3_rhs(t: int, m: int, delta: float, s: Setting) -> float:
    """Prop. 3 as stated: 2 μ_{0,t}(ασ₁) σ₁(ν̄_u + σ₀ν̄_w) √(log(1/δ)/m)."""
    return 2 * y_max(s, t) * math.sqrt(math.log(1 / delta) / m)


def prop4_rhs(t: int, m: int, sq_dist: float, s: Setting, *, printed: bool = False) -> float:
    """Prop. 4: (2/√m)(Λ_t²σ₂ + γ_tσ₁)(‖W − W(0)‖_F² + ‖U − U(0)‖_F²) on the ball of radius ρ."""
    Lam, gam = lemma2(t, s.alpha + s.rho_w / math.sqrt(m), s, printed=printed)
    return 2 / math.sqrt(m) * (Lam ** 2 * s.s2 + gam * s.s1) * sq_dist


def prop5_rhs(m: int, s: Setting, *, printed: bool = False) -> float:
    """Prop. 5 at t = T: Prop. 3's term with log(2nT/δ) plus Prop. 4's with ‖ρ‖² = ν̄_w² + ν̄_u²."""
    am = s.alpha + s.rho_w / math.sqrt(m)
    Lam, gam = lemma2(s.T, am, s, printed=printed)
    first = 2 * y_max(s) * math.sqrt(math.log(2 * s.n * s.T / s.delta)) / math.sqrt(m)
    return first + 2 / math.sqrt(m) * (Lam ** 2 * s.s2 + gam * s.s1) * (s.nu_u ** 2 + s.nu_w ** 2)


def err(alpha_m: float, s: Setting, rho_w: float, rho_u: float, *, printed: bool = False) -> float:
    """(19) with γ_T for γ_t: L_T‖ν̄‖√log(2Tn/δ) + 2‖ρ‖²(σ₂Λ_T² + σ₁γ_T) + 2β_T‖ρ‖²."""
    L = lipschitz(s.T, alpha_m, s, printed=printed)
    Lam, gam = lemma2(s.T, alpha_m, s, printed=printed)
    r2 = rho_w ** 2 + rho_u ** 2
    return (L * math.hypot(s.nu_w, s.nu_u) * math.sqrt(math.log(2 * s.T * s.n / s.delta))
            + 2 * r2 * (s.s2 * Lam ** 2 + s.s1 * gam) + 2 * smoothness(s.T, alpha_m, s) * r2)


def thm1_terms(m: float, s: Setting, *, printed: bool = False) -> tuple[float, float]:
    """The coefficients (A, B) of (18): min R̂ ≤ A·T/√τ + B/√m."""
    am = s.alpha + s.rho_w / math.sqrt(m)
    L = lipschitz(s.T, am, s, printed=printed)
    phi = f_max(am, s, s.rho_w, s.rho_u, printed=printed) + y_max(s)
    A = (s.nu_w ** 2 + s.nu_u ** 2) / 2 + L ** 2 / 2 * phi ** 2
    B = s.T * phi * err(am, s, s.rho_w, s.rho_u, printed=printed)
    return A, B


def thm1_rhs(m: float, tau: float, s: Setting, *, printed: bool = False) -> float:
    """Right-hand side of (18) at width m and horizon τ."""
    A, B = thm1_terms(m, s, printed=printed)
    return A * s.T / math.sqrt(tau) + B / math.sqrt(m)


def cor1_rhs(m: float, tau: float, s: Setting, *, printed: bool = False) -> float:
    """Corollary 1's bound on R̂ at the average iterate: 4A·T/√τ + 4B/√m + (6/m)(σ₂Λ_T² + σ₁γ_T)‖ρ‖² (A, B of (18))."""
    A, B = thm1_terms(m, s, printed=printed)
    Lam, gam = lemma2(s.T, s.alpha + s.rho_w / math.sqrt(m), s, printed=printed)
    return 4 * A * s.T / math.sqrt(tau) + 4 * B / math.sqrt(m) + 6 / m * (Lam ** 2 * s.s2 + gam * s.s1) * (
        s.rho_w ** 2 + s.rho_u ** 2)


def thm1_requirements(eps: float, s: Setting, *, printed: bool = False, iters: int = 100) -> tuple[float, float]:
    """(m, τ) that make each term of (18) ≤ ε/2 (fixed point in m, since α_m depends on m).

    Raises RuntimeError when the fixed-point iteration has not converged after ``iters`` steps."""
    if eps <= 0:
        raise ValueError(f"eps must be positive, got {eps}")
    m = math.inf
    for _ in range(iters):
        _, B = thm1_terms(m, s, printed=printed)
        m_new = (2 * B / eps) ** 2
        if m_new == m or abs(m_new - m) <= 1e-12 * m_new:
            break
        m = m_new
    else:
        raise RuntimeError(f"thm1_requirements: the fixed point in m ran away ({iters} iterations without "
                           f"converging; last m = {m:.4g}, eps = {eps}, setting {s})")
    A, _ = thm1_terms(m, s, printed=printed)
    return m, (2 * A * s.T / eps) ** 2


def thm2_requirements(eps: float, s: Setting, *, printed: bool = False) -> tuple[float, float, float]:
    """Theorem 2 (formal statement): (m, τ₀, η) for min R̂ ≤ 9ε/4 with plain GD.

    α_target = α + √(2ε); λ_w = λ_u = L_T(ν̄_w² + ν̄_u²)/√ε; η = ε/(2T²L_T²(F^max(λ) + y^max)²);
    m = [(err(λ))² + λ_w²]/(2ε); τ₀ = (ν̄_w² + ν̄_u²)/((√2+1)² η ε).
    """
    if eps <= 0:
        raise ValueError(f"eps must be positive, got {eps}")
    at = s.alpha + math.sqrt(2 * eps)
    L = lipschitz(s.T, at, s, printed=printed)
    nu2 = s.nu_w ** 2 + s.nu_u ** 2
    lam = L * nu2 / math.sqrt(eps)
    phi = f_max(at, s, lam, lam, printed=printed) + y_max(s)
    eta = eps / (2 * s.T ** 2 * L ** 2 * phi ** 2)
    m = (err(at, s, lam, lam, printed=printed) ** 2 + lam ** 2) / (2 * eps)
    tau0 = nu2 / ((math.sqrt(2) + 1) ** 2 * eta * eps)
    return m, tau0, eta


def with_(s: Setting, **changes: float) -> Setting:
    """A copy of ``s`` with some fields changed."""
    return replace(s, **changes)
