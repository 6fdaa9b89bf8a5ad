"""Example 3 (eqs. 7.3a–b): all connections trained, weights squashed, ω_ij = α_i tanh(w_ij).

ẋ_i = −x_i + σ(Σ_j ω_ij x_j + ρ_i) on a directed graph (mask[i, j] = 1 for an edge j → i, no self-loops).
With |tanh| ≤ 1 the ∞-norm certificate −1 + L_σ' max_i α_i in(i) holds for every w. ``squash=False``
is the same network trained on ω = w directly (no built-in bound). Loss g = ½ Σ_{i ∈ out} (x_i − t_i)².
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rnnrepro.flynn.activations import L_DSIGMA, dsigma, sigma
from rnnrepro.flynn.network import AdjointNetwork


@dataclass(frozen=True)
class SquashedNet(AdjointNetwork):
    """gain (n,) = α_i, mask (n, n), rho (n,), out (k,) node indices, target (k,)."""

    gain: np.ndarray
    mask: np.ndarray
    rho: np.ndarray
    out: np.ndarray
    target: np.ndarray
    squash: bool = True

    @property
    def n(self) -> int:
        return self.gain.shape[0]

    @property
    def w_shape(self) -> tuple[int, int]:
        return (self.n, self.n)

    def omega(self, w) -> np.ndarray:
        w = np.asarray(w, dtype=np.float64).reshape(self.n, self.n)
        return self.mask * (self.gain[:, None] * np.tanh(w) if self.squash else w)

    def domega(self, w) -> np.ndarray:
        """∂ω_ij/∂w_ij (n, n)."""
        w = np.asarray(w, dtype=np.float64).reshape(self.n, self.n)
        return self.mask * (self.gain[:, None] * (1 - np.tanh(w) ** 2) if self.squash else 1.0)

    def f(self, x, w) -> np.ndarray:
        return -x + sigma(self.omega(w) @ x + self.rho)

    def jac_x(self, x, w) -> np.ndarray:
        om = self.omega(w)
        return -np.eye(self.n) + dsigma(om @ x + self.rho)[:, None] * om

    def jac_w(self, x, w) -> np.ndarray:
        """D_w f (n, n·n): entry (i, (i, k)) = σ'(u_i) x_k ∂ω_ik/∂w_ik (7.3b: α_i, the target's gain)."""
        u = self.omega(w) @ x + self.rho
        J = np.zeros((self.n, self.n, self.n))
        J[np.arange(self.n), np.arange(self.n), :] = dsigma(u)[:, None] * x[None, :] * self.domega(w)
        return J.reshape(self.n, -1)

    def grad_g(self, x) -> np.ndarray:
        g = np.zeros(self.n)
        g[self.out] = x[self.out] - self.target
        return g

    def loss(self, x) -> float:
        return 0.5 * float(np.sum((x[self.out] - self.target) ** 2))

    def h(self, x, y, w) -> np.ndarray:
        """Weight field y D_w f, as (n, n) (−∇_w g(x*(w)) at the equilibrium)."""
        return (y @ self.jac_w(x, w)).reshape(self.n, self.n)

    def newton_start(self, w) -> np.ndarray:
        """Newton's default start σ(ρ)."""
        return sigma(self.rho)

    def certificate(self, w) -> float:
        """−1 + L_σ' ‖ω‖_∞: an upper bound on μ∞(D_x f) for every x (contracting when < 0)."""
        return -1.0 + L_DSIGMA * float(np.abs(self.omega(w)).sum(axis=1).max())


def table3_printed(net: SquashedNet, x, w):
    """Table 3 as printed: D_x f = σ'(u_i) ω_ij (no −δ_ij) and D_w f with the source gain α_k (7.4)."""
    u = net.omega(w) @ x + net.rho
    dxf = dsigma(u)[:, None] * net.omega(w)
    wm = np.asarray(w, dtype=np.float64).reshape(net.n, net.n)
    J = np.zeros((net.n, net.n, net.n))
    J[np.arange(net.n), np.arange(net.n), :] = (dsigma(u)[:, None] * x[None, :] * net.gain[None, :]
                                                * (1 - np.tanh(wm) ** 2) * net.mask)
    return dxf, J.reshape(net.n, -1)


def fd_jacobians(net: SquashedNet, x, w, eps: float = 1e-6):
    """Central finite-difference D_x f (n, n) and D_w f (n, n·n)."""
    w = np.asarray(w, dtype=np.float64).ravel()
    jx = np.stack([(net.f(x + eps * e, w) - net.f(x - eps * e, w)) / (2 * eps) for e in np.eye(net.n)], axis=1)
    jw = np.stack([(net.f(x, w + eps * e) - net.f(x, w - eps * e)) / (2 * eps) for e in np.eye(w.size)], axis=1)
    return jx, jw


def complete_graph(n: int) -> np.ndarray:
    """Mask of the complete directed graph without self-loops (in(i) = out(i) = n − 1)."""
    return 1.0 - np.eye(n)

