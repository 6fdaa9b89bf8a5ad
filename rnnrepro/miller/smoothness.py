"""Lemma 3 (smoothness) and Lemma 4 (weights -> trajectories) measurements."""

from __future__ import annotations

import torch

from rnnrepro.miller.instances import step_fn

Tensor = torch.Tensor


def hessian_norms(act: str, W: Tensor, U: Tensor, C: Tensor, *, xs: Tensor, lengths: list[int],
                  iters: int = 40, seed: int = 0) -> Tensor:
    """‖∇²_W p_T‖_2 by power iteration, for p_T = ½(1 − C h_T)^2 on the last T inputs, each T in ``lengths``.

    W (P, n, n), U (P, n, d), C (P, n), xs (T_max, P, d). Returns (P, len(lengths)). The lengths share
    the inputs' tail (nested sequences); one batched pass with a reset before input T_max − T.
    """
    T_max, P, _ = xs.shape
    L, n = len(lengths), W.shape[-1]
    if max(lengths) > T_max or min(lengths) < 1:
        raise ValueError(f"lengths must lie in [1, {T_max}], got {lengths}")
    Wr = W.repeat_interleave(L, 0).detach().requires_grad_(True)
    Ur, Cr = U.repeat_interleave(L, 0), C.repeat_interleave(L, 0)
    start = (T_max - torch.tensor(lengths)).repeat(P)
    step = step_fn(act, Wr, Ur)
    h = xs.new_zeros(P * L, 1, n)
    for t in range(T_max):
        h = step(h * (start != t).to(xs.dtype).view(-1, 1, 1), xs[t].repeat_interleave(L, 0)[:, None, :])
    loss = 0.5 * ((1.0 - (h[:, 0] * Cr).sum(-1)) ** 2).sum()
    (g,) = torch.autograd.grad(loss, Wr, create_graph=True)
    # the same start vector for every length of an instance, so that the estimates are comparable in T
    v = torch.randn(W.shape, generator=torch.Generator().manual_seed(seed), dtype=xs.dtype).repeat_interleave(L, 0)
    est = v.new_zeros(P * L)
    for _ in range(iters):
        v = v / v.flatten(1).norm(dim=1).clamp(min=1e-300).view(-1, 1, 1)
        (hv,) = torch.autograd.grad(g, Wr, grad_outputs=v, retain_graph=True)
        est = hv.flatten(1).norm(dim=1)
        v = hv.detach()
    return est.detach().view(P, L)


def trajectory_gap_ratio(act: str, W: Tensor, W2: Tensor, U: Tensor, xs: Tensor, lam: float) -> tuple[Tensor, Tensor]:
    """Lemma 4: (max_t ‖h_t(W) − h_t(W')‖ / bound, bound) per pair (P,), with the W-only bound

    ‖W − W'‖_2 · L_w / (1 − λ), L_w = ‖U‖_2 B_x / (1 − λ) (the sup of ‖h‖), B_x = max_t ‖x_t‖.
    """
    from rnnrepro.miller.windows import full_states
    n = W.shape[-1]
    gap = (full_states(step_fn(act, W, U), xs, n) - full_states(step_fn(act, W2, U), xs, n)).norm(dim=-1).amax(0)
    Lw = torch.linalg.matrix_norm(U, ord=2) * xs.norm(dim=-1).amax(0) / (1 - lam)
    bound = torch.linalg.matrix_norm(W - W2, ord=2) * Lw / (1 - lam)
    return gap / bound, bound


def loss_hessian_norm(act: str, inst, xs: Tensor, iters: int = 20, seed: int = 0) -> Tensor:
    """‖∇²_W p_T‖_2 at the instance's W for its own loss ½(y − C h_T − D x_T)^2 (power iteration): (P,)."""
    from rnnrepro.miller.gradient_gap import masked_final_loss
    W = inst.W.detach().requires_grad_(True)
    start = torch.zeros(inst.P, dtype=torch.long)
    loss = masked_final_loss(act, W, inst.U, C=inst.C, D=inst.D, y=inst.y, xs=xs, start=start).sum()
    (g,) = torch.autograd.grad(loss, W, create_graph=True)
    v = torch.randn(W.shape, generator=torch.Generator().manual_seed(seed), dtype=xs.dtype)
    est = v.new_zeros(inst.P)
    for _ in range(iters):
        v = v / v.flatten(1).norm(dim=1).clamp(min=1e-300).view(-1, 1, 1)
        (hv,) = torch.autograd.grad(g, W, grad_outputs=v, retain_graph=True)
        est = hv.flatten(1).norm(dim=1)
        v = hv.detach()
    return est.detach()
