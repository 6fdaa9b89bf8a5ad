"""Propositions 3 and 4: scalar unstable systems where truncation and gradient descent fail.

Prop 3: h_t = a h_{t-1} + x_t, y_t = h_t, impulse x_1 = 1. Prop 4: x_t = y_t = 1, loss ½(1 − h_T)^2,
h_T = (1 − a^T)/(1 − a); eq. (6) is its derivative. Prop 4 runs in mpmath (unbounded exponents).
"""

from __future__ import annotations

import mpmath as mp

mp.mp.dps = 50


def impulse_truncation_error(a: float, k: int, t_max: int) -> list[float]:
    """|y_t − y^k_t| for t = 1..t_max (float64): the full output a^{t-1} minus the k-truncated one."""
    if k < 1 or t_max < 1:
        raise ValueError(f"k and t_max must be positive, got {k}, {t_max}")
    out = []
    for t in range(1, t_max + 1):
        full = a ** (t - 1)
        trunc = full if t <= k else 0.0  # the impulse x_1 lies outside the window x_{t-k+1..t}
        out.append(abs(full - trunc))
    return out


def grad_eq6(a, T: int):
    """Eq. (6): d/da ½(1 − h_T)^2 = ((1−a^T)/(1−a) − 1)((1−a^T)/(1−a)^2 − T a^{T−1}/(1−a)) (mpmath)."""
    a = mp.mpf(a)
    hT = (1 - a ** T) / (1 - a)
    return (hT - 1) * ((1 - a ** T) / (1 - a) ** 2 - T * a ** (T - 1) / (1 - a))


def grad_recursion(a, T: int):
    """The same derivative by forward differentiation of h ← a h + 1, dh ← h + a dh (mpmath)."""
    a = mp.mpf(a)
    h, dh = mp.mpf(0), mp.mpf(0)
    for _ in range(T):
        h, dh = a * h + 1, h + a * dh
    return (h - 1) * dh


def leading_term(a, T: int, regime: str):
    """The leading term of eq. (6) for |a| > 1 (mpmath), in one of its two limits.

    ``"large_T"`` (fixed a, T → ∞, the limit the proof names): h_T − 1 ≈ a^T/(a − 1) and the bracket
    ≈ T a^{T−1}/(a − 1), so the gradient ≈ T a^{2T−1}/(a − 1)², relative error O(1/T).
    ``"large_a"`` (fixed T, |a| → ∞): h_T − 1 = a + … + a^{T−1} ≈ a^{T−1} and dh_T/da = Σ_j j a^{j−1}
    ≈ (T − 1) a^{T−2}, so the gradient ≈ (T − 1) a^{2T−3}, relative error O(1/a).
    The printed T a^{2T−3} is the leading term only when both T and |a| are large."""
    a = mp.mpf(a)
    if T < 2:
        raise ValueError(f"T must be at least 2, got {T}")
    if regime == "large_T":
        return T * a ** (2 * T - 1) / (a - 1) ** 2
    if regime == "large_a":
        return (T - 1) * a ** (2 * T - 3)
    raise ValueError(f"regime must be 'large_T' or 'large_a', got {regime!r}")


def gradient_descent(a0: float, T: int, steps: int, box: float | None = None) -> tuple[list, list]:
    """GD a ← a − (1/i) ∇ℓ(a) (projected onto [−box, box] if given): (iterates a_0..a_N, gradients)."""
    a, iterates, grads = mp.mpf(a0), [mp.mpf(a0)], []
    for i in range(1, steps + 1):
        g = grad_eq6(a, T)
        grads.append(g)
        a = a - g / i
        if box is not None:
            a = max(-mp.mpf(box), min(mp.mpf(box), a))
        iterates.append(a)
    return iterates, grads


def log10_abs(values) -> list[float]:
    """log10 |v| of mpmath numbers as floats (finite for any exponent)."""
    return [float(mp.log10(abs(v))) for v in values]
