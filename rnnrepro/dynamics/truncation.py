"""Truncated recurrent models: the state after only the last k inputs, started from zero.

For a contraction with constant L, the truncated state differs from the full one by at most
``L^k ||h_{t-k}||`` — the reason a stable recurrent model can be replaced by a feed-forward one
that sees a window of k inputs.
"""

from __future__ import annotations

from typing import Callable

import torch

Tensor = torch.Tensor


def final_state(step: Callable[[Tensor, Tensor], Tensor], h0: Tensor, inputs: Tensor) -> Tensor:
    """State after feeding ``inputs`` (T, ..., I) from ``h0`` (P, B, H): (P, B, H)."""
    h = h0
    for x in inputs:
        h = step(h, x)
    return h


def truncation_errors(step: Callable[[Tensor, Tensor], Tensor], h0: Tensor, inputs: Tensor,
                      windows: list[int]) -> Tensor:
    """``||h_T - h_T^(k)||`` for each window k: the full run against a run on the last k inputs.

    h0 (P, B, H) starts both runs (the truncated one sees only ``inputs[T-k:]``); inputs (T, ..., I).
    Returns (len(windows), P, B).
    """
    T = inputs.shape[0]
    if any(k < 0 or k > T for k in windows):
        raise ValueError(f"every window must lie in [0, {T}], got {windows}")
    full = final_state(step, h0, inputs)
    return torch.stack([torch.linalg.vector_norm(full - final_state(step, h0, inputs[T - k:]), dim=-1)
                        for k in windows])


def first_step_bound(traj: Tensor, windows: list[int], L: float) -> Tensor:
    """``L^k ||h_{T-k}||`` for each window k: the first step of the truncation bound (Miller & Hardt 2018, Lemma 1).

    traj (T+1, P, B, H) the full run's states h_0 … h_T. Returns (len(windows), P, B).
    """
    T = traj.shape[0] - 1
    if any(k < 0 or k > T for k in windows):
        raise ValueError(f"every window must lie in [0, {T}], got {windows}")
    return torch.stack([L ** k * torch.linalg.vector_norm(traj[T - k], dim=-1) for k in windows])
