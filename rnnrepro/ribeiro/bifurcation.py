"""Bifurcation diagrams of trained LSTMs along θ(s) under constant inputs, and a steady-state classifier."""

from __future__ import annotations

from typing import Callable

import numpy as np
import torch

from rnnrepro.core import cells

FIXED_TOL = 1e-4       # spread below which a steady state counts as a fixed point
PERIOD_TOL = 1e-6      # max |o_{t+p} − o_t| below which lag p counts as a period
MAX_PERIOD = 100


@torch.no_grad()
def steady_states(W_ih: torch.Tensor, W_hh: torch.Tensor, b_ih: torch.Tensor, b_hh: torch.Tensor, *,
                  inputs: torch.Tensor, readout: Callable[[torch.Tensor], torch.Tensor], n_ic: int = 10,
                  ic_std: float = 1.0, n_steps: int = 800, burn: int = 400,
                  seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Simulate LSTMs with P parameter sets under constant inputs from random initial states.

    W_ih (P, 4H, I), W_hh (P, 4H, H), b_ih, b_hh (P, 4H); inputs (K, I) constant input vectors;
    readout(h (P, B, H)) -> (P, B, R). Initial h0, c0 ~ ic_std·N(0, 1) (seeded), shared over P.
    Returns (out (P, K, n_ic, n_steps − burn, R) numpy, max |c| over the run (P, K, n_ic) numpy)."""
    P, H = W_hh.shape[0], W_hh.shape[2]
    K = inputs.shape[0]
    g = torch.Generator().manual_seed(seed)
    h = ic_std * torch.randn(1, K * n_ic, H, generator=g, dtype=W_hh.dtype).expand(P, -1, -1)
    c = ic_std * torch.randn(1, K * n_ic, H, generator=g, dtype=W_hh.dtype).expand(P, -1, -1)
    x = inputs.to(W_hh.dtype).repeat_interleave(n_ic, 0)                       # (K·n_ic, I)
    outs, cmax = [], torch.zeros(P, K * n_ic, dtype=W_hh.dtype)
    for t in range(n_steps):
        h, c = cells.lstm_step(h, c, x, W_ih=W_ih, W_hh=W_hh, b_ih=b_ih, b_hh=b_hh)
        cmax = torch.maximum(cmax, c.abs().amax(-1))
        if t >= burn:
            outs.append(readout(h))
    out = torch.stack(outs, 2)                                                  # (P, B, L, R)
    return (out.reshape(P, K, n_ic, n_steps - burn, -1).numpy(), cmax.reshape(P, K, n_ic).numpy())


def spread(traj: np.ndarray) -> float:
    """max |o − median| over initial conditions and time; traj (n_ic, L)."""
    return float(np.abs(traj - np.median(traj)).max())


def smallest_period(x: np.ndarray, max_period: int = MAX_PERIOD, tol: float = PERIOD_TOL) -> int:
    """Smallest lag p ≤ max_period with max |x_{t+p} − x_t| < tol over the series x (L,); 0 if none."""
    for p in range(1, min(max_period, len(x) - 1) + 1):
        if np.abs(x[p:] - x[:-p]).max() < tol:
            return p
    return 0


def aperiodic_rows(x: np.ndarray, max_period: int = 25, tol: float = PERIOD_TOL) -> np.ndarray:
    """For each row of x (S, L), whether it has no period ≤ max_period (:func:`smallest_period`): (S,) bool."""
    return np.array([smallest_period(row, max_period, tol) == 0 for row in np.asarray(x)], dtype=bool)


def classify(traj: np.ndarray) -> tuple[str, float, int]:
    """Classify steady states traj (n_ic, L): ('fixed' | 'multistable' | 'periodic' | 'aperiodic', spread, period).

    fixed: spread < FIXED_TOL (one fixed point); multistable: every initial condition is at a fixed point
    (period 1) but not all at the same one; periodic: every initial condition has a period ≤ MAX_PERIOD
    (the largest is returned); aperiodic otherwise."""
    sp = spread(traj)
    if sp < FIXED_TOL:
        return "fixed", sp, 1
    periods = [smallest_period(x) for x in traj]
    if all(p == 1 for p in periods):
        return "multistable", sp, 1
    if all(periods):
        return "periodic", sp, int(max(periods))
    return "aperiodic", sp, 0


def classify_all(out: np.ndarray, channel: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Classify every (s, input) of steady_states output (P, K, n_ic, L, R) on one readout channel.

    Returns (labels (P, K) array of str, spreads (P, K))."""
    P, K = out.shape[:2]
    labels = np.empty((P, K), dtype=object)
    spreads = np.zeros((P, K))
    for i in range(P):
        for k in range(K):
            labels[i, k], spreads[i, k], _ = classify(out[i, k, :, :, channel])
    return labels, spreads
