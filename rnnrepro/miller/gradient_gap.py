"""Lemma 2: the gap between the full and the truncated model's gradient of the final loss.

Loss p_T = ½ (y - C h_T - D x_T)^2, parameters w = (W, U). One batched pass computes the gradient for
every truncation length k at once: the state is reset to zero just before input x_{T-k+1} is read.
"""

from __future__ import annotations

import torch

from rnnrepro.miller.instances import Instance, step_fn

Tensor = torch.Tensor


def masked_final_prediction(act: str, W: Tensor, U: Tensor, *, C: Tensor, D: Tensor, xs: Tensor,
                            start: Tensor) -> Tensor:
    """C h_T + D x_T per model (M,): W (M, n, n), U (M, n, d), C (M, n), D (M, d), xs (T, M, d).

    Model m's state is reset to zero just before it reads input ``start[m]`` (0-based), so it sees the
    last T − start[m] inputs (start 0: the full model).
    """
    n = W.shape[-1]
    step = step_fn(act, W, U)
    h = xs.new_zeros(W.shape[0], 1, n)
    for t in range(xs.shape[0]):
        h = step(h * (start != t).to(xs.dtype).view(-1, 1, 1), xs[t][:, None, :])
    return (h[:, 0] * C).sum(-1) + (xs[-1] * D).sum(-1)


def masked_final_loss(act: str, W: Tensor, U: Tensor, *, C: Tensor, D: Tensor, y: Tensor, xs: Tensor,
                      start: Tensor) -> Tensor:
    """p_T = ½ (y − C h_T − D x_T)^2 per model (M,); arguments as :func:`masked_final_prediction`, y (M,)."""
    return 0.5 * (y - masked_final_prediction(act, W, U, C=C, D=D, xs=xs, start=start)) ** 2


def final_loss_gradients(inst: Instance, xs: Tensor, ks: list[int], act: str) -> tuple[Tensor, Tensor]:
    """∇_W p^k_T and ∇_U p^k_T for every k: xs (T, P, d) -> (P, K, n, n), (P, K, n, d); k >= T is the full model."""
    T, P, d = xs.shape
    K, n = len(ks), inst.W.shape[-1]
    if K == 0 or min(ks) < 1:
        raise ValueError(f"ks must be a non-empty list of positive lengths, got {ks}")
    W = inst.W.repeat_interleave(K, 0).detach().requires_grad_(True)
    U = inst.U.repeat_interleave(K, 0).detach().requires_grad_(True)
    start = (T - torch.tensor(ks)).clamp(min=0).repeat(P)
    rep = lambda v: v.repeat_interleave(K, 0)  # noqa: E731
    loss = masked_final_loss(act, W, U, C=rep(inst.C), D=rep(inst.D), y=rep(inst.y),
                             xs=rep(xs.transpose(0, 1)).transpose(0, 1), start=start).sum()
    gW, gU = torch.autograd.grad(loss, [W, U])
    return gW.view(P, K, n, n), gU.view(P, K, n, d)


def gradient_gaps(inst: Instance, xs: Tensor, ks: list[int], act: str) -> tuple[Tensor, Tensor]:
    """(‖∇_w p_T − ∇_w p^k_T‖_F per instance and k (P, K), ‖∇_w p_T‖_F (P,))."""
    T = xs.shape[0]
    gW, gU = final_loss_gradients(inst, xs, list(ks) + [T], act)
    gap = ((gW[:, :-1] - gW[:, -1:]).flatten(2).square().sum(-1)
           + (gU[:, :-1] - gU[:, -1:]).flatten(2).square().sum(-1)).sqrt()
    full = (gW[:, -1].flatten(1).square().sum(-1) + gU[:, -1].flatten(1).square().sum(-1)).sqrt()
    return gap, full


def shape_ratio(gaps: Tensor, ks: list[int], lam: float, k_lo: int, k_hi: int) -> Tensor:
    """R = [gap/λ^k](k_hi) / [gap/λ^k](k_lo) per instance (P,): ≈ k_hi/k_lo for kλ^k, ≈ 1 for λ^k."""
    i, j = ks.index(k_lo), ks.index(k_hi)
    return (gaps[:, j] / lam ** k_hi) / (gaps[:, i] / lam ** k_lo)


def decay_slopes(gaps: Tensor, ks: list[int], k_max: int) -> Tensor:
    """Least-squares slope of log gap over the k ≤ k_max in ``ks``, per instance: gaps (P, K) -> (P,)."""
    from rnnrepro.core.fits import exponential_rate
    idx = [i for i, k in enumerate(ks) if k <= k_max]
    if len(idx) < 2:
        raise ValueError(f"need at least two k <= {k_max} in ks")
    return torch.tensor([exponential_rate([ks[i] for i in idx], g[idx]).slope for g in gaps])


