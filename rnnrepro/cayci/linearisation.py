"""Prop. 4: the error of the linearised model F^Lin around Θ(0), and the perturbations that probe it."""

from __future__ import annotations

import math
from typing import Sequence

import torch

from rnnrepro.cayci.elman import Activation, grad_features, outputs, tangent


def linear_outputs(X: torch.Tensor, w0: torch.Tensor, U0: torch.Tensor, c: torch.Tensor, *, dw: torch.Tensor,
                   dU: torch.Tensor, act: Activation) -> torch.Tensor:
    """F^Lin_t = Σ_i ⟨∂_{Θ_i}F_t(Θ(0)), ΔΘ_i⟩ (F(Θ(0)) = 0 under Definition 1): (..., n, T)."""
    m = w0.shape[-1]
    return torch.einsum("...ntm,...m->...nt", tangent(X, w0, U0, dw, dU, act), c) / math.sqrt(m)


def linearisation_error(X: torch.Tensor, w0: torch.Tensor, U0: torch.Tensor, c: torch.Tensor, *, w: torch.Tensor,
                        U: torch.Tensor, act: Activation) -> torch.Tensor:
    """max_{j,t} |F_t(Θ) − F_t(Θ(0)) − F^Lin_t(Θ)|: (...,)."""
    linear = linear_outputs(X, w0, U0, c, dw=w - w0, dU=U - U0, act=act)
    diff = outputs(X, w, U, c, act) - outputs(X, w0, U0, c, act) - linear
    return diff.abs().amax(dim=(-2, -1))


def adversarial_w(X1: torch.Tensor, w0: torch.Tensor, U0: torch.Tensor, c: torch.Tensor, act: Activation,
                  eps: float = 1e-4) -> torch.Tensor:
    """One-sided ΔW: 1/√m on first-half neurons whose c_i ∂²_W H_T^(i)(X1) > 0, else 0: (..., m).

    X1 (1, T, d). The curvature is a central difference of ∂_W H_T (Prop. 1 recursion). Only the first
    half moves, so the mirrored pairs do not cancel the second-order term.
    """
    m = w0.shape[-1]
    gp, _ = grad_features(X1, w0 + eps, U0, act)
    gm, _ = grad_features(X1, w0 - eps, U0, act)
    curv = (gp - gm)[..., 0, -1, :] / (2 * eps)
    first = torch.arange(m) < m // 2
    return torch.where(first & (c * curv > 0), 1.0, 0.0).double() / math.sqrt(m)


def random_ball(shape_w: Sequence[int], d: int, rho: float, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Random ΔW ~ U(±ρ/√m), ΔU_i of norm ρ/√m with uniform direction: (..., m), (..., m, d)."""
    g = torch.Generator().manual_seed(seed)
    m = shape_w[-1]
    dw = (2 * torch.rand(shape_w, generator=g, dtype=torch.float64) - 1) * rho / math.sqrt(m)
    du = torch.randn(tuple(shape_w) + (d,), generator=g, dtype=torch.float64)
    return dw, du / du.norm(dim=-1, keepdim=True) * rho / math.sqrt(m)
