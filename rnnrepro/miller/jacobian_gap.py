"""Lemma 2's terms (b) and (c): where the proof of Lemma 2 (A.2.1) compares the truncated model with the full one.

Term (b) is at the end of this docstring and of the module. Term (c), the gap between the hidden-to-hidden
Jacobians of the full and the truncated model:

The proof of Lemma 2 (A.2.1) bounds, for every t ≥ T − k + 1,
‖∂h_T/∂h_t − ∂h^k_T/∂h^k_t‖ ≤ Σ_{i=t}^{T−1} β_hh λ^{T−t−1} ‖h_i − h^k_i‖, and with
‖h_i − h^k_i‖ ≤ λ^{i−(T−k)} L_x B_x/(1 − λ) prints the result λ^k β_hh L_x B_x/(1 − λ)². The sum gives
λ^{k−1} instead. This module evaluates both sides exactly (mpmath, 50 digits) on a scalar instance that
meets the lemma's hypotheses and nearly attains every inequality of the proof:

    φ(h, x) = λ s(h) + x,   s(h) = h − (ε/2) (h + log cosh(h − c) − log cosh c),

so that s(0) = 0 (φ(0, 0) = 0), s'(h) = 1 − (ε/2)(1 + tanh(h − c)) ∈ (1 − ε, 1) (φ is λ-contractive for
every h when 0 < ε ≤ 1), |φ''| ≤ β_hh = λε/2 (attained at h = c), L_x = 1, and the input x_t = B_x = 1.
The curvature is centred at c, in the middle of the reachable states [0, 1/(1 − λ)].

Term (b), first part: Σ_{t=T−k+1}^{T} L_p ‖∂h_T/∂h_t‖ ‖∂h_t/∂w − ∂h^k_t/∂w‖, where ∂h_t/∂w is taken "assuming
h_{t−1} is constant", i.e. it is ∂φ_w(h_{t−1}, x_t)/∂w. Smoothness condition 2 therefore bounds the second factor
by β_wh ‖h_{t−1} − h^k_{t−1}‖; the proof writes ‖h_t − h^k_t‖ and prints kλ^k L_p β_wh L_x B_x/(1 − λ). With the
right state the sum is kλ^{k−1}(…). It is evaluated in exact rational arithmetic on the scalar LDS
h_t = a h_{t−1} + x_t, w = a (∂φ/∂w = h, so β_wh = 1), λ = a, L_x = 1, x_t = B_x = 1 (L_p cancels in the ratios).
"""

from __future__ import annotations

from fractions import Fraction

from mpmath import mp, mpf

DIGITS = 50


def _check(lam, eps) -> None:
    if not 0 < lam < 1:
        raise ValueError(f"lam must lie in (0, 1), got {lam}")
    if not 0 < eps <= 1:
        raise ValueError(f"eps must lie in (0, 1] (else φ is not λ-contractive), got {eps}")


def phi(h, lam, eps, c, x=1):
    """The scalar state map φ(h, x) = λ s(h) + x."""
    return lam * (h - eps / 2 * (h + mp.log(mp.cosh(h - c)) - mp.log(mp.cosh(c)))) + x


def dphi(h, lam, eps, c):
    """∂φ/∂h at the state h: λ s'(h)."""
    return lam * (1 - eps / 2 * (1 + mp.tanh(h - c)))


def beta_hh(lam, eps):
    """sup_h |∂²φ/∂h²| = λ ε / 2 (s''(h) = −(ε/2) sech²(h − c))."""
    return mpf(lam) * eps / 2


def trajectories(lam, eps, c, T: int, k: int):
    """Full states h_0..h_T (h_0 = 0) and truncated states {i: h^k_i} for i = T − k..T (h^k_{T−k} = 0), x_t = 1."""
    if not 1 <= k < T:
        raise ValueError(f"need 1 <= k < T, got k = {k}, T = {T}")
    full = [mpf(0)]
    for _ in range(T):
        full.append(phi(full[-1], lam, eps, c))
    trunc = {T - k: mpf(0)}
    for i in range(T - k + 1, T + 1):
        trunc[i] = phi(trunc[i - 1], lam, eps, c)
    return full, trunc


