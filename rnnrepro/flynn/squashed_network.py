"""Example 3 (eqs. 7.3a–b and 7.4): all connections trained, weights squashed, ω_ij = α_i tanh(w_ij).

ẋ_i = −x_i + σ(Σ_j ω_ij x_j + ρ_i) on a directed graph (mask[i, j] = 1 for an edge j → i, no self-loops).
With |tanh| ≤ 1 the ∞-norm certificate −1 + L_σ' max_i α_i in(i) holds for every w. ``squash=False``
is the same network trained on ω = w directly (no built-in bound). ``source_gain=True`` is the variant
7.4, ω_ij = α_j s(w_ij) (the gain of the source node j), certified in the 1-norm:
−1 + L_σ' max_j |α_j| out(j). The squash s is tanh (σ_H, 7.3b) or, with ``squash_fn="logistic"``, the
logistic σ that 7.4 prints (σ ≥ 0, so the sign of α_j alone makes node j excitatory or inhibitory); both
have sup|s| = 1. Loss g = ½ Σ_{i ∈ out} (x_i − t_i)².
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike
from rnnrepro.flynn.activations import L_DSIGMA, ddsigma, dsigma, sigma
from rnnrepro.flynn.matrix_measures import Ord
from rnnrepro.flynn.network import AdjointNetwork


def _tanh_derivatives(w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    th = np.tanh(w)
    return th, 1 - th ** 2, -2 * th * (1 - th ** 2)


#: the squashes s of 7.3b (tanh, σ_H) and 7.4 as printed (the logistic σ): w -> (s, s', s'')
SQUASHES: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]] = {
    "tanh": _tanh_derivatives,
    "logistic": lambda w: (sigma(w), dsigma(w), ddsigma(w)),
}


@dataclass(frozen=True)
class SquashedNet(AdjointNetwork):
    """gain (n,) = α_i, mask (n, n), rho (n,), out (k,) node indices, target (k,)."""

    gain: np.ndarray
    mask: np.ndarray
    rho: np.ndarray
    out: np.ndarray
    target: np.ndarray
    squash: bool = True
    source_gain: bool = False
    squash_fn: str = "tanh"

    def __post_init__(self):
        if self.squash_fn not in SQUASHES:
            raise ValueError(f"squash_fn must be one of {tuple(SQUASHES)}, got {self.squash_fn!r}")

    def squash_derivatives(self, w: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(s(w), s'(w), s''(w)) elementwise for the squash s, each (n, n)."""
        return SQUASHES[self.squash_fn](np.asarray(w, dtype=np.float64).reshape(self.n, self.n))

    @property
    def n(self) -> int:
        return self.gain.shape[0]

    @property
    def w_shape(self) -> tuple[int, int]:
        return (self.n, self.n)

    def _gains(self) -> np.ndarray:
        """α of each connection (n, n): the target's α_i (7.3b) or the source's α_j (7.4)."""
        return self.gain[None, :] if self.source_gain else self.gain[:, None]

    def omega(self, w: ArrayLike) -> np.ndarray:
        w = np.asarray(w, dtype=np.float64).reshape(self.n, self.n)
        return self.mask * (self._gains() * self.squash_derivatives(w)[0] if self.squash else w)

    def domega(self, w: ArrayLike) -> np.ndarray:
        """∂ω_ij/∂w_ij (n, n)."""
        return self.mask * (self._gains() * self.squash_derivatives(w)[1] if self.squash else 1.0)

    def ddomega(self, w: ArrayLike) -> np.ndarray:
        """∂²ω_ij/∂w_ij² (n, n)."""
        return self.mask * (self._gains() * self.squash_derivatives(w)[2] if self.squash else 0.0)

    def f(self, x: np.ndarray, w: ArrayLike) -> np.ndarray:
        return -x + sigma(self.omega(w) @ x + self.rho)

    def jac_x(self, x: np.ndarray, w: ArrayLike) -> np.ndarray:
        om = self.omega(w)
        return -np.eye(self.n) + dsigma(om @ x + self.rho)[:, None] * om

    def jac_w(self, x: np.ndarray, w: ArrayLike) -> np.ndarray:
        """D_w f (n, n·n): entry (i, (i, k)) = σ'(u_i) x_k ∂ω_ik/∂w_ik (7.3b: α_i, the target's gain)."""
        u = self.omega(w) @ x + self.rho
        J = np.zeros((self.n, self.n, self.n))
        J[np.arange(self.n), np.arange(self.n), :] = dsigma(u)[:, None] * x[None, :] * self.domega(w)
        return J.reshape(self.n, -1)

    def grad_g(self, x: np.ndarray) -> np.ndarray:
        g = np.zeros(self.n)
        g[self.out] = x[self.out] - self.target
        return g

    def loss(self, x: np.ndarray) -> float:
        return 0.5 * float(np.sum((x[self.out] - self.target) ** 2))

    def h(self, x: np.ndarray, y: np.ndarray, w: ArrayLike) -> np.ndarray:
        """Weight field y D_w f, as (n, n) (−∇_w g(x*(w)) at the equilibrium)."""
        return (y @ self.jac_w(x, w)).reshape(self.n, self.n)

    def newton_start(self, w: ArrayLike) -> np.ndarray:
        """Newton's default start σ(ρ)."""
        return sigma(self.rho)

    def certificate(self, w: ArrayLike, ord: Ord = np.inf) -> float:
        """−1 + L_σ' ‖ω‖_ord (ord ∞: rows, 1: columns): an upper bound on μ_ord(D_x f) for every x."""
        return -1.0 + L_DSIGMA * float(np.abs(self.omega(w)).sum(axis=1 if ord == np.inf else 0).max())

    def second_derivatives(self, x: np.ndarray, w: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """D²_{x,w} f (n, n, n·n) and D²_w f (n, n·n, n·n), with the product-rule terms: entries
        (i, j, (i, r)) = σ''(u_i) ω_ij x_r ω'_ir + σ'(u_i) δ_jr ω'_ir and
        ((i, k), (i, r)) = σ''(u_i) x_k x_r ω'_ik ω'_ir + σ'(u_i) x_k ω''_ik δ_kr."""
        n, om, dom, ddom = self.n, self.omega(w), self.domega(w), self.ddomega(w)
        u = om @ x + self.rho
        s1, s2, i = dsigma(u), ddsigma(u), np.arange(n)
        dxw = np.zeros((n, n, n, n))
        dxw[i, :, i, :] = s2[:, None, None] * om[:, :, None] * (x[None, :] * dom)[:, None, :]
        dxw[i[:, None], i[None, :], i[:, None], i[None, :]] += s1[:, None] * dom
        dww = np.zeros((n, n, n, n, n))
        xd = x[None, :] * dom
        dww[i, i, :, i, :] = s2[:, None, None] * xd[:, :, None] * xd[:, None, :]
        dww[i[:, None], i[:, None], i[None, :], i[:, None], i[None, :]] += s1[:, None] * x[None, :] * ddom
        return dxw.reshape(n, n, n * n), dww.reshape(n, n * n, n * n)


def table3_printed(net: SquashedNet, x: np.ndarray, w: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Table 3 as printed: D_x f = σ'(u_i) ω_ij (no −δ_ij) and D_w f with the source gain α_k (7.4)."""
    u = net.omega(w) @ x + net.rho
    dxf = dsigma(u)[:, None] * net.omega(w)
    J = np.zeros((net.n, net.n, net.n))
    J[np.arange(net.n), np.arange(net.n), :] = (dsigma(u)[:, None] * x[None, :] * net.gain[None, :]
                                                * net.squash_derivatives(w)[1] * net.mask)
    return dxf, J.reshape(net.n, -1)


def table3_printed_second(net: SquashedNet, x: np.ndarray, w: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Table 3's second derivatives as printed (no product-rule terms; the source gain α_r of 7.4):
    D²_{x,w} f (n, n, n·n) with (i, j, (i, r)) = σ''(u_i) ω_ij x_r α_r s'(w_ir) and D²_w f (n, n·n, n·n)
    with ((i, k), (i, r)) = σ''(u_i) x_k x_r α_k α_r s'(w_ik) s'(w_ir), s the net's squash."""
    n, om = net.n, net.omega(w)
    xd = x[None, :] * net.gain[None, :] * net.squash_derivatives(w)[1] * net.mask
    s2, i = ddsigma(om @ x + net.rho), np.arange(n)
    dxw, dww = np.zeros((n, n, n, n)), np.zeros((n, n, n, n, n))
    dxw[i, :, i, :] = s2[:, None, None] * om[:, :, None] * xd[:, None, :]
    dww[i, i, :, i, :] = s2[:, None, None] * xd[:, :, None] * xd[:, None, :]
    return dxw.reshape(n, n, n * n), dww.reshape(n, n * n, n * n)


def fd_second_derivatives(net: SquashedNet, x: np.ndarray, w: ArrayLike,
                          eps: float = 1e-4) -> tuple[np.ndarray, np.ndarray]:
    """Central second differences of f itself: D²_{x,w} f (n, n, n·n) and D²_w f (n, n·n, n·n)
    (error O(ε²) + round-off O(1e-16/ε²))."""
    w = np.asarray(w, dtype=np.float64).ravel()
    ex, ew = eps * np.eye(net.n), eps * np.eye(w.size)

    def mixed(da: np.ndarray, db: np.ndarray, fa: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
        return (fa(da, db) - fa(da, -db) - fa(-da, db) + fa(-da, -db)) / (4 * eps ** 2)

    dxw = np.stack([np.stack([mixed(a, b, lambda p, q: net.f(x + p, w + q)) for b in ew], axis=1) for a in ex], axis=1)
    dww = np.stack([np.stack([mixed(a, b, lambda p, q: net.f(x, w + p + q)) for b in ew], axis=1) for a in ew], axis=1)
    return dxw, dww


def fd_jacobians(net: SquashedNet, x: np.ndarray, w: ArrayLike, eps: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
    """Central finite-difference D_x f (n, n) and D_w f (n, n·n)."""
    w = np.asarray(w, dtype=np.float64).ravel()
    jx = np.stack([(net.f(x + eps * e, w) - net.f(x - eps * e, w)) / (2 * eps) for e in np.eye(net.n)], axis=1)
    jw = np.stack([(net.f(x, w + eps * e) - net.f(x, w - eps * e)) / (2 * eps) for e in np.eye(w.size)], axis=1)
    return jx, jw


def complete_graph(n: int) -> np.ndarray:
    """Mask of the complete directed graph without self-loops (in(i) = out(i) = n − 1)."""
    return 1.0 - np.eye(n)


def in_star_chain(n: int) -> np.ndarray:
    """Mask (n, n) of a graph whose in- and out-degrees differ: every node j ≥ 1 feeds node 0 (the in-star)
    and the chain 0 → 1 → … → n−1. in(0) = n − 1, in(j) = 1; out(0) = 1, out(j) = 2 for 1 ≤ j ≤ n − 2,
    out(n−1) = 1 (mask[i, j] = 1 for an edge j → i; no self-loops)."""
    if n < 3:
        raise ValueError(f"in_star_chain needs n >= 3, got {n}")
    mask = np.zeros((n, n))
    mask[0, 1:] = 1.0
    mask[np.arange(1, n), np.arange(n - 1)] = 1.0
    return mask


def sampled_measure_sup(net: SquashedNet, w: ArrayLike, ord: Ord, count: int, rng: np.random.Generator,
                        box: float = 5.0) -> float:
    """max over ``count`` states x ~ U[−box, box]ⁿ of μ_ord(D_x f(x, w)) (ord 1, 2 or ∞)."""
    from rnnrepro.flynn.matrix_measures import measure
    X = rng.uniform(-box, box, (count, net.n))
    return float(np.max(measure(np.stack([net.jac_x(x, w) for x in X]), ord)))