def kbound_ratio(gaps: Tensor, ks: list[int], lam: float, k_lo: int, k_hi: int) -> Tensor:
    """max over k_lo < k ≤ k_hi of [gap/(kλ^k)](k) / γ per instance (P,), with γ = max over k ≤ k_lo of
    gap/(kλ^k): ≤ 1 when gap ≤ γ kλ^k holds at every larger k with γ set by the small k (no single anchor)."""
    kt = torch.tensor(ks, dtype=gaps.dtype)
    scaled = gaps / (kt * lam ** kt)                                    # (P, K)
    small, large = kt <= k_lo, (kt > k_lo) & (kt <= k_hi)
    if not small.any() or not large.any():
        raise ValueError(f"need k <= {k_lo} and {k_lo} < k <= {k_hi} in ks")
    return scaled[:, large].amax(dim=1) / scaled[:, small].amax(dim=1)


def bptt_gaps_lds(inst: Instance, xs: Tensor, ks: list[int], *, carry_state: bool = False) -> tuple:
    """The gap of Lemma 2's proof (first display) for the LDS h_t = W h_{t−1} + U x_t, from its two
    back-propagation sums in closed form (NumPy, float64, no automatic differentiation):

        ∇_U p_T = −r Σ_{t=1..T} a_{T−t} x_tᵀ,   ∇_W p_T = −r Σ_t a_{T−t} h_{t−1}ᵀ,   a_j = (Wᵀ)^j Cᵀ,

    r = y − C h_T − D x_T; the truncated model sums over t > T − k only, with its own states (h^k_{T−k} = 0)
    and residual r_k. ``carry_state``: keep the full model's states and residual in the truncated sum (the
    gradient cut at k, the state not reset: not the truncated model of eq. (3)).

    xs (T, P, d) -> (‖∇_w p_T − ∇_w p^k_T‖_F (P, K), ‖∇_w p_T‖_F (P,)), the shapes of :func:`gradient_gaps`.
    """
    import numpy as np
    W, U, C, D, y = (np.asarray(v.detach(), dtype=np.float64) for v in (inst.W, inst.U, inst.C, inst.D, inst.y))
    x = np.asarray(xs.detach(), dtype=np.float64).transpose(1, 0, 2)               # (P, T, d)
    P, T, _ = x.shape
    n = W.shape[-1]

    def run(zero_at: int) -> np.ndarray:
        """States h_0..h_T (P, T + 1, n) with h_{zero_at} = 0 (the truncated model's restart; 0: the full model)."""
        h = np.zeros((P, T + 1, n))
        for t in range(1, T + 1):
            if t - 1 == zero_at:
                h[:, t - 1] = 0.0
            h[:, t] = np.einsum("pij,pj->pi", W, h[:, t - 1]) + np.einsum("pij,pj->pi", U, x[:, t - 1])
        return h

    a = np.zeros((P, T, n))                                                          # a_j, j = 0..T−1
    a[:, 0] = C
    for j in range(1, T):
        a[:, j] = np.einsum("pji,pj->pi", W, a[:, j - 1])

    def grads(h: np.ndarray, first: int) -> tuple[np.ndarray, np.ndarray]:
        r = y - np.einsum("pi,pi->p", C, h[:, T]) - np.einsum("pi,pi->p", D, x[:, T - 1])
        t = np.arange(first, T + 1)                                                  # 1-based times summed
        adj = a[:, T - t]                                                            # (P, len(t), n)
        gU = -r[:, None, None] * np.einsum("pti,ptj->pij", adj, x[:, t - 1])
        gW = -r[:, None, None] * np.einsum("pti,ptj->pij", adj, h[:, t - 1])
        return gW, gU

    full_h = run(0)
    fW, fU = grads(full_h, 1)
    gaps = np.zeros((P, len(ks)))
    for i, k in enumerate(ks):
        first = max(T - k + 1, 1)                                                    # h^k_{first − 1} = 0
        kW, kU = grads(full_h if carry_state else run(first - 1), first)
        gaps[:, i] = np.sqrt(((fW - kW) ** 2).sum((1, 2)) + ((fU - kU) ** 2).sum((1, 2)))
    return gaps, np.sqrt((fW ** 2).sum((1, 2)) + (fU ** 2).sum((1, 2)))
