"""The fixed-feedback network of Example 1 (eq. 7.2) with its adjoint, in column form, and what every
network of the chapter shares (:class:`AdjointNetwork`: Newton equilibrium, adjoint, h*, U).

ẋ = f(x, w) = −x + σ(v x + w ρ), x ∈ ℝⁿ, v (n, n) fixed, w (n, m) trained, ρ ∈ ℝᵐ a fixed input;
loss g(x) = ½‖x − t‖². With A = D_x f = −I + diag(σ'(v x + w ρ)) v the adjoint (2.5, y a column) is
ẏ = Aᵀ y − ∇g(x), and the weight flow (2.7c) is ẇ = h(x, y, w) = (y ⊙ σ'(v x + w ρ)) ρᵀ. At the fixed
points, h* = h(x*, y*, w) = −∇_w g(x*(w)). The Table 1 network ẋ = −x + σ(Wx + ρ) is the case m = 1,
ρ = (1,), w = ρ_Table1 as a column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.flynn.activations import dsigma, sigma


def newton_fixed_point(f: Callable[[np.ndarray], np.ndarray], jac: Callable[[np.ndarray], np.ndarray], x0: ArrayLike,
                       tol: float = 1e-14, max_iter: int = 100) -> np.ndarray:
    """Solve f(x) = 0 by Newton's method from x0 (n,); f(x) -> (n,), jac(x) -> (n, n).

    Stops when the largest step is below ``tol``; raises RuntimeError after ``max_iter`` steps.
    """
    x = np.array(x0, dtype=np.float64)
    for _ in range(max_iter):
        step = np.linalg.solve(jac(x), f(x))
        x = x - step
        if np.max(np.abs(step)) < tol:
            return x
    raise RuntimeError("Newton did not converge: is the network contracting?")


class AdjointNetwork:
    """What every network of the chapter shares: the equilibrium x*(w) by Newton, the adjoint
    y* = A^{-T}∇g(x*) (A = D_x f), h* = h(x*, y*, w) = −∇_w g(x*(w)) and the energy U = ‖u‖_Z.

    A subclass provides ``n``, ``w_shape`` (the shape of its trained parameters), ``f(x, w)``,
    ``jac_x(x, w)`` (n, n), ``grad_g(x)``, ``loss(x)``, ``h(x, y, w)`` (shape w_shape) and
    ``newton_start(w)`` (n,).
    """

    def fixed_point(self, w: ArrayLike, x_start: np.ndarray | None = None, tol: float = 1e-14,
                    max_iter: int = 100) -> np.ndarray:
        """x*(w) by Newton from x_start (default ``newton_start(w)``); unique when the network contracts."""
        x0 = self.newton_start(w) if x_start is None else x_start
        return newton_fixed_point(lambda x: self.f(x, w), lambda x: self.jac_x(x, w), x0, tol, max_iter)

    def equilibrium(self, w: ArrayLike, x_start: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(x*, y*) with y* = A^{-T} ∇g(x*); Newton started at x_start when given (for bistable nets)."""
        x = self.fixed_point(w, x_start)
        y = np.linalg.solve(self.jac_x(x, w).T, self.grad_g(x))
        return x, y

    def adjoint_field(self, x: np.ndarray, y: np.ndarray, w: ArrayLike) -> np.ndarray:
        """Right-hand side of the adjoint, Aᵀ y − ∇g(x) (n,)."""
        return self.jac_x(x, w).T @ y - self.grad_g(x)

    def h_star(self, w: ArrayLike) -> np.ndarray:
        """h* = −∇_w g(x*(w)) (shape w_shape) by Newton plus one linear solve."""
        x, y = self.equilibrium(w)
        return self.h(x, y, w)

    def loss_star(self, w: ArrayLike) -> float:
        """L*(w) = g(x*(w))."""
        return self.loss(self.fixed_point(w))

    def u_norm(self, x: np.ndarray, y: np.ndarray, w: ArrayLike, p1: float, p2: float) -> float:
        """U = ‖u(z, w)‖_Z = p1‖f‖₂ + p2‖Aᵀy − ∇g‖₂ (the right-hand side of τż = u, not ż)."""
        return p1 * float(np.linalg.norm(self.f(x, w))) + p2 * float(np.linalg.norm(self.adjoint_field(x, y, w)))


