"""Example 2: a fixed reservoir x₂ with a trained, squashed readout x₁ — a hierarchy x₂ → x₁ (Theorem 1).

ẋ₁ = −x₁ + σ(ω x₂), ω = tanh(w) (n₁, n₂);  ẋ₂ = −x₂ + σ(v x₂ + u ρ), v (n₂, n₂) fixed, u (n₂, m).
x₂ contracts in the 2-norm at β₂ = 1 − L_σ'‖v‖₂; x₁ at rate 1; the coupling ‖D_{x₂} f₁‖₂ ≤ L_σ'‖ω‖_F ≤
L_σ'√(n₁n₂) =: k for every w. Theorem 1: rate min{β₂ − r k, 1} in ‖x₂‖₂ + r‖x₁‖₂ when r k < β₂.
:class:`ReservoirReadoutNet` is the same model as an :class:`~rnnrepro.flynn.network.AdjointNetwork`, so that
the optimisation system 2.7 trains its readout w and input weights u (loss g = ½‖x₁ − t‖²).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.integrate import solve_ivp

from rnnrepro.flynn.activations import L_DSIGMA, dsigma, sigma
from rnnrepro.flynn.network import AdjointNetwork


def coupling_bound(n1: int, n2: int) -> float:
    """k = L_σ'√(n₁n₂) ≥ L_σ'‖tanh(w)‖_F for every w."""
    return L_DSIGMA * math.sqrt(n1 * n2)


def reservoir_rate(v: np.ndarray) -> float:
    """β₂ = 1 − L_σ'‖v‖₂ (Table 1, 2-norm row)."""
    return 1.0 - L_DSIGMA * float(np.linalg.norm(v, 2))


def readout_derivatives_fd(omega: np.ndarray, x2: np.ndarray, eps1: float = 1e-6,
                           eps2: float = 1e-4) -> tuple[np.ndarray, np.ndarray]:
    """Central differences of the readout's drive f₁(x₂) = σ(ω x₂) (the −x₁ leak has no x₂-derivative) at x₂ (n₂,):
    D_{x₂} f₁ (n₁, n₂) with step ε₁ and D²_{x₂} f₁ (n₁, n₂, n₂) with second differences of step ε₂."""
    n2 = x2.shape[0]
    f1 = lambda z: sigma(omega @ z)  # noqa: E731
    E1, E2 = eps1 * np.eye(n2), eps2 * np.eye(n2)
    J = np.stack([(f1(x2 + e) - f1(x2 - e)) / (2 * eps1) for e in E1], axis=1)
    H = np.stack([np.stack([(f1(x2 + a + b) - f1(x2 + a - b) - f1(x2 - a + b) + f1(x2 - a - b)) / (4 * eps2 ** 2)
                            for b in E2], axis=1) for a in E2], axis=1)
    return J, H


