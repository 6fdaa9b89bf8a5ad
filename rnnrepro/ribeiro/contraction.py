"""Definition 2: a contractive map has one fixed point and forgets its initial state geometrically."""

from __future__ import annotations

import numpy as np
import torch


def contractive_forgetting(n_x: int = 8, gain: float = 0.8, n_starts: int = 1000, n_steps: int = 200, seed: int = 2,
                           envelope_gain: float | None = None) -> dict:
    """tanh RNN x_{t+1} = tanh(W x + ū), W = gain·Q (‖W‖₂ = gain), ū ~ N(0, I) fixed, x_0 ~ U[-1,1]^n.

    Returns dict(dist (n_starts, n_steps+1) = ‖x_t − x*‖, envelope (n_steps+1,) = gain^t,
    ``envelope_gain`` (default ``gain``) is the factor of the envelope (a smaller one is a negative control).
    worst_ratio = max_{t≤100,x0} ‖x_t − x*‖ / (gain^t ‖x_0 − x*‖), spread = max pairwise-ish spread of x_T)."""
    g = torch.Generator().manual_seed(seed)
    Q = torch.linalg.qr(torch.randn(n_x, n_x, generator=g, dtype=torch.float64))[0]
    W = gain * Q
    ubar = torch.randn(n_x, generator=g, dtype=torch.float64)
    xs = torch.zeros(n_x, dtype=torch.float64)
    for _ in range(5000):                      # fixed point by iteration (error ≤ gain^5000)
        xs = torch.tanh(W @ xs + ubar)
    x = 2 * torch.rand(n_starts, n_x, generator=g, dtype=torch.float64) - 1
    d = [(x - xs).norm(dim=1)]
    for _ in range(n_steps):
        x = torch.tanh(x @ W.T + ubar)
        d.append((x - xs).norm(dim=1))
    dist = torch.stack(d, 1).numpy()
    env = (gain if envelope_gain is None else envelope_gain) ** np.arange(n_steps + 1)
    ratio = dist[:, 1:] / (env[None, 1:] * dist[:, :1])
    spread = float((x - x.mean(0)).norm(dim=1).max())
    return dict(dist=dist, envelope=env, worst_ratio=float(ratio[:, :100].max()), spread=spread)