@dataclass(frozen=True)
class FixedFeedbackNet(AdjointNetwork):
    """v (n, n), rho (m,), target (n,). All float64."""

    v: np.ndarray
    rho: np.ndarray
    target: np.ndarray

    def __post_init__(self):
        n = self.v.shape[0]
        if self.v.shape != (n, n) or self.rho.ndim != 1 or self.target.shape != (n,):
            raise ValueError(f"need v (n, n), rho (m,), target (n,); got {self.v.shape}, {self.rho.shape}, "
                             f"{self.target.shape}")

    @property
    def n(self) -> int:
        return self.v.shape[0]

    @property
    def m(self) -> int:
        return self.rho.shape[0]

    @property
    def w_shape(self) -> tuple[int, int]:
        return (self.n, self.m)

    def _w(self, w: ArrayLike) -> np.ndarray:
        w = np.asarray(w, dtype=np.float64).reshape(self.n, self.m)
        return w

    def pre(self, x: np.ndarray, w: ArrayLike) -> np.ndarray:
        """Pre-activations v x + w ρ (n,)."""
        return self.v @ x + self._w(w) @ self.rho

    def f(self, x: np.ndarray, w: ArrayLike) -> np.ndarray:
        """Forward vector field (n,)."""
        return -x + sigma(self.pre(x, w))

    def jac_x(self, x: np.ndarray, w: ArrayLike) -> np.ndarray:
        """A = D_x f (n, n)."""
        return -np.eye(self.n) + dsigma(self.pre(x, w))[:, None] * self.v

    def grad_g(self, x: np.ndarray) -> np.ndarray:
        return x - self.target

    def loss(self, x: np.ndarray) -> float:
        return 0.5 * float(np.sum((x - self.target) ** 2))

    def h(self, x: np.ndarray, y: np.ndarray, w: ArrayLike) -> np.ndarray:
        """Weight field (y ⊙ σ'(pre)) ρᵀ (n, m)."""
        return np.outer(y * dsigma(self.pre(x, w)), self.rho)

    def newton_start(self, w: ArrayLike) -> np.ndarray:
        """Newton's default start σ(wρ)."""
        return sigma(self._w(w) @ self.rho)


def fd_gradient(net: AdjointNetwork, w: ArrayLike, eps: float = 1e-6) -> np.ndarray:
    """Central finite-difference gradient of L*(w) = g(x*(w)), shape net.w_shape."""
    w = np.asarray(w, dtype=np.float64).reshape(net.w_shape)
    grad = np.zeros_like(w)
    for idx in np.ndindex(*w.shape):
        e = np.zeros_like(w)
        e[idx] = eps
        grad[idx] = (net.loss_star(w + e) - net.loss_star(w - e)) / (2 * eps)
    return grad


def example1_problem(n: int, m: int, v_frob: float, seed: int,
                     rho_norm: float = 1.0) -> tuple[FixedFeedbackNet, np.ndarray]:
    """A random Example 1 problem: (net, w0). v has zero diagonal and ‖v‖_F = v_frob, ‖ρ‖₂ = rho_norm,
    w0 = 0.5·N(0, 1) (n, m), targets t ~ U(0.2, 0.8)ⁿ."""
    if n < 2 or m < 1 or not v_frob > 0 or not rho_norm > 0:
        raise ValueError("need n >= 2, m >= 1, v_frob > 0, rho_norm > 0")
    rng = np.random.default_rng(seed)
    v = rng.standard_normal((n, n))
    np.fill_diagonal(v, 0.0)
    v *= v_frob / np.linalg.norm(v)
    rho = rng.standard_normal(m)
    rho *= rho_norm / np.linalg.norm(rho)
    w0 = 0.5 * rng.standard_normal((n, m))
    target = rng.uniform(0.2, 0.8, n)
    return FixedFeedbackNet(v, rho, target), w0
