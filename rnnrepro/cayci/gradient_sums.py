"""Proposition 1's closed-form gradient sums of the diagonal Elman RNN, evaluated term by term as printed.

For neuron i, with H_0 = 0, H_t = σ(W_ii H_{t-1} + U_iᵀX_{t-1}) and I_{i,t} = σ'(W_ii H^(i)_t + U_iᵀX_t):

    ∂_{U_i} H^(j)_t  = δ_ij Σ_{k=0}^{t-1} W_ii^k X_{t-k-1}        I_{i,t-1} ⋯ I_{i,t-k-1},
    ∂_{W_ii} H^(j)_t = δ_ij Σ_{k=0}^{t-1} W_ii^k H^(i)_{t-k-1}    I_{i,t-1} ⋯ I_{i,t-k-1}.

:func:`printed_sums` writes out each power and each product of the sums (no recursion), so it is independent of
:func:`rnnrepro.cayci.elman.grad_features` (the chain-rule recursion of the proof's eq. (7));
:func:`gap_to_autograd` compares the sums, with their Kronecker δ_ij, to the full Jacobians of the network.
Shapes as in :mod:`rnnrepro.cayci.elman`: X (n, T, d) holds X_0..X_{T-1}, w (..., m), U (..., m, d).
"""

from __future__ import annotations

import torch

from rnnrepro.cayci.elman import Activation, hidden


def printed_sums(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation, *,
                 k_start: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Prop. 1's sums for t = 1..T, term by term: ∂_{W_ii}H^(i)_t (..., n, T, m) and ∂_{U_i}H^(i)_t (..., n, T, m, d).

    Entry [..., j, t - 1, i] is the sum for sequence j at step t. ``k_start`` = 0 is the printed range
    k = 0..t-1; ``k_start`` = 1 starts the sums at k = 1 (the index printed in Prop. 2; the control).
    """
    if k_start not in (0, 1):
        raise ValueError(f"k_start must be 0 (Prop. 1's range) or 1 (the control), got {k_start}")
    T = X.shape[1]
    Hs = hidden(X, w, U, act)                                 # H_1..H_T: (..., n, T, m); checks the shapes
    H = torch.cat([torch.zeros_like(Hs[..., :1, :]), Hs], -2)                  # H_0..H_T: (..., n, T+1, m)
    P = torch.einsum("ntd,...md->...ntm", X, U)                              # U_iᵀX_t, t = 0..T-1
    I = act.df(w[..., None, None, :] * H[..., :T, :] + P)                     # I_{i,0}..I_{i,T-1}
    gw, gu = [], []
    for t in range(1, T + 1):
        sw = torch.zeros_like(H[..., 0, :])                                  # (..., n, m)
        su = torch.zeros(sw.shape + (X.shape[-1],), dtype=X.dtype)           # (..., n, m, d)
        for k in range(k_start, t):
            lag = t - k - 1
            product = torch.ones_like(sw)
            for s in range(k + 1):                                           # I_{i,t-1} ⋯ I_{i,t-k-1}
                product = product * I[..., t - s - 1, :]
            term = w[..., None, :] ** k * product                            # W_ii^k I_{i,t-1} ⋯ I_{i,t-k-1}
            sw = sw + term * H[..., lag, :]
            su = su + term[..., None] * X[:, lag, None, :]
        gw.append(sw)
        gu.append(su)
    return torch.stack(gw, -2), torch.stack(gu, -3)


def gap_to_autograd(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation, *,
                    k_start: int = 0) -> float:
    """Largest absolute difference between the full Jacobians ∂H^(j)_t/∂W_ii, ∂H^(j)_t/∂U_i of the network
    (reverse-mode autograd; every j, i, t = 1..T and sequence of X (n, T, d)) and δ_ij times
    :func:`printed_sums` (``k_start`` as there). One network: w (m,), U (m, d)."""
    if w.ndim != 1 or U.ndim != 2:
        raise ValueError(f"one network: w (m,) and U (m, d), got {tuple(w.shape)}, {tuple(U.shape)}; "
                         "pass w[s], U[s] for one seed s")
    sw, su = printed_sums(X, w, U, act, k_start=k_start)                     # (n, T, m), (n, T, m, d)
    jw, ju = torch.autograd.functional.jacobian(lambda a, b: hidden(X, a, b, act), (w, U))
    eye = torch.eye(w.shape[0], dtype=X.dtype)                                # δ_ij: [j, i]
    want_w = eye * sw[..., None, :]                                           # (n, T, m_j, m_i)
    want_u = eye[..., None] * su[..., None, :, :]                             # (n, T, m_j, m_i, d)
    return max(float((jw - want_w).abs().max()), float((ju - want_u).abs().max()))
