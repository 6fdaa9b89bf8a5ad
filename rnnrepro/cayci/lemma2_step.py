"""The first inequality of Lemma 2(2)'s proof, ‖∇²Γ‖_F² ≤ 2‖∇H‖² + 2W²‖∇²H‖_F², on real Hessians.

Γ_T^{(i)} = W_ii H_T^{(i)} as a function of one neuron's θ_i = (W_ii, U_i) (1 + d,). Its Hessian is
W_ii ∇²H + e gᵀ + g eᵀ (g = ∇H, e the W_ii axis), whose middle part has Frobenius norm up to 2‖g‖, so the
printed step can fail by up to a factor 2. Two independent evaluations: exact Hessians (``torch.func``) and
central finite differences of the Prop. 1 gradient recursion (:func:`rnnrepro.cayci.elman.grad_features`).

The statement itself, γ_t = √2(L_t + α_m β_t), fails where it is tight (:func:`tight_instance`): at t = 2 with a
small α_m (so that α_m β_t is negligible), a saturated first state and a zero second pre-activation, g has a large
component along e, and ‖e gᵀ + g eᵀ‖₂ = |g_W| + ‖g‖ tends to σ₁(σ₀ + √(1 + σ₀²)), above √2 L_t = √2 σ₁√(1 + σ₀²).
:func:`recurrent_term_hessian_spectral` measures the spectral norm (what smoothness is about) exactly and by
finite differences.
"""

from __future__ import annotations

import torch
from torch.func import hessian, jacrev, vmap

from rnnrepro.cayci.elman import Activation, grad_features, hidden
from rnnrepro.cayci.smoothness import _last_state


def _check(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor) -> None:
    if X.ndim != 3 or w.ndim != 1 or U.shape != (w.shape[0], X.shape[-1]):
        raise ValueError(f"shapes do not match: X {tuple(X.shape)}, w {tuple(w.shape)}, U {tuple(U.shape)}")


def _ratio(hess_gamma: torch.Tensor, grad_h: torch.Tensor, hess_h: torch.Tensor, w: torch.Tensor,
           corrected: bool) -> torch.Tensor:
    lhs = hess_gamma.square().sum((-2, -1))
    rhs = (8 if corrected else 2) * grad_h.square().sum(-1) + 2 * w[:, None] ** 2 * hess_h.square().sum((-2, -1))
    return lhs / rhs


def step_ratio(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation, *,
               corrected: bool = False) -> torch.Tensor:
    """‖∇²Γ_T‖_F² / (2‖∇H_T‖² + 2W_ii²‖∇²H_T‖_F²) per neuron and sequence, exact Hessians: (m, n).

    X (n, T, d), w (m,), U (m, d). A value above 1 violates the printed step of Lemma 2(2)'s proof.
    ``corrected``: 8‖∇H_T‖² in place of 2‖∇H_T‖² (from ‖e gᵀ + g eᵀ‖_F ≤ 2‖g‖), a step that always holds.
    """
    _check(X, w, U)
    theta = torch.cat([w[:, None], U], dim=1)
    f_h, f_g = _last_state(act, times_w=False), _last_state(act, times_w=True)
    each = lambda fn: vmap(vmap(fn, in_dims=(None, 0)), in_dims=(0, None))(theta, X)  # noqa: E731
    return _ratio(each(hessian(f_g)), each(jacrev(f_h)), each(hessian(f_h)), w, corrected)


def _gradients(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation) -> tuple[torch.Tensor, torch.Tensor]:
    """∇_θ H_T and ∇_θ Γ_T from the Prop. 1 recursion: (m, n, 1 + d) each."""
    gw, gu = grad_features(X, w, U, act)                   # (n, T, m), (n, T, m, d)
    g_h = torch.cat([gw[:, -1, :, None], gu[:, -1]], -1).transpose(0, 1)
    h = hidden(X, w, U, act)[:, -1].T                     # (m, n)
    g_gamma = torch.cat([(h + w[:, None] * g_h[..., 0])[..., None], w[:, None, None] * g_h[..., 1:]], -1)
    return g_h, g_gamma


def _hessians_fd(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation,
                 h: float) -> tuple[torch.Tensor, torch.Tensor]:
    """∇²H_T and ∇²Γ_T by central differences of the Prop. 1 gradients (no autograd): (m, n, 1 + d, 1 + d) each.

    Neurons are independent, so coordinate k of every neuron is perturbed at once. Truncation error O(h²).
    """
    _check(X, w, U)
    theta = torch.cat([w[:, None], U], dim=1)
    cols_h, cols_g = [], []
    for k in range(theta.shape[1]):
        shifted = []
        for sign in (1.0, -1.0):
            th = theta.clone()
            th[:, k] += sign * h
            shifted.append(_gradients(X, th[:, 0], th[:, 1:], act))
        cols_h.append((shifted[0][0] - shifted[1][0]) / (2 * h))
        cols_g.append((shifted[0][1] - shifted[1][1]) / (2 * h))
    return torch.stack(cols_h, -1), torch.stack(cols_g, -1)


def step_ratio_fd(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation, *,
                  h: float = 1e-5) -> torch.Tensor:
    """:func:`step_ratio` with Hessians by central differences of the Prop. 1 gradients (no autograd): (m, n)."""
    hess_h, hess_g = _hessians_fd(X, w, U, act, h)
    grad_h, _ = _gradients(X, w, U, act)
    return _ratio(hess_g, grad_h, hess_h, w, False)


def tight_instance(alpha: float, r: float, act: Activation) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One neuron and one input of length 2 on which Lemma 2(2)'s γ_2 is tight: X (1, 2, 2), w (1,), U (1, 2).

    W_ii = ``alpha``, U_i = r e₁; X_0 = e₁ (first pre-activation r: a saturated state σ(r)), X_1 the unit vector
    (a, √(1 − a²)) with a = −alpha σ(r)/r, so that the second pre-activation is 0 and σ' = σ₁ there.
    """
    if alpha <= 0 or r <= 0:
        raise ValueError(f"need alpha > 0 and r > 0, got alpha={alpha}, r={r}")
    a = -alpha * float(act.f(torch.tensor(r, dtype=torch.float64))) / r
    if abs(a) >= 1:
        raise ValueError(f"alpha·σ(r)/r = {-a} must be below 1 for a unit-norm input: take a larger r")
    X = torch.tensor([[[1.0, 0.0], [a, (1 - a * a) ** 0.5]]], dtype=torch.float64)
    return X, torch.tensor([alpha], dtype=torch.float64), torch.tensor([[r, 0.0]], dtype=torch.float64)


def recurrent_term_hessian_spectral(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation, *,
                                    fd: float | None = None) -> torch.Tensor:
    """‖∇²_{θ_i}(W_ii H_T^{(i)})(X_j)‖₂, the spectral norm that γ_T-smoothness bounds, per neuron and sequence: (m, n).

    Exact Hessians (``torch.func``); with ``fd = h``, central differences of the Prop. 1 gradients instead.
    """
    _check(X, w, U)
    if fd is None:
        theta = torch.cat([w[:, None], U], dim=1)
        hess_g = vmap(vmap(hessian(_last_state(act, times_w=True)), in_dims=(None, 0)), in_dims=(0, None))(theta, X)
    else:
        _, hess_g = _hessians_fd(X, w, U, act, fd)
        hess_g = (hess_g + hess_g.transpose(-2, -1)) / 2
    return torch.linalg.eigvalsh(hess_g).abs().amax(-1)
