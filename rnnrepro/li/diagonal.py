"""The diagonal linear RNN of (76)-(77): ρ̂(t) = Σ_i a_i e^{-w_i t}, loss J_m = ∫_0^∞ (ρ̂ − ρ)² dt.

With G_ij = 1/(w_i + w_j) and M_k(w) = ∫ t^k e^{-wt} ρ(t) dt (the target's Laplace moments),
J = aᵀGa − 2aᵀM_0(w) + ‖ρ‖². Parameters are packed as θ = (a, w), shape (2m,), with w > 0.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate

from rnnrepro.li.targets import Target


def split(theta: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """θ (2m,) → (a (m,), w (m,))."""
    theta = np.asarray(theta, float)
    m = theta.size // 2
    return theta[:m], theta[m:]


def loss(theta: ArrayLike, target: Target, norm2: float | None = None) -> float:
    """J_m(θ) (float); ``norm2`` = ‖ρ‖² may be passed to avoid recomputing it. Needs w > 0."""
    a, w = split(theta)
    if np.any(w <= 0):
        return np.inf
    G = 1.0 / np.add.outer(w, w)
    n2 = target.l2norm2() if norm2 is None else norm2
    return float(a @ G @ a - 2 * a @ target.moment(0, w) + n2)


def grad(theta: ArrayLike, target: Target) -> np.ndarray:
    """∇J_m (2m,), the gradient (19): ∂J/∂a = 2(Ga − M_0), ∂J/∂w_j = −2a_j[Σ_i a_i/(w_i+w_j)² − M_1(w_j)]."""
    a, w = split(theta)
    S = np.add.outer(w, w)
    ga = 2 * (a @ (1.0 / S) - target.moment(0, w))
    gw = -2 * a * (a @ (1.0 / S ** 2) - target.moment(1, w))
    return np.concatenate([ga, gw])


def hessian(theta: ArrayLike, target: Target) -> np.ndarray:
    """∇²J_m (2m, 2m), analytic."""
    a, w = split(theta)
    m = a.size
    S = np.add.outer(w, w)
    H = np.zeros((2 * m, 2 * m))
    H[:m, :m] = 2 / S
    Haw = -2 * a[None, :] / S ** 2
    Haw[np.diag_indices(m)] += 2 * (-(a @ (1 / S ** 2)) + target.moment(1, w))
    H[:m, m:] = Haw
    H[m:, :m] = Haw.T
    Hww = 4 * np.outer(a, a) / S ** 3
    Hww[np.diag_indices(m)] += 4 * a * (a @ (1 / S ** 3)) - 2 * a * target.moment(2, w)
    H[m:, m:] = Hww
    return H


def kernel(theta: ArrayLike, t: ArrayLike) -> np.ndarray:
    """ρ̂(t) for the packed θ; t any shape → same shape."""
    a, w = split(theta)
    return np.exp(-np.multiply.outer(np.asarray(t, float), w)) @ a


def laplace_quad(template: Callable[[float], float], w: float, mu: float) -> float:
    """δ_0(w; ω) = ∫_0^∞ e^{-wt}|ρ₀(t − mu)| dt by adaptive quadrature (Lemma C.1, (82)); float."""
    f = lambda t: np.exp(-w * t) * abs(template(t - mu))
    return float(integrate.quad(f, 0, mu, limit=400)[0] + integrate.quad(f, mu, np.inf, limit=400)[0])
