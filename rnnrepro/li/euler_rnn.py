"""Training Euler-discretised (residual) RNNs with a full recurrent matrix (Figs 1 and 4).

Closed-form white-noise loss of the linear model (Itô isometry, discrete):
L(W, U, c) = Δt Σ_{j<K} (cᵀ(I + ΔtW)^j U − ρ_j)², with an analytic gradient. Sample-path loss for
linear or tanh cells h_{k+1} = h_k + Δt σ(W h_k + U x_k), ŷ = cᵀh_K, with x_k ~ N(0, 1/Δt) and
target y = Δt Σ_j ρ_j x_{K−1−j}, gradient by hand-written backpropagation through time.
Parameters are dicts {"W": (m, m), "U": (m,), "c": (m,)}.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.linalg import hankel

Params = dict[str, np.ndarray]   # {"W": (m, m), "U": (m,), "c": (m,)}
LossGrad = Callable[[Params, int], tuple[float, Params]]   # (params, step k) → (L, grads)


def _powers_times(P, v, K):
    """[v, Pv, P²v, ..., P^{K−1}v] as an (m, K) array, by log-doubling."""
    V = np.empty((v.size, K))
    V[:, 0] = v
    n, Q = 1, P.copy()
    while n < K:
        take = min(n, K - n)
        V[:, n:n + take] = Q @ V[:, :take]
        n += take
        Q = Q @ Q
    return V


def kernel_loss_grad(params: Params, rho: np.ndarray, dt: float) -> tuple[float, Params]:
    """(L, grads) for the closed-form loss; rho: target ρ_j on the grid, shape (K,)."""
    W, U, c = params["W"], params["U"], params["c"]
    K, m = rho.size, U.size
    P = np.eye(m) + dt * W
    V = _powers_times(P, U, K)
    Z = _powers_times(P.T, c, K)
    e = c @ V - rho
    L = float(dt * e @ e)
    H = hankel(e[1:], np.zeros(K - 1))  # H[i, l] = e[i + l + 1]
    gP = 2 * dt * Z[:, :K - 1] @ H @ V[:, :K - 1].T
    return L, {"W": dt * gP, "U": 2 * dt * Z @ e, "c": 2 * dt * V @ e}


def kernel(params: Params, dt: float, K: int) -> np.ndarray:
    """The model's discrete kernel k_j, j < K → (K,)."""
    m = params["U"].size
    return params["c"] @ _powers_times(np.eye(m) + dt * params["W"], params["U"], K)


def random_init(m: int, rng: np.random.Generator, diag: float = -1.0, scale: float = 0.5) -> Params:
    """Fig. 1 init (our choice): W = diag·I + scale·N(0, 1/m), U, c ~ N(0, 1/m)."""
    return {"W": diag * np.eye(m) + scale * rng.normal(size=(m, m)) / np.sqrt(m),
            "U": rng.normal(size=m) / np.sqrt(m), "c": rng.normal(size=m) / np.sqrt(m)}


def structured_init(m: int, rng: np.random.Generator) -> Params:
    """A point of M₀ for ρ̄ = e^{-t} (our choice): W = −diag(1, w_2..w_m), w_i ~ 0.5 + 0.3·U(0,1),
    U = (1, 0.5·N(0,1), ...), c = (1, 0, ..., 0): the model fits e^{-t}, the other neurons are dead."""
    w = np.concatenate([[1.0], 0.5 + 0.3 * rng.random(m - 1)])
    U = np.concatenate([[1.0], 0.5 * rng.normal(size=m - 1)])
    return {"W": -np.diag(w), "U": U, "c": np.eye(m)[0]}


def sample_path_loss_grad(params: Params, rho: np.ndarray, dt: float, x: np.ndarray,
                          act: str = "linear") -> tuple[float, Params]:
    """(L, grads) of the batch loss mean_b (ŷ_b − y_b)²; x: inputs (B, K), rho: (K,)."""
    W, U, c = params["W"], params["U"], params["c"]
    B, K = x.shape
    y = dt * x[:, ::-1] @ rho
    hs = np.zeros((K + 1, B, U.size))
    zs = np.empty((K, B, U.size))
    for k in range(K):
        zs[k] = hs[k] @ W.T + np.outer(x[:, k], U)
        hs[k + 1] = hs[k] + dt * (np.tanh(zs[k]) if act == "tanh" else zs[k])
    r = hs[K] @ c - y
    L = float(np.mean(r ** 2))
    gh = (2.0 / B) * np.outer(r, c)
    gW, gU = np.zeros_like(W), np.zeros_like(U)
    for k in range(K - 1, -1, -1):
        dz = gh * dt * ((1 - np.tanh(zs[k]) ** 2) if act == "tanh" else 1.0)
        gW += dz.T @ hs[k]
        gU += dz.T @ x[:, k]
        gh = gh + dz @ W
    return L, {"W": gW, "U": gU, "c": (2.0 / B) * hs[K].T @ r}


def train(params: Params, loss_grad: LossGrad, steps: int, lr: float, *, method: str = "gd",
          stop_below: float | None = None, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
          clip: float | None = None) -> tuple[Params, np.ndarray]:
    """Minimise with plain GD (``method="gd"``) or Adam (``"adam"``); loss_grad(params, k) → (L, grads) at step k.

    ``clip`` rescales the gradient to global norm ≤ clip (None: no clipping). Returns
    (params, losses (n,)), n ≤ steps; stops early once L < stop_below or L is not finite.
    """
    p = {k: v.copy() for k, v in params.items()}
    mom = {k: np.zeros_like(v) for k, v in p.items()}
    vel = {k: np.zeros_like(v) for k, v in p.items()}
    out = np.empty(steps)
    for k in range(steps):
        L, g = loss_grad(p, k)
        out[k] = L
        if not np.isfinite(L) or (stop_below is not None and L < stop_below):
            return p, out[:k + 1]
        if clip is not None:
            norm = math.sqrt(sum(float(np.sum(v * v)) for v in g.values()))
            if norm > clip:
                g = {n: v * (clip / norm) for n, v in g.items()}
        for n in p:
            if method == "gd":
                p[n] -= lr * g[n]
            else:
                mom[n] = betas[0] * mom[n] + (1 - betas[0]) * g[n]
                vel[n] = betas[1] * vel[n] + (1 - betas[1]) * g[n] ** 2
                mh, vh = mom[n] / (1 - betas[0] ** (k + 1)), vel[n] / (1 - betas[1] ** (k + 1))
                p[n] -= lr * mh / (np.sqrt(vh) + eps)
    return p, out


def smooth(L: np.ndarray, window: int) -> np.ndarray:
    """Trailing moving average of a noisy loss curve (n,) → (n,)."""
    L = np.asarray(L, float)
    c = np.cumsum(np.insert(L, 0, 0.0))
    idx = np.arange(1, L.size + 1)
    lo = np.maximum(idx - window, 0)
    return (c[idx] - c[lo]) / (idx - lo)
