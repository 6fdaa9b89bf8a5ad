"""Memory kernels ρ(t), t ≥ 0, with the Laplace moments the closed-form losses need.

Every target has ``__call__(t)``, ``moment(k, w) = ∫_0^∞ t^k e^{-w t} ρ(t) dt`` (k = 0, 1, 2; w > 0,
array-valued) and ``l2norm2() = ∫_0^∞ ρ²``. ``Sum`` adds targets (cross terms included).
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, special


class Target(Protocol):
    """What the closed-form losses need of a kernel ρ (every class below provides it)."""

    def __call__(self, t: ArrayLike) -> np.ndarray:
        """ρ(t), same shape as t."""

    def moment(self, k: int, w: ArrayLike) -> np.ndarray:
        """∫_0^∞ t^k e^{-w t} ρ(t) dt for k ∈ {0, 1, 2}; same shape as w (w > 0)."""

    def l2norm2(self) -> float:
        """∫_0^∞ ρ(t)² dt."""


class ExpSum:
    """ρ(t) = Σ_i a_i e^{-w_i t} (a, w: shape (n,), w > 0)."""

    def __init__(self, a: ArrayLike, w: ArrayLike) -> None:
        self.a = np.atleast_1d(np.asarray(a, float))
        self.w = np.atleast_1d(np.asarray(w, float))

    def __repr__(self) -> str:
        return f"ExpSum(a={np.round(self.a, 4).tolist()}, w={np.round(self.w, 4).tolist()})"

    def __call__(self, t: ArrayLike) -> np.ndarray:
        t = np.asarray(t, float)
        return np.sum(self.a * np.exp(-np.multiply.outer(t, self.w)), axis=-1)

    def moment(self, k: int, w: ArrayLike) -> np.ndarray:
        """k!·Σ_i a_i/(w + w_i)^{k+1}, same shape as w."""
        w = np.asarray(w, float)
        return math.factorial(k) * np.sum(self.a / np.add.outer(w, self.w) ** (k + 1), axis=-1)

    def l2norm2(self) -> float:
        """Σ_ij a_i a_j/(w_i + w_j)."""
        return float(self.a @ (1.0 / np.add.outer(self.w, self.w)) @ self.a)

    def cross(self, other: Target) -> float:
        """∫ ρ·other = Σ a_i ℒother(w_i)."""
        return float(np.sum(self.a * other.moment(0, self.w)))


class GaussBump:
    """ρ(t) = amp·exp(-((t − mu)/width)²): the memory template ρ₀(t − 1/ω) of (20) with mu = 1/ω."""

    def __init__(self, mu: float, amp: float = 1.0, width: float = 1.0) -> None:
        self.mu, self.amp, self.width = float(mu), float(amp), float(width)

    def __repr__(self) -> str:
        return f"GaussBump(mu={self.mu:g}, amp={self.amp:g}, width={self.width:g})"

    def __call__(self, t: ArrayLike) -> np.ndarray:
        return self.amp * np.exp(-((np.asarray(t, float) - self.mu) / self.width) ** 2)

    def moment(self, k: int, w: ArrayLike) -> np.ndarray:
        """Closed form via erfc/erfcx (:func:`_bump_moment`), same shape as w."""
        s = self.width
        return self.amp * s ** (k + 1) * _bump_moment(k, np.asarray(w, float) * s, self.mu / s)

    def l2norm2(self) -> float:
        """amp²·width·√(π/8)·erfc(−√2·mu/width)."""
        s = self.width
        return self.amp ** 2 * s * math.sqrt(math.pi / 8) * special.erfc(-math.sqrt(2) * self.mu / s)

    def cross(self, other: Target) -> float:
        """∫ ρ·other by adaptive quadrature around the bump."""
        return _quad_cross(self, other, self.mu, self.width)


def _bump_moment(k, w, mu):
    """∫_0^∞ t^k e^{-w t} e^{-(t-mu)²} dt, k ∈ {0,1,2}, stable for all w > 0 (uses erfcx)."""
    c = mu - w / 2.0
    # A = e^{-wμ+w²/4}·(√π/2)·erfc(-c), B = e^{-μ²}/2
    with np.errstate(invalid="ignore", over="ignore"):    # the branch np.where discards may overflow
        a_pos = np.exp(np.minimum(-w * mu + w * w / 4.0, 700.0)) * (math.sqrt(math.pi) / 2) * special.erfc(-c)
        a_neg = (math.sqrt(math.pi) / 2) * math.exp(-mu * mu) * special.erfcx(-c)
    A = np.where(c >= 0, a_pos, a_neg)
    B = math.exp(-mu * mu) / 2.0
    if k == 0:
        return A
    if k == 1:
        return B + c * A
    if k == 2:
        return c * B + A * (c * c + 0.5)
    raise ValueError("k must be 0, 1 or 2")


class ExpTail:
    """ρ(t) = amp·e^{-t/mu}: a long but *undelayed* memory (the contrast to the bump)."""

    def __init__(self, mu: float, amp: float = 1.0) -> None:
        self.mu, self.amp = float(mu), float(amp)
        self._e = ExpSum([amp], [1.0 / mu])

    def __repr__(self) -> str:
        return f"ExpTail(mu={self.mu:g}, amp={self.amp:g})"

    def __call__(self, t: ArrayLike) -> np.ndarray:
        return self._e(t)

    def moment(self, k: int, w: ArrayLike) -> np.ndarray:
        """The moments of amp·e^{-t/mu} (an ExpSum), same shape as w."""
        return self._e.moment(k, w)

    def l2norm2(self) -> float:
        """amp²·mu/2."""
        return self._e.l2norm2()

    def cross(self, other: Target) -> float:
        """∫ ρ·other = amp·ℒother(1/mu)."""
        return self._e.cross(other)


class Sum:
    """ρ = Σ parts (each an ExpSum, GaussBump or ExpTail)."""

    def __init__(self, *parts: ExpSum | GaussBump | ExpTail) -> None:
        self.parts = parts

    def __repr__(self) -> str:
        return " + ".join(map(repr, self.parts))

    def __call__(self, t: ArrayLike) -> np.ndarray:
        return sum(p(t) for p in self.parts)

    def moment(self, k: int, w: ArrayLike) -> np.ndarray:
        """Sum of the parts' moments, same shape as w."""
        return sum(p.moment(k, w) for p in self.parts)

    def l2norm2(self) -> float:
        """Σ ‖part‖² + 2 Σ_{i<j} ∫ part_i·part_j (exact cross terms where a part is exponential)."""
        n = sum(p.l2norm2() for p in self.parts)
        for i, p in enumerate(self.parts):
            for q in self.parts[i + 1:]:
                n += 2 * (q.cross(p) if isinstance(q, (ExpSum, ExpTail)) else p.cross(q))
        return float(n)