def pair_distances(v: np.ndarray, u: np.ndarray, rho: np.ndarray, w: ArrayLike, *, x1: np.ndarray, x2: np.ndarray,
                   T: float, n_out: int = 301) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integrate P copies (x₁ (P, n₁), x₂ (P, n₂)) with fixed weights; returns t, X1 (T, P, n₁), X2 (T, P, n₂)."""
    P, n1 = x1.shape
    n2 = x2.shape[1]
    omega, drive = np.tanh(w), u @ rho

    def rhs(_t: float, s: np.ndarray) -> np.ndarray:
        s = s.reshape(P, n1 + n2)
        a, b = s[:, :n1], s[:, n1:]
        return np.concatenate([-a + sigma(b @ omega.T), -b + sigma(b @ v.T + drive)], axis=1).ravel()

    sol = solve_ivp(rhs, (0.0, T), np.concatenate([x1, x2], axis=1).ravel(), method="RK45",
                    t_eval=np.linspace(0.0, T, n_out), rtol=1e-11, atol=1e-13)
    S = sol.y.T.reshape(-1, P, n1 + n2)
    return sol.t, S[:, :, :n1], S[:, :, n1:]


@dataclass(frozen=True)
class ReservoirReadoutNet(AdjointNetwork):
    """Example 2 with trained readout w (n₁, n₂) and input weights u (n₂, m), packed in θ = [vec w, vec u].

    v (n₂, n₂) fixed, rho (m,), target (n₁,) for the readout. State x = [x₁ (n₁), x₂ (n₂)].
    ``squash=False`` uses ω = w (the readout's bound, and so Theorem 1's uniform coupling k, removed).
    """

    v: np.ndarray
    rho: np.ndarray
    target: np.ndarray
    squash: bool = True

    def __post_init__(self):
        n2 = self.v.shape[0]
        if self.v.shape != (n2, n2) or self.rho.ndim != 1 or self.target.ndim != 1:
            raise ValueError(f"need v (n2, n2), rho (m,), target (n1,); got {self.v.shape}, {self.rho.shape}, "
                             f"{self.target.shape}")

    @property
    def n1(self) -> int:
        return self.target.shape[0]

    @property
    def n2(self) -> int:
        return self.v.shape[0]

    @property
    def n(self) -> int:
        return self.n1 + self.n2

    @property
    def w_shape(self) -> tuple[int]:
        return (self.n1 * self.n2 + self.n2 * self.rho.shape[0],)

    def unpack(self, theta: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """θ -> (w (n₁, n₂), u (n₂, m))."""
        theta = np.asarray(theta, dtype=np.float64).ravel()
        k = self.n1 * self.n2
        return theta[:k].reshape(self.n1, self.n2), theta[k:].reshape(self.n2, -1)

    def pack(self, w: ArrayLike, u: np.ndarray) -> np.ndarray:
        return np.concatenate([np.ravel(w), np.ravel(u)]).astype(np.float64)

    def omega(self, w: ArrayLike) -> np.ndarray:
        return np.tanh(w) if self.squash else w

    def _pre(self, x: np.ndarray, theta: ArrayLike):
        w, u = self.unpack(theta)
        x2 = x[self.n1:]
        return w, self.omega(w) @ x2, self.v @ x2 + u @ self.rho

    def f(self, x: np.ndarray, theta: ArrayLike) -> np.ndarray:
        _, a1, a2 = self._pre(x, theta)
        return np.concatenate([-x[:self.n1] + sigma(a1), -x[self.n1:] + sigma(a2)])

    def jac_x(self, x: np.ndarray, theta: ArrayLike) -> np.ndarray:
        """Block lower-triangular A = [[−I, σ'(a₁)ω], [0, −I + σ'(a₂)v]] (n, n)."""
        w, a1, a2 = self._pre(x, theta)
        A = -np.eye(self.n)
        A[:self.n1, self.n1:] = dsigma(a1)[:, None] * self.omega(w)
        A[self.n1:, self.n1:] += dsigma(a2)[:, None] * self.v
        return A

    def grad_g(self, x: np.ndarray) -> np.ndarray:
        return np.concatenate([x[:self.n1] - self.target, np.zeros(self.n2)])

    def loss(self, x: np.ndarray) -> float:
        return 0.5 * float(np.sum((x[:self.n1] - self.target) ** 2))

    def h(self, x: np.ndarray, y: np.ndarray, theta: ArrayLike) -> np.ndarray:
        """y D_θ f (P,): readout part (y₁ ⊙ σ'(a₁)) x₂ᵀ ⊙ ω'(w), input part (y₂ ⊙ σ'(a₂)) ρᵀ."""
        w, a1, a2 = self._pre(x, theta)
        dom = 1.0 - np.tanh(w) ** 2 if self.squash else 1.0
        hw = np.outer(y[:self.n1] * dsigma(a1), x[self.n1:]) * dom
        return self.pack(hw, np.outer(y[self.n1:] * dsigma(a2), self.rho))

    def newton_start(self, theta: ArrayLike) -> np.ndarray:
        return np.full(self.n, 0.5)


TANH2_MAX = 4 / (3 * math.sqrt(3))  # max |tanh''|


def readout_weight_bounds() -> tuple[float, float, float]:
    """Entrywise bounds, uniform in w, on D_w f₁, D²_w f₁ and D²_{x₂,w} f₁ of f₁ = σ(tanh(w) x₂) for x₂ ∈ [0, 1]^{n₂}:
    L_σ', L_σ'' + L_σ'·max|tanh''| and L_σ'' + L_σ' (from σ'(u_i) tanh'(w_ij) x_j and its derivatives)."""
    from rnnrepro.flynn.activations import L_DDSIGMA
    return L_DSIGMA, L_DDSIGMA + L_DSIGMA * TANH2_MAX, L_DDSIGMA + L_DSIGMA


def readout_weight_derivatives_fd(w: np.ndarray, x2: np.ndarray, squash: bool = True, eps1: float = 1e-6,
                                  eps2: float = 1e-4) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Central differences of f₁(x₂, w) = σ(ω x₂), ω = tanh(w) (or w unsquashed), w (n₁, n₂), x₂ (n₂,) in the weights:
    D_w f₁ (n₁, n₁n₂) with step ε₁, D²_w f₁ (n₁, n₁n₂, n₁n₂) and D²_{x₂,w} f₁ (n₁, n₂, n₁n₂) with step ε₂."""
    n1, n2 = w.shape
    d = n2 + n1 * n2

    def f1(Z: np.ndarray) -> np.ndarray:                       # Z (K, d) = (x₂, vec w) → (K, n₁)
        W = Z[:, n2:].reshape(-1, n1, n2)
        return sigma(np.einsum("kij,kj->ki", np.tanh(W) if squash else W, Z[:, :n2]))

    z = np.concatenate([x2, w.ravel()])
    E1, E2 = eps1 * np.eye(d), eps2 * np.eye(d)
    J = ((f1(z + E1) - f1(z - E1)) / (2 * eps1)).T             # (n₁, d)
    A, B = E2[:, None, :], E2[None, :, :]
    pts = np.concatenate([(z + A + B), (z + A - B), (z - A + B), (z - A - B)]).reshape(-1, d)
    F = f1(pts).reshape(4, d, d, n1)
    H = np.moveaxis((F[0] - F[1] - F[2] + F[3]) / (4 * eps2 ** 2), -1, 0)   # (n₁, d, d)
    return J[:, n2:], H[:, n2:, n2:], H[:, :n2, n2:]
