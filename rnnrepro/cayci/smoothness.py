"""Lemma 1(2): the Hessian of one neuron's hidden state in its own parameters θ_i = (W_ii, U_i)."""

from __future__ import annotations

import torch
from torch.func import hessian, vmap

from rnnrepro.cayci.elman import Activation


def hessian_norms(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation) -> torch.Tensor:
    """‖∇²_{θ_i} H_T^{(i)}(X_j)‖_F for every neuron i and sequence j: (m, n). X (n, T, d), w (m,), U (m, d)."""
    if X.ndim != 3 or U.shape != (w.shape[0], X.shape[-1]):
        raise ValueError(f"shapes do not match: X {tuple(X.shape)}, w {tuple(w.shape)}, U {tuple(U.shape)}")

    def last_state(theta: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        h = theta.new_zeros(())
        for t in range(x.shape[0]):
            h = act.f(theta[0] * h + theta[1:] @ x[t])
        return h

    theta = torch.cat([w[:, None], U], dim=1)
    H = vmap(vmap(hessian(last_state), in_dims=(None, 0)), in_dims=(0, None))(theta, X)
    return H.flatten(-2).norm(dim=-1)
