"""Gradient descent and ℓ_{2,∞}-projected GD on the empirical risk (1), batched over runs.

R̂(Θ) = (1/n) Σ_j Σ_t (F_t(X_j) − Y_{j,t})² (no 1/2, sum over t). The gradient is computed by the
forward recursions of Prop. 1 (one pass, no autograd); :func:`loss_and_grad` is checked against
autograd in the tests. Every run b has its own step η_b, radius ρ_b (∞: plain GD), horizon τ_b and
readout scale (1/√m: the paper; 1/m: mean-field control).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np
import torch

from rnnrepro.cayci.elman import Activation

Scalars = Union[float, Sequence[float], torch.Tensor]   # one value per run (B,), or one for all


def loss_and_grad(X: torch.Tensor, Y: torch.Tensor, w: torch.Tensor, U: torch.Tensor, *, c: torch.Tensor,
                  act: Activation, scale: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """R̂ (B,) and its gradients (B, m), (B, m, d). X (n, T, d), Y (B, n, T), w, c (B, m), U (B, m, d), scale (B,)."""
    n, T, d = X.shape
    P = torch.einsum("ntd,bmd->tbnm", X, U).contiguous()
    Xt = X.permute(1, 2, 0)[..., None, :, None].contiguous()    # (T, d, 1, n, 1)
    wb, a = w[:, None, :], (c * scale[:, None])[:, None, :]
    h = torch.zeros(P.shape[1:], dtype=X.dtype)
    gw, gu = torch.zeros_like(h), torch.zeros((d,) + h.shape, dtype=X.dtype)
    loss = torch.zeros(w.shape[0], dtype=X.dtype)
    acc_w, acc_u = torch.zeros_like(h), torch.zeros_like(gu)
    for t in range(T):
        z = torch.addcmul(P[t], wb, h)
        hn = act.f(z)
        Iz = act.df_of_f(hn)
        gw = Iz * torch.addcmul(h, wb, gw)
        gu = Iz * torch.addcmul(Xt[t], wb, gu)
        h = hn
        r = (h * a).sum(-1, keepdim=True) - Y[:, :, t, None]          # (B, n, 1)
        loss = loss + (r * r).sum((-2, -1)) / n
        acc_w = torch.addcmul(acc_w, r, gw)
        acc_u = torch.addcmul(acc_u, r, gu)
    k = 2.0 / n * c * scale[:, None]
    acc_w, acc_u = acc_w.sum(-2), acc_u.sum(-2).permute(1, 2, 0)
    return loss, k * acc_w, k[..., None] * acc_u


@dataclass
class Runs:
    """Histories (B, τ_max) and end results of a batch of runs (numpy; entries past τ_b are NaN)."""

    loss: np.ndarray          # R̂(Θ(s)), s < τ_b
    disp: np.ndarray          # √m · max_i ‖Θ_i(s) − Θ_i(0)‖ after step s
    disp_w: np.ndarray        # √m · max_i |W_ii(s) − W_ii(0)|
    disp_u: np.ndarray        # √m · max_i ‖U_i(s) − U_i(0)‖
    w_avg: torch.Tensor       # average iterate (1/τ_b) Σ_{s<τ_b} Θ(s): (B, m)
    U_avg: torch.Tensor       # (B, m, d)
    w_last: torch.Tensor      # Θ(τ_b)
    U_last: torch.Tensor

    def trajectory_average(self) -> np.ndarray:
        """A(τ_b) = (1/τ_b) Σ_{s<τ_b} R̂(Θ(s)) (B,)."""
        return np.nanmean(self.loss, axis=1)


def train(X: torch.Tensor, Y: torch.Tensor, c: torch.Tensor, w0: torch.Tensor, U0: torch.Tensor, *, act: Activation,
          eta: Scalars, taus: int | Sequence[int], rho_w: Scalars | None = None, rho_u: Scalars | None = None,
          scale: Scalars | None = None) -> Runs:
    """Run B (projected) GD runs for τ_b steps each; ρ = None or ∞ means no projection.

    eta, taus, rho_w, rho_u, scale: (B,) or scalars. Radii are ρ/√m around Θ(0): W clipped, U row-wise.
    """
    B, m = w0.shape
    vec = lambda v, default: torch.as_tensor(default if v is None else v, dtype=torch.float64).expand(B).clone()  # noqa: E731
    eta, rho_w, rho_u = vec(eta, 0.0), vec(rho_w, float("inf")), vec(rho_u, float("inf"))
    scale = vec(scale, m ** -0.5)
    taus = np.broadcast_to(np.asarray(taus, dtype=int), (B,)).copy()
    if np.any(taus < 1) or torch.any(eta <= 0) or torch.any(rho_w <= 0) or torch.any(rho_u <= 0):
        raise ValueError("need taus >= 1, eta > 0 and radii > 0")
    tmax = int(taus.max())
    rw, ru = (rho_w / m ** 0.5)[:, None], (rho_u / m ** 0.5)[:, None]
    w, U = w0.clone(), U0.clone()
    hist = {k: np.full((B, tmax), np.nan) for k in ("loss", "disp", "disp_w", "disp_u")}
    sw, sU = torch.zeros_like(w), torch.zeros_like(U)
    w_avg, U_avg, w_last, U_last = w.clone(), U.clone(), w.clone(), U.clone()
    for s in range(tmax):
        live = torch.as_tensor(s < taus)
        loss, gw, gU = loss_and_grad(X, Y, w, U, c=c, act=act, scale=scale)
        hist["loss"][:, s] = np.where(s < taus, loss.numpy(), np.nan)
        sw, sU = sw + w, sU + U
        done = torch.as_tensor(s + 1 == taus)
        w_avg[done], U_avg[done] = sw[done] / (s + 1), sU[done] / (s + 1)
        w_new = torch.minimum(torch.maximum(w - eta[:, None] * gw, w0 - rw), w0 + rw)
        D = U - eta[:, None, None] * gU - U0
        nr = D.norm(dim=-1)
        D = D * torch.clamp(ru / torch.clamp(nr, min=1e-300), max=1.0)[..., None]
        w = torch.where(live[:, None], w_new, w)
        U = torch.where(live[:, None, None], U0 + D, U)
        w_last[done], U_last[done] = w[done], U[done]
        dw, du = (w - w0).abs(), (U - U0).norm(dim=-1)
        for k, v in (("disp", (dw ** 2 + du ** 2).sqrt()), ("disp_w", dw), ("disp_u", du)):
            hist[k][:, s] = np.where(s < taus, m ** 0.5 * v.max(-1).values.numpy(), np.nan)
    return Runs(w_avg=w_avg, U_avg=U_avg, w_last=w_last, U_last=U_last, **hist)
