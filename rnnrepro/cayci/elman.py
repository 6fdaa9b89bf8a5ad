"""The diagonal Elman RNN of Cayci & Eryilmaz (eqs. 2-3), float64, batched over leading dimensions.

Parameters: ``w`` (..., m) the diagonal of W, ``U`` (..., m, d), readout ``c`` (..., m) fixed.
Inputs ``X`` (n, T, d) with ‖X_t‖ ≤ 1; outputs are F_1..F_T (the state H_t uses X_{t-1}).
Any leading batch shape ``...`` (seeds, widths of equal m, step sizes) broadcasts.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, NamedTuple

import torch


class Activation(NamedTuple):
    """σ, σ', σ'', σ' as a function of σ (df_of_f), and σ₀ = sup|σ|, σ₁ = sup|σ'|, σ₂ = sup|σ''| of (4)."""

    name: str
    f: Callable
    df: Callable
    d2f: Callable
    df_of_f: Callable
    s0: float
    s1: float
    s2: float


def _tanh_df(z):
    return 1 - torch.tanh(z) ** 2


def _tanh_d2f(z):
    t = torch.tanh(z)
    return -2 * t * (1 - t * t)


def _sig_df(z):
    s = torch.sigmoid(z)
    return s * (1 - s)


def _sig_d2f(z):
    s = torch.sigmoid(z)
    return s * (1 - s) * (1 - 2 * s)


ACTIVATIONS = {
    "tanh": Activation("tanh", torch.tanh, _tanh_df, _tanh_d2f, lambda h: 1 - h * h, 1.0, 1.0, 4 / (3 * math.sqrt(3))),
    "logistic": Activation("logistic", torch.sigmoid, _sig_df, _sig_d2f, lambda h: h * (1 - h), 1.0, 0.25,
                           math.sqrt(3) / 18),
}


def activation(name: str) -> Activation:
    """The activation called ``name`` ('tanh' or 'logistic')."""
    if name not in ACTIVATIONS:
        raise ValueError(f"unknown activation {name!r}: choose one of {', '.join(ACTIVATIONS)}")
    return ACTIVATIONS[name]


