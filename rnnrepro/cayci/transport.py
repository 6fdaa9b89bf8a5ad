"""Transportation mappings (v_w, v_u), the infinite-width target F̃ of (8) and the attractor Θ̄ of (20).

F̃_t(X) = E_{w₀~Rad_α, u₀~N(0,I)}[⟨∇_θ h⁰_t(X; θ₀), v(θ₀)⟩]: the expected forward-mode derivative of one
unit, evaluated by exact enumeration of w₀ ∈ {±α} and antithetic scrambled Sobol points for u₀.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import torch
from scipy.special import ndtri
from scipy.stats import qmc

from rnnrepro.cayci.elman import Activation, tangent


@dataclass(frozen=True)
class TransportMap:
    """v_w: (..., m) → (..., m) and v_u: (..., m, d) → (..., m, d), with sup|v_w| ≤ nu_w, sup‖v_u‖ ≤ nu_u."""

    vw: Callable
    vu: Callable
    nu_w: float
    nu_u: float


def cosine_map(d: int, seed: int = 123, nu_w: float = 1.0, nu_u: float = 1.0) -> TransportMap:
    """v_w(±α) = ν̄_w, −ν̄_w/2; v_u(u) = ν̄_u cos(Gu + b)/√d (G, b ~ N(0,1); even part non-zero)."""
    g = torch.Generator().manual_seed(seed)
    G = torch.randn(d, d, generator=g, dtype=torch.float64)
    b = torch.randn(d, generator=g, dtype=torch.float64)
    return TransportMap(vw=lambda w0: nu_w * torch.where(w0 > 0, 1.0, -0.5).to(w0.dtype),
                        vu=lambda U0: nu_u * torch.cos(U0 @ G.T + b) / math.sqrt(d), nu_w=nu_w, nu_u=nu_u)


def w_only_map(nu_w: float = 1.0) -> TransportMap:
    """The v_w channel alone (v_u = 0)."""
    return TransportMap(vw=lambda w0: nu_w * torch.where(w0 > 0, 1.0, -0.5).to(w0.dtype),
                        vu=lambda U0: torch.zeros_like(U0), nu_w=nu_w, nu_u=0.0)


def odd_u_map(nu_u: float = 1.0) -> TransportMap:
    """An odd v_u(u) = ν̄_u u / max(1, ‖u‖) alone (v_w = 0)."""
    return TransportMap(vw=lambda w0: torch.zeros_like(w0),
                        vu=lambda U0: nu_u * U0 / torch.clamp(U0.norm(dim=-1, keepdim=True), min=1.0),
                        nu_w=0.0, nu_u=nu_u)


def qmc_sample(d: int, alpha: float, M: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Initial parameters standing for the law of (w₀, u₀): w (4M,), U (4M, d).

    M scrambled Sobol points mapped to N(0, I_d), their antithetic copies −u, each with w₀ = +α and −α.
    """
    if M < 2 or M & (M - 1):
        raise ValueError(f"M must be a power of two >= 2, got {M}")
    z = qmc.Sobol(d, scramble=True, seed=seed).random(M)
    u = torch.as_tensor(ndtri(z), dtype=torch.float64)
    u = torch.cat([u, -u])
    U = torch.cat([u, u])
    w = torch.cat([torch.full((2 * M,), alpha), torch.full((2 * M,), -alpha)]).double()
    return w, U


def target(X: torch.Tensor, act: Activation, tmap: TransportMap, *, alpha: float, M: int = 2 ** 12, seed: int = 0,
           chunk: int = 256) -> torch.Tensor:
    """F̃_t(X_j) of (8) for t = 1..T: (n, T), computed ``chunk`` sequences at a time."""
    w, U = qmc_sample(X.shape[-1], alpha, M, seed)
    vw, vu = tmap.vw(w), tmap.vu(U)
    return torch.cat([tangent(X[i:i + chunk], w, U, vw, vu, act).mean(-1) for i in range(0, X.shape[0], chunk)])


def transport_sq_norm(tmap: TransportMap, alpha: float, d: int, M: int = 2 ** 12, seed: int = 0) -> float:
    """E|v_w(w₀)|² + E‖v_u(u₀)‖² (the RKHS norm² bound) on the same sample."""
    w, U = qmc_sample(d, alpha, M, seed)
    return float((tmap.vw(w) ** 2).mean() + (tmap.vu(U) ** 2).sum(-1).mean())


def theta_bar(c: torch.Tensor, w0: torch.Tensor, U0: torch.Tensor,
              tmap: TransportMap) -> tuple[torch.Tensor, torch.Tensor]:
    """(20): W̄_ii = W_ii(0) + c_i v_w(W_ii(0))/√m, Ū_i = U_i(0) + c_i v_u(U_i(0))/√m."""
    m = w0.shape[-1]
    return w0 + c * tmap.vw(w0) / math.sqrt(m), U0 + c[..., None] * tmap.vu(U0) / math.sqrt(m)


def lyapunov0(w0: torch.Tensor, U0: torch.Tensor, tmap: TransportMap) -> torch.Tensor:
    """ℒ(Θ(0)) = Σ_i |W_ii(0) − W̄_ii|² + ‖U_i(0) − Ū_i‖² = mean_i (v_w² + ‖v_u‖²): (...,)."""
    return (tmap.vw(w0) ** 2).mean(-1) + (tmap.vu(U0) ** 2).sum(-1).mean(-1)
