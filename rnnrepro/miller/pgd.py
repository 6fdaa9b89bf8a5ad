"""Proposition 2: projected gradient descent on the full and the truncated models, side by side.

Only W is trained (U, C, D fixed); after each step W is projected onto {‖W‖_2 ≤ radius}. All
instances, truncation lengths and step-size schedules run in one batch.
"""

from __future__ import annotations

import math

import torch

from rnnrepro.miller.contraction import project_spectral_norm

from rnnrepro.miller.gradient_gap import masked_final_loss, masked_final_prediction
from rnnrepro.miller.instances import Instance

Tensor = torch.Tensor
SCHEDULES = {"1/t": lambda t: 1.0 / t, "1/sqrt(t)": lambda t: 1.0 / math.sqrt(t), "constant": lambda t: 1.0}


def projected_gd(inst: Instance, xs: Tensor, ks: list[int], act: str, *, alpha: float, steps: int,
                 radius: float, schedules: tuple[str, ...] = ("1/t",)) -> dict[str, Tensor]:
    """Run PGD for the full model, each truncation k and a full-model twin per schedule.

    The twin follows the full model's gradients but starts, after step 1, from the k = ks[-1]
    truncated model's iterate: the distance a second full run reaches without any truncation.
    Returns ``delta`` (steps + 1, P, S, K) Frobenius distances ‖W_k − W_full‖, ``twin`` (steps + 1, P, S)
    the twin's distance to the full run, ``residual`` (steps + 1, P, S) y − prediction of the full model,
    and the final weights ``W`` (P, S, K + 2, n, n) in the order (truncated ks..., full, twin).
    """
    bad = [s for s in schedules if s not in SCHEDULES]
    if bad:
        raise ValueError(f"unknown schedules {bad}; choose from {tuple(SCHEDULES)}")
    T, P, d = xs.shape
    S, K, n = len(schedules), len(ks), inst.W.shape[-1]
    G = S * (K + 2)  # models per instance
    rep = lambda v: v.repeat_interleave(G, 0)  # noqa: E731
    W = rep(inst.W).clone()
    U, C, D, y = rep(inst.U), rep(inst.C), rep(inst.D), rep(inst.y)
    xr = rep(xs.transpose(0, 1)).transpose(0, 1)
    start = torch.tensor([T - k for k in ks] + [0, 0]).repeat(P * S)
    lr0 = torch.tensor([SCHEDULES[s](1) for s in schedules])
    deltas, twins, residuals = [], [], []

    def record():
        V = W.view(P, S, K + 2, n, n)
        deltas.append((V[:, :, :K] - V[:, :, K:K + 1]).flatten(3).norm(dim=-1))
        twins.append((V[:, :, K + 1] - V[:, :, K]).flatten(2).norm(dim=-1))

    record()
    for t in range(1, steps + 1):
        Wg = W.detach().requires_grad_(True)
        loss = masked_final_loss(act, Wg, U, C=C, D=D, y=y, xs=xr, start=start)
        (g,) = torch.autograd.grad(loss.sum(), Wg)
        residuals.append((2 * loss.detach()).sqrt().view(P, S, K + 2)[:, :, K])
        lr = alpha * torch.tensor([SCHEDULES[s](t) for s in schedules]) if t > 1 else alpha * lr0
        W = project_spectral_norm(W - lr.repeat_interleave(K + 2).repeat(P).view(-1, 1, 1) * g, radius)
        if t == 1:  # the twin restarts from the last truncated model's iterate
            V = W.view(P, S, K + 2, n, n).clone()
            V[:, :, K + 1] = V[:, :, K - 1]
            W = V.view(-1, n, n)
        record()
    residuals.append(residuals[-1])
    return {"delta": torch.stack(deltas), "twin": torch.stack(twins), "residual": torch.stack(residuals),
            "W": W.view(P, S, K + 2, n, n)}


def heldout_prediction_gap(inst: Instance, W_full: Tensor, W_trunc: Tensor, xs: Tensor, k: int, act: str) -> Tensor:
    """|f(h_T(W_full)) − f(h^k_T(W_trunc))| on inputs xs (T, P, d), f(h) = C h + D x_T: (P,)."""
    T = xs.shape[0]
    zeros = torch.zeros(inst.P, dtype=torch.long)
    full = masked_final_prediction(act, W_full, inst.U, C=inst.C, D=inst.D, xs=xs, start=zeros)
    trunc = masked_final_prediction(act, W_trunc, inst.U, C=inst.C, D=inst.D, xs=xs,
                                    start=zeros + max(T - k, 0))
    return (full - trunc).abs()


def prop2_bound(alpha: float, beta: float, gamma: float, k: int, lam: float, N: int) -> tuple[float, float]:
    """log10 of Prop. 2's bound α γ k λ^k N^{αβ+1} and of its tighter form α γ k λ^k N^{αβ} ζ(1 + αβ)."""
    from scipy.special import zeta
    base = math.log10(alpha * gamma * k) + k * math.log10(lam)
    return base + (alpha * beta + 1) * math.log10(N), base + alpha * beta * math.log10(N) + math.log10(
        zeta(1 + alpha * beta))


def thm1_display_ratio(*, alpha: float, beta: float, gamma: float, k: int, lam: float, N: int) -> float:
    """Composed / printed first term of the last display of Theorem 1's proof, in exact arithmetic.

    Composed: L_f L_w δ_N/(1 − λ) with Prop. 2's δ_N ≤ α γ k λ^k N^{αβ+1} substituted; printed:
    k λ^k α L_f L_w N^{αβ+1}/(1 − λ). The symbolic quotient is evaluated at the given constants."""
    import sympy as sp
    a, b, g, kk, lm, n, lf, lw = sp.symbols("alpha beta gamma k lambda N L_f L_w", positive=True)
    delta_n = a * g * kk * lm ** kk * n ** (a * b + 1)
    composed = lf * lw * delta_n / (1 - lm)
    printed = kk * lm ** kk * a * lf * lw * n ** (a * b + 1) / (1 - lm)
    ratio = sp.simplify(composed / printed)
    vals = {a: sp.Rational(alpha), b: sp.Rational(beta), g: sp.Rational(gamma), kk: k, lm: sp.Rational(lam), n: N,
            lf: 1, lw: 1}
    return float(ratio.subs(vals))


def thm1_proof_bound(inst: Instance, delta: Tensor, xs: Tensor, k: int, lam: float) -> Tensor:
    """The first display of Theorem 1's proof (A.2.4) for the LDS with readout f(h) = C h + D x, per instance:
    L_f L_w δ/(1 − λ) + λ^k L_f L_x B_x/(1 − λ), with L_f = ‖C‖, L_x = ‖U‖₂, B_x = max_t ‖x_t‖ on xs (T, P, d)
    and L_w = L_x B_x/(1 − λ) (Lemma 4's constant for W: sup_t ‖h_t‖, bounded by Lemma 1).
    ``delta`` (P,) is the distance ‖W_recurr − W_trunc‖ (the Frobenius norm bounds the spectral one). (P,)"""
    if not 0 < lam < 1:
        raise ValueError(f"lam must lie in (0, 1), got {lam}")
    L_f = inst.C.norm(dim=-1)
    L_x = torch.linalg.matrix_norm(inst.U, ord=2)
    B_x = xs.norm(dim=-1).amax(0)
    L_w = L_x * B_x / (1 - lam)
    return L_f * L_w * delta / (1 - lam) + lam ** k * L_f * L_x * B_x / (1 - lam)