def symmetric_init(m: int, d: int, alpha: float, seeds: Iterable[int], *,
                   mirrored: bool = True) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Definition 1 for each seed: c, w = diag W(0), U(0) of shapes (S, m), (S, m), (S, m, d).

    First half: c_i ~ Rad₁, w_i ~ Rad_α, U_i ~ N(0, I_d); second half mirrors it (c → −c). With
    ``mirrored=False`` the second half is drawn independently (the control without the symmetry).
    """
    if m < 2 or m % 2:
        raise ValueError(f"m must be even and >= 2, got {m}")
    if alpha <= 0 or d < 1:
        raise ValueError(f"need alpha > 0 and d >= 1, got alpha={alpha}, d={d}")
    cs, ws, Us = [], [], []
    for seed in seeds:
        g = torch.Generator().manual_seed(int(seed))
        h = m // 2
        rad = lambda k, g=g: (torch.randint(0, 2, (k,), generator=g) * 2 - 1).double()  # noqa: E731
        c, w, U = rad(h), rad(h) * alpha, torch.randn(h, d, generator=g, dtype=torch.float64)
        if mirrored:
            cs.append(torch.cat([c, -c]))
            ws.append(torch.cat([w, w]))
            Us.append(torch.cat([U, U]))
        else:
            cs.append(torch.cat([c, rad(h)]))
            ws.append(torch.cat([w, rad(h) * alpha]))
            Us.append(torch.cat([U, torch.randn(h, d, generator=g, dtype=torch.float64)]))
    return torch.stack(cs), torch.stack(ws), torch.stack(Us)


def sphere_inputs(n: int, T: int, d: int, seed: int) -> torch.Tensor:
    """n sequences of T inputs i.i.d. uniform on the unit sphere S^{d-1}: (n, T, d)."""
    g = torch.Generator().manual_seed(int(seed))
    x = torch.randn(n, T, d, generator=g, dtype=torch.float64)
    return x / x.norm(dim=-1, keepdim=True)


def _check(X, w, U):
    if X.ndim != 3 or U.shape[-1] != X.shape[-1] or U.shape[:-1] != w.shape:
        raise ValueError(f"shapes do not match: X {tuple(X.shape)} (n,T,d), w {tuple(w.shape)} (...,m), "
                         f"U {tuple(U.shape)} (...,m,d)")


def hidden(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation) -> torch.Tensor:
    """Hidden states H_1..H_T of (2), H_0 = 0: (..., n, T, m)."""
    _check(X, w, U)
    P = torch.einsum("ntd,...md->...ntm", X, U)
    h = torch.zeros(P[..., 0, :].shape, dtype=X.dtype)
    out = []
    for t in range(X.shape[1]):
        h = act.f(w[..., None, :] * h + P[..., t, :])
        out.append(h)
    return torch.stack(out, -2)


def outputs(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, c: torch.Tensor, act: Activation,
            scale: float | None = None) -> torch.Tensor:
    """F_t = scale·Σ_i c_i H_t^(i), t = 1..T, eq. (3) with scale = 1/√m by default: (..., n, T)."""
    m = w.shape[-1]
    s = 1 / math.sqrt(m) if scale is None else scale
    return torch.einsum("...ntm,...m->...nt", hidden(X, w, U, act), c) * s


def grad_features(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation, *,
                  drop_k0: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-neuron gradients of Prop. 1 (forward recursions): ∂_{W_ii}H_t (..., n, T, m), ∂_{U_i}H_t (..., n, T, m, d).

    g_t = I_{t-1}(w g_{t-1} + x_{t-1}) (resp. + h_{t-1}); ``drop_k0`` removes the k = 0 term of the sums
    (the index as printed in Prop. 2).
    """
    _check(X, w, U)
    P = torch.einsum("ntd,...md->...ntm", X, U)
    h = torch.zeros(P[..., 0, :].shape, dtype=X.dtype)
    gw, gu = torch.zeros_like(h), torch.zeros(h.shape + (X.shape[-1],), dtype=X.dtype)
    wb = w[..., None, :]
    GW, GU = [], []
    for t in range(X.shape[1]):
        z = wb * h + P[..., t, :]
        Iz = act.df(z)
        x = X[:, t][:, None, :]
        gw = Iz * (wb * gw + h)
        gu = Iz[..., None] * (wb[..., None] * gu + x)
        if drop_k0:
            GW.append(gw - Iz * h)
            GU.append(gu - Iz[..., None] * x)
        else:
            GW.append(gw)
            GU.append(gu)
        h = act.f(z)
    return torch.stack(GW, -2), torch.stack(GU, -3)


def tangent(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, vw: torch.Tensor, vu: torch.Tensor,
            act: Activation) -> torch.Tensor:
    """Directional derivative d/dε H_t^(i)(w + ε vw, U + ε vu) per neuron: (..., n, T, m).

    ḣ_t = I_{t-1}(w ḣ_{t-1} + vw h_{t-1} + vu·x_{t-1}); vw (..., m), vu (..., m, d).
    """
    _check(X, w, U)
    P = torch.einsum("ntd,...md->...ntm", X, U)
    Q = torch.einsum("ntd,...md->...ntm", X, vu)
    h = torch.zeros(P[..., 0, :].shape, dtype=X.dtype)
    hd = torch.zeros_like(h)
    wb, vwb = w[..., None, :], vw[..., None, :]
    out = []
    for t in range(X.shape[1]):
        z = wb * h + P[..., t, :]
        hd = act.df(z) * (wb * hd + vwb * h + Q[..., t, :])
        h = act.f(z)
        out.append(hd)
    return torch.stack(out, -2)