def _quad_cross(p, q, centre, width):
    """∫_0^∞ p·q by adaptive quadrature split around the bump at ``centre``."""
    f = lambda t: float(p(t) * q(t))
    edges = sorted({0.0, max(0.0, centre - 8 * width), max(0.0, centre), centre + 8 * width})
    parts = [integrate.quad(f, a, b, limit=400)[0] for a, b in zip(edges[:-1], edges[1:])]
    return float(sum(parts) + integrate.quad(f, edges[-1], np.inf, limit=400)[0])


def two_part(mu: float, *, a_star: float = 1.0, w_star: float = 1.0, amp: float = 1.0, width: float = 1.0) -> Sum:
    """The paper's simple example (125) as we reconstruct it: a*·e^{-w* t} + amp·e^{-((t−mu)/width)²}."""
    return Sum(ExpSum([a_star], [w_star]), GaussBump(mu, amp, width))


def exp_tail_control(mu: float, level: float, a_star: float = 1.0, w_star: float = 1.0) -> Sum:
    """Contrast target a*e^{-w* t} + A e^{-t/mu} with ‖A e^{-t/mu}‖² = level (same plateau height)."""
    amp = math.sqrt(2.0 * level / mu)
    return Sum(ExpSum([a_star], [w_star]), ExpTail(mu, amp))


def airy_kernel(t: ArrayLike, t0: float = 6.0, s0: float = 1.0) -> np.ndarray:
    """The Airy target of Fig. 1(b): Ai(s0·(t − t0)), same shape as t."""
    z = s0 * (np.asarray(t, float) - t0)
    return np.where(z < 200, special.airy(np.minimum(z, 200))[0], 0.0)


def power_law(t: ArrayLike, omega: float) -> np.ndarray:
    """The long-memory kernel of (64)-(65): (1 + t)^{-(1+ω)}, same shape as t."""
    return (1.0 + np.asarray(t, float)) ** (-(1.0 + omega))


def random_exp_sum_kernel(t: ArrayLike, m_star: int = 8, seed: int = 0, shift: float = 0.5) -> np.ndarray:
    """Fig. 1(a) target cᵀe^{W t}u with c, u ~ N(0, I), W = −ŴŴᵀ − shift·I, Ŵ_ij ~ N(0, 1/m*).

    Returns ρ(t) (shape of t). The shift is our choice (the paper's W* recipe is lost in the text).
    """
    rng = np.random.default_rng(seed)
    Wh = rng.normal(0, 1 / math.sqrt(m_star), (m_star, m_star))
    c, u = rng.normal(size=m_star), rng.normal(size=m_star)
    lam, V = np.linalg.eigh(-(Wh @ Wh.T) - shift * np.eye(m_star))
    coef = (c @ V) * (V.T @ u)
    return np.exp(np.multiply.outer(np.asarray(t, float), lam)) @ coef
