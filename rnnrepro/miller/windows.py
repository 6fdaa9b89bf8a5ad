"""Full and truncated (eq. (3)) states of a recurrent model.

The truncated state h^k_t starts from zero and consumes the k inputs x_{t-k+1}, ..., x_t (the proofs'
convention; the text's "x_{t-k}, ..., x_t" lists k + 1 inputs).
"""

from __future__ import annotations

from typing import Callable

import torch

Tensor = torch.Tensor
Step = Callable[[Tensor, Tensor], Tensor]


def _check_inputs(xs: Tensor) -> None:
    if xs.dim() != 3:
        raise ValueError(f"inputs must have shape (T, P, d), got {tuple(xs.shape)}")


def full_states(step: Step, xs: Tensor, n: int) -> Tensor:
    """h_1, ..., h_T from h_0 = 0: xs (T, P, d) -> (T, P, n)."""
    _check_inputs(xs)
    h = xs.new_zeros(xs.shape[1], 1, n)
    out = []
    for x in xs:
        h = step(h, x[:, None, :])
        out.append(h[:, 0])
    return torch.stack(out)


def window_states(step: Step, xs: Tensor, n: int, k: int) -> Tensor:
    """Truncated states h^k_t for t = k, ..., T: xs (T, P, d) -> (T - k + 1, P, n).

    Row j is the state after the k inputs xs[j], ..., xs[j + k - 1] from zero (1-based t = j + k).
    """
    _check_inputs(xs)
    T = xs.shape[0]
    if not 1 <= k <= T:
        raise ValueError(f"k must lie in [1, {T}], got {k}")
    win = xs.unfold(0, k, 1)  # (T-k+1, P, d, k)
    h = xs.new_zeros(xs.shape[1], T - k + 1, n)
    for j in range(k):
        h = step(h, win[..., j].transpose(0, 1))
    return h.transpose(0, 1)


def truncation_error_table(step: Step, xs: Tensor, n: int, ks: list[int], readout: Tensor | None = None):
    """sup_t ||h_t - h^k_t|| per k: (len(ks), P); with ``readout`` C (P, n) also sup_t |C (h_t - h^k_t)|."""
    full = full_states(step, xs, n)
    rows, rows_y = [], []
    for k in ks:
        diff = full[k - 1:] - window_states(step, xs, n, k)
        rows.append(diff.norm(dim=-1).amax(dim=0))
        if readout is not None:
            rows_y.append((diff * readout).sum(-1).abs().amax(dim=0))
    return torch.stack(rows) if readout is None else (torch.stack(rows), torch.stack(rows_y))


def lds_identity_gap(W: Tensor, xs: Tensor, U: Tensor, k: int) -> Tensor:
    """max_t ||(h_t - h^k_t) - W^k h_{t-k}|| / max_t ||h_t|| for the LDS h_t = W h_{t-1} + U x_t: (P,)."""
    from rnnrepro.miller.instances import step_fn
    n = W.shape[-1]
    step = step_fn("linear", W, U)
    full = full_states(step, xs, n)
    trunc = window_states(step, xs, n, k)
    lhs = full[k:] - trunc[1:]  # t = k+1..T
    rhs = torch.einsum("pij,tpj->tpi", torch.linalg.matrix_power(W, k), full[:-k])
    return (lhs - rhs).norm(dim=-1).amax(dim=0) / full.norm(dim=-1).amax(dim=0)


def lemma1_scale(U: Tensor, xs: Tensor, lam: float) -> Tensor:
    """L_x B_x / (1 − λ) per instance (P,): L_x = ‖U‖_2, B_x = max_t ‖x_t‖; the bound on sup_t ‖h_t‖."""
    return torch.linalg.matrix_norm(U, ord=2) * xs.norm(dim=-1).amax(0) / (1 - lam)


def lemma1_ratio(errors: Tensor, U: Tensor, xs: Tensor, lam: float, ks: list[int]) -> float:
    """Largest ratio of the truncation errors (len(ks), P) of :func:`truncation_error_table` to Lemma 1's
    bound λ^k L_x B_x/(1 − λ) (:func:`lemma1_scale`), over k and instances: ≤ 1 where the bound holds."""
    bound = torch.tensor([lam ** k for k in ks], dtype=errors.dtype).view(-1, 1)
    return float((errors / (bound * lemma1_scale(U, xs, lam))).max())


def smallest_k(errors: Tensor, ks: list[int], eps: float) -> Tensor:
    """Smallest k in ``ks`` from which errors (K, P) stay ≤ eps, per instance (P,); max(ks) + 1 if none."""
    ok = (errors <= eps).flip(0).to(torch.int64).cumprod(0).flip(0).bool()  # ok from this k onwards
    kt = torch.tensor(ks).view(-1, 1).expand_as(errors)
    return torch.where(ok, kt, max(ks) + 1).amin(0)
