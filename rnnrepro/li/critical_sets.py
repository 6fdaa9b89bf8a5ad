"""App. D: the coincided critical sets of J_m (criticality, zero Hessian eigenvalues, Stirling counts) and
the smallest Hessian eigenvalue along Prop. D.1's line."""

from __future__ import annotations

import math

import numpy as np

from rnnrepro.li import diagonal as D
from rnnrepro.li import landscape as LS
from rnnrepro.li import targets as T


def appendix_d(rng: np.random.Generator, n_points: int = 5) -> dict:
    """Coincided critical spaces of J_3 for ρ = e^{-t} + e^{-3t}; Prop. D.1 lines for two targets."""
    tgt = T.ExpSum([1.0, 1.0], [1.0, 3.0])
    a1, w1 = LS.best_single_exponential(tgt)
    minimisers = {1: (a1, w1), 2: (np.array([1.0, 1.0]), np.array([1.0, 3.0]))}
    grads, grads_off, zero_excess, zero_excess_generic = [], [], [], []
    for k, (ak, wk) in minimisers.items():
        for lab in LS.labelled_partitions(3, k):
            for _ in range(n_points):
                th = LS.coincided_point(ak, wk, lab, rng)
                grads.append(np.linalg.norm(D.grad(th, tgt)))
                off = th.copy()
                off[3 + int(np.argmax(np.bincount(lab)))] += 1e-2
                grads_off.append(np.linalg.norm(D.grad(off, tgt)))
                zero_excess.append(LS.zero_eigenvalues(D.hessian(th, tgt), 1e-8) - (3 - k))
    generic = np.concatenate([rng.normal(size=3), rng.uniform(0.5, 3, 3)])
    zero_excess_generic = LS.zero_eigenvalues(D.hessian(generic, tgt), 1e-8) - 1
    s = np.linspace(-1, 2, 61)
    lines = {}
    for name, tg in (("cm", tgt), ("mixed", T.ExpSum([1.0, -0.5], [1.0, 3.0]))):
        a_hat, w_hat = LS.best_single_exponential(tg)
        lines[name] = np.array([LS.line_min_eigenvalue(tg, a_hat[0], w_hat[0], si) for si in s])
    return dict(max_grad=max(grads), min_grad_off=min(grads_off), min_zero_excess=min(zero_excess),
                zero_excess_generic=zero_excess_generic, s=s, lines=lines,
                n_spaces=len(LS.labelled_partitions(4, 2)), stirling_count=math.factorial(2) * LS.stirling2(4, 2))
