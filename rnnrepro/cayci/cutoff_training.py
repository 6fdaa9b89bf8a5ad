"""Remark 5's cutoff in training: the loss reached by projected GD against the horizon T, for init scales α
below, at and above the cutoff α σ₁ = 1, batched over α and seeds."""

from __future__ import annotations

import math
from typing import Callable, Iterable, Sequence

import numpy as np
import torch

from rnnrepro.cayci import pgd
from rnnrepro.cayci.elman import Activation, symmetric_init


def cutoff_sweep(act: Activation, alphas: Sequence[float], Ts: Sequence[int], *, m: int, n: int, d: int,
                 seeds: Iterable[int], tau: int, target_fn: Callable[[torch.Tensor, float], torch.Tensor],
                 inputs_fn: Callable[[int, int], torch.Tensor]) -> np.ndarray:
    """min_s R̂ / R̂(Θ(0)) after τ GD steps (η = 1/(T√τ), projected, ρ = 1) for each α, T, seed.

    target_fn(X, alpha) → (n, T) targets at the student's α; inputs_fn(n, T) → X (n, T, d).
    Returns an (A, T, S) array (A = len(alphas), S = number of seeds).
    """
    seeds = list(seeds)
    out = np.zeros((len(alphas), len(Ts), len(seeds)))
    for j, T in enumerate(Ts):
        X = inputs_fn(n, T)
        cs, ws, Us, Ys = [], [], [], []
        for al in alphas:
            c, w, U = symmetric_init(m, d, al, seeds)
            Y = target_fn(X, al)
            cs.append(c)
            ws.append(w)
            Us.append(U)
            Ys.append(Y.expand(len(seeds), -1, -1))
        c, w, U, Y = torch.cat(cs), torch.cat(ws), torch.cat(Us), torch.cat(Ys)
        r = pgd.train(X, Y, c, w, U, act=act, eta=1 / (T * math.sqrt(tau)), taus=tau, rho_w=1.0, rho_u=1.0)
        ratio = np.nanmin(r.loss, 1) / r.loss[:, 0]
        out[:, j, :] = ratio.reshape(len(alphas), len(seeds))
    return out
