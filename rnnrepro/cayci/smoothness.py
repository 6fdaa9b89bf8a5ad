"""Lemmas 1(2) and 2(2): Hessians of one neuron's hidden state H_T^{(i)} and of its recurrent term W_ii H_T^{(i)} in its
own parameters θ_i = (W_ii, U_i)."""

from __future__ import annotations

from typing import Callable

import torch
from torch.func import hessian, vmap

from rnnrepro.cayci.elman import Activation


def _last_state(act: Activation, *, times_w: bool) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """θ = (W_ii, U_i) (1 + d,), x (T, d) ↦ H_T^{(i)}, or W_ii H_T^{(i)} with ``times_w``."""

    def last_state(theta: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        h = theta.new_zeros(())
        for t in range(x.shape[0]):
            h = act.f(theta[0] * h + theta[1:] @ x[t])
        return theta[0] * h if times_w else h

    return last_state


def _hessian_norms(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation, *,
                   times_w: bool) -> torch.Tensor:
    if X.ndim != 3 or U.shape != (w.shape[0], X.shape[-1]):
        raise ValueError(f"shapes do not match: X {tuple(X.shape)}, w {tuple(w.shape)}, U {tuple(U.shape)}")
    theta = torch.cat([w[:, None], U], dim=1)
    f = _last_state(act, times_w=times_w)
    H = vmap(vmap(hessian(f), in_dims=(None, 0)), in_dims=(0, None))(theta, X)
    return H.flatten(-2).norm(dim=-1)


def hessian_norms(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation) -> torch.Tensor:
    """‖∇²_{θ_i} H_T^{(i)}(X_j)‖_F for every neuron i and sequence j: (m, n). X (n, T, d), w (m,), U (m, d)."""
    return _hessian_norms(X, w, U, act, times_w=False)


def recurrent_term_hessian_norms(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation) -> torch.Tensor:
    """‖∇²_{θ_i}(W_ii H_T^{(i)})(X_j)‖_F (Lemma 2's Γ) for every neuron i and sequence j: (m, n). Shapes as
    :func:`hessian_norms`."""
    return _hessian_norms(X, w, U, act, times_w=True)
