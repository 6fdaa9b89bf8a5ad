"""Lemmas 1-2 on real gradients: per-neuron ‖∂_{Θ_i}H_t‖ and ‖∂_{Θ_i}(W_ii H_t)‖ in the ball, and the worst-case
input that attains Lemma 1's bound."""

from __future__ import annotations

import math
from typing import Sequence

import torch

from rnnrepro.cayci.elman import Activation, grad_features, hidden, symmetric_init


def ball_point(m: int, d: int, alpha: float, rho: float, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A random point of 𝒲_ρ × 𝒰_ρ around a symmetric init: w (m,), U (m, d) with |Δw_i|, ‖ΔU_i‖ ≤ ρ/√m."""
    _, w0, U0 = symmetric_init(m, d, alpha, [seed])
    g = torch.Generator().manual_seed(seed + 1)
    dw = (2 * torch.rand(m, generator=g, dtype=torch.float64) - 1) * rho / math.sqrt(m)
    du = torch.randn(m, d, generator=g, dtype=torch.float64)
    du = du / du.norm(dim=-1, keepdim=True) * torch.rand(m, 1, generator=g, dtype=torch.float64) * rho / math.sqrt(m)
    return w0[0] + dw, U0[0] + du


def gradient_norms(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation) -> torch.Tensor:
    """max over neurons and sequences of ‖∂_{Θ_i}H_t‖ for t = 1..T: (..., T)."""
    gw, gu = grad_features(X, w, U, act)
    norms = (gw ** 2 + (gu ** 2).sum(-1)).sqrt()          # (..., n, T, m)
    return norms.amax(dim=(-3, -1))


def worst_case_input(T: int, alpha: float, act: Activation,
                     offset: float = 0.0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Single-neuron input with zero pre-activations: u = e₁, w = α; x_t = (a_t, √(1 − a_t²)).

    a_t = −α·σ(0) for t ≥ 1 cancels w h_{t-1} = α σ(0) (a_0 = 0), so every pre-activation is σ'-maximal
    for tanh and logistic alike; ``offset`` is added to every a_t (the perturbed control).
    Returns X (1, T, 2), w (1,), U (1, 2).
    """
    s0 = float(act.f(torch.zeros(())))
    a = torch.full((T,), -alpha * s0, dtype=torch.float64)
    a[0] = 0.0
    a = a + offset
    if torch.any(a.abs() > 1):
        raise ValueError(f"alpha·σ(0) = {alpha * s0} too large for a unit-norm input")
    X = torch.stack([a, (1 - a * a).sqrt()], -1)[None]
    return X, torch.tensor([alpha], dtype=torch.float64), torch.tensor([[1.0, 0.0]], dtype=torch.float64)


def worst_case_u_gradient(T: int, alpha: float, act: Activation, offset: float = 0.0) -> torch.Tensor:
    """‖∂_U H_t‖ for t = 1..T on :func:`worst_case_input` (T,)."""
    X, w, U = worst_case_input(T, alpha, act, offset)
    _, gu = grad_features(X, w, U, act)
    return gu[0, :, 0, :].norm(dim=-1)


def gradient_norm_quantiles(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation,
                            qs: Sequence[float] = (0.5, 0.9, 0.99)) -> torch.Tensor:
    """Quantiles over neurons and sequences of ‖∂_{Θ_i}H_t‖ for t = 1..T: (len(qs), T)."""
    gw, gu = grad_features(X, w, U, act)
    norms = (gw ** 2 + (gu ** 2).sum(-1)).sqrt()          # (n, T, m)
    flat = norms.transpose(0, 1).reshape(X.shape[1], -1)
    return torch.quantile(flat, torch.tensor(qs, dtype=flat.dtype), dim=1)


def rms_gradient(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation) -> torch.Tensor:
    """√(mean over neurons and sequences of ‖∂_{Θ_i}H_t‖²) for t = 1..T: (..., T).

    With |c_i| = 1 this is the root mean square over sequences of ‖∂_Θ F_t‖, the gradient of R̂ per unit
    residual at step t: the mean over neurons, not a quantile. X (n, T, d); w (..., m); U (..., m, d).
    """
    gw, gu = grad_features(X, w, U, act)
    return (gw ** 2 + (gu ** 2).sum(-1)).mean(dim=(-3, -1)).sqrt()


def recurrent_term_gradient_norms(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation) -> torch.Tensor:
    """max over neurons and sequences of ‖∂_{Θ_i}Γ_t^{(i)}‖, Γ_t^{(i)} = W_ii H_t^{(i)} (Lemma 2), t = 1..T: (..., T).

    ∂_W Γ = H + W ∂_W H, ∂_U Γ = W ∂_U H. X (n, T, d); w (..., m); U (..., m, d).
    """
    gw, gu = grad_features(X, w, U, act)                    # (..., n, T, m), (..., n, T, m, d)
    wb = w[..., None, None, :]
    gam_w = hidden(X, w, U, act) + wb * gw
    norms = (gam_w ** 2 + (wb[..., None] * gu).square().sum(-1)).sqrt()
    return norms.amax(dim=(-3, -1))
