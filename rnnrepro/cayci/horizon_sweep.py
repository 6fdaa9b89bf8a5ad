"""Theorems 1 and 2 in training: projected GD per horizon τ (η = 1/(T√τ)) at one width, with the label-noise,
plain-GD and mean-field controls, batched so that runs of equal length share one recursion."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
import torch

from rnnrepro.cayci import pgd
from rnnrepro.cayci.elman import Activation, outputs, symmetric_init


@dataclass
class WidthResult:
    """Per-width results, keyed by run name then τ: trajectory average A, min loss, loss of the average
    iterate, max displacement √m·max_i‖ΔΘ_i‖ and its W/U parts, and the loss history."""

    m: int
    A: dict = field(default_factory=dict)
    min_loss: dict = field(default_factory=dict)
    avg_iter: dict = field(default_factory=dict)
    disp: dict = field(default_factory=dict)
    disp_wu: dict = field(default_factory=dict)
    history: dict = field(default_factory=dict)
    lyapunov0: float = 0.0


def tau_sweep(X: torch.Tensor, Y: torch.Tensor, Y_noisy: torch.Tensor, act: Activation, *, alpha: float, m: int,
              taus: Sequence[int], seed: int, rho: float = 1.0, controls_at: int | None = None,
              lyap: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] | None = None) -> WidthResult:
    """Runs at width m: PGD on Y and on Y_noisy for each τ; at τ = ``controls_at`` also plain GD and the
    mean-field control (readout 1/m, step η·m, no projection). X (n, T, d); Y, Y_noisy (n, T).

    ``lyap(w, U)`` (scalar), if given, is recorded at the initialisation as ``lyapunov0``.
    """
    T = X.shape[1]
    c, w, U = symmetric_init(m, X.shape[-1], alpha, [seed])
    res = WidthResult(m=m, lyapunov0=float(lyap(w, U)) if lyap else 0.0)
    for tau in taus:
        eta = 1 / (T * math.sqrt(tau))
        names = ["pgd", "noisy"]
        targets, etas, rhos, scales = [Y, Y_noisy], [eta, eta], [rho, rho], [m ** -0.5] * 2
        if tau == controls_at:
            names += ["gd", "meanfield"]
            targets += [Y, Y]
            etas += [eta, eta * m]
            rhos += [math.inf, math.inf]
            scales += [m ** -0.5, 1 / m]
        b = len(names)
        r = pgd.train(X, torch.stack(targets), c.expand(b, m), w.expand(b, m), U.expand(b, m, U.shape[-1]), act=act,
                      eta=etas, taus=tau, rho_w=rhos, rho_u=rhos, scale=scales)
        A = r.trajectory_average()
        F_avg = outputs(X, r.w_avg, r.U_avg, c.expand(b, m), act, scale=None)
        for k, name in enumerate(names):
            tgt = targets[k]
            sc = scales[k] * math.sqrt(m)
            res.A[name, tau] = float(A[k])
            res.min_loss[name, tau] = float(np.nanmin(r.loss[k]))
            res.avg_iter[name, tau] = float(((F_avg[k] * sc - tgt) ** 2).sum(-1).mean())
            res.disp[name, tau] = float(np.nanmax(r.disp[k]))
            res.disp_wu[name, tau] = (float(np.nanmax(r.disp_w[k])), float(np.nanmax(r.disp_u[k])))
            res.history[name, tau] = r.loss[k]
    return res
