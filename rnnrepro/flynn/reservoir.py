"""Example 2: a fixed reservoir x₂ with a trained, squashed readout x₁ — a hierarchy x₂ → x₁ (Theorem 1).

ẋ₁ = −x₁ + σ(ω x₂), ω = tanh(w) (n₁, n₂);  ẋ₂ = −x₂ + σ(v x₂ + u ρ), v (n₂, n₂) fixed, u (n₂, m).
x₂ contracts in the 2-norm at β₂ = 1 − L_σ'‖v‖₂; x₁ at rate 1; the coupling ‖D_{x₂} f₁‖₂ ≤ L_σ'‖ω‖_F ≤
L_σ'√(n₁n₂) =: k for every w. Theorem 1: rate min{β₂ − r k, 1} in ‖x₂‖₂ + r‖x₁‖₂ when r k < β₂.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp

from rnnrepro.flynn.activations import L_DSIGMA, sigma


def coupling_bound(n1: int, n2: int) -> float:
    """k = L_σ'√(n₁n₂) ≥ L_σ'‖tanh(w)‖_F for every w."""
    return L_DSIGMA * math.sqrt(n1 * n2)


def reservoir_rate(v) -> float:
    """β₂ = 1 − L_σ'‖v‖₂ (Table 1, 2-norm row)."""
    return 1.0 - L_DSIGMA * float(np.linalg.norm(v, 2))


def pair_distances(v, u, rho, w, x1, x2, T: float, n_out: int = 301):
    """Integrate P copies (x₁ (P, n₁), x₂ (P, n₂)) with fixed weights; returns t, X1 (T, P, n₁), X2 (T, P, n₂)."""
    P, n1 = x1.shape
    n2 = x2.shape[1]
    omega, drive = np.tanh(w), u @ rho

    def rhs(_t, s):
        s = s.reshape(P, n1 + n2)
        a, b = s[:, :n1], s[:, n1:]
        return np.concatenate([-a + sigma(b @ omega.T), -b + sigma(b @ v.T + drive)], axis=1).ravel()

    sol = solve_ivp(rhs, (0.0, T), np.concatenate([x1, x2], axis=1).ravel(), method="RK45",
                    t_eval=np.linspace(0.0, T, n_out), rtol=1e-11, atol=1e-13)
    S = sol.y.T.reshape(-1, P, n1 + n2)
    return sol.t, S[:, :, :n1], S[:, :, n1:]