def jacobian_gaps(lam, eps, c, T: int, k: int) -> dict[int, mpf]:
    """|∂h_T/∂h_t − ∂h^k_T/∂h^k_t| for t = T − k + 1..T − 1: products of φ'(h_i) over i = t..T − 1."""
    _check(lam, eps)
    with mp.workdps(DIGITS):
        full, trunc = trajectories(mpf(lam), mpf(eps), mpf(c), T, k)
        gaps = {}
        for t in range(T - k + 1, T):
            jf = jt = mpf(1)
            for i in range(t, T):
                jf *= dphi(full[i], lam, eps, c)
                jt *= dphi(trunc[i], lam, eps, c)
            gaps[t] = abs(jf - jt)
        return gaps


def term_c_bounds(lam, eps, k: int) -> tuple[mpf, mpf]:
    """(printed, corrected) bounds on term (c)'s Jacobian gap: λ^k β_hh L_x B_x/(1 − λ)² and the same with
    λ^{k−1} (L_x = B_x = 1)."""
    _check(lam, eps)
    with mp.workdps(DIGITS):
        lam = mpf(lam)
        scale = beta_hh(lam, eps) / (1 - lam) ** 2
        return lam ** k * scale, lam ** (k - 1) * scale


def term_c_ratios(lam, eps, T: int, k: int, c=None) -> tuple[float, float]:
    """Largest Jacobian gap over t divided by the printed and by the corrected bound (c defaults to
    1/(2(1 − λ)), the middle of the reachable states)."""
    c = 1 / (2 * (1 - lam)) if c is None else c
    worst = max(jacobian_gaps(lam, eps, c, T, k).values())
    printed, corrected = term_c_bounds(lam, eps, k)
    with mp.workdps(DIGITS):
        return float(worst / printed), float(worst / corrected)


def lds_phi(h, a, x=1):
    """The scalar LDS map φ_a(h, x) = a h + x (exact for Fractions)."""
    return a * h + x


def lds_dphi_dw(h, a, x=1):
    """∂φ_a(h, x)/∂a with h held constant: h (condition 2 holds with β_wh = 1)."""
    return h


def term_b_sum(lam, T: int, k: int) -> Fraction:
    """Σ_{t=T−k+1}^{T} |∂h_T/∂h_t| · |∂φ(h_{t−1})/∂w − ∂φ(h^k_{t−1})/∂w| on the scalar LDS with a = lam, x_t = 1,
    exactly (lam is converted with ``Fraction``: pass a Fraction or a short decimal). ∂h_T/∂h_t is the product
    of ∂φ/∂h = a over the steps t + 1..T."""
    a = Fraction(lam)
    if not 0 < a < 1:
        raise ValueError(f"lam must lie in (0, 1), got {lam}")
    if not 1 <= k < T:
        raise ValueError(f"need 1 <= k < T, got k = {k}, T = {T}")
    full = [Fraction(0)]
    for _ in range(T):
        full.append(lds_phi(full[-1], a))
    trunc = {T - k: Fraction(0)}
    for i in range(T - k + 1, T + 1):
        trunc[i] = lds_phi(trunc[i - 1], a)
    total = Fraction(0)
    for t in range(T - k + 1, T + 1):
        jac = a ** (T - t)                                       # ∂h_T/∂h_t
        total += jac * abs(lds_dphi_dw(full[t - 1], a) - lds_dphi_dw(trunc[t - 1], a))
    return total


def term_b_ratios(lam, T: int, k: int) -> tuple[float, float]:
    """Term (b)'s sum (:func:`term_b_sum`) divided by the printed bound kλ^k β_wh L_x B_x/(1 − λ) and by the
    corrected kλ^{k−1} β_wh L_x B_x/(1 − λ) (β_wh = L_x = B_x = 1), exactly, then rounded to floats."""
    a = Fraction(lam)
    total = term_b_sum(a, T, k)
    printed = k * a ** k / (1 - a)
    return float(total / printed), float(total / (printed / a))
