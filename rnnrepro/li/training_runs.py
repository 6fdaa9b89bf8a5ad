"""Figs 1 and 4: Euler RNNs trained by GD, Adam and SGD on the closed-form or sample-path loss, with the
plateau detector applied to their loss curves."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from rnnrepro.li import euler_rnn as E
from rnnrepro.li import targets as T
from rnnrepro.li.plateau import longest_plateau, steps_to_fraction


def fig1_targets(t: np.ndarray, t0s: Sequence[float], m_star: int, seed: int) -> dict[str, np.ndarray]:
    """Fig. 1 kernels on the grid t, each normalised to unit discrete L² norm → {name: ρ (len(t),)}."""
    dt = t[1] - t[0]
    out = {"exp_sum": T.random_exp_sum_kernel(t, m_star, seed)}
    out.update({f"airy_{t0:g}": T.airy_kernel(t, t0) for t0 in t0s})
    return {k: v / math.sqrt(dt * v @ v) for k, v in out.items()}


def fig1_undelayed_targets(t: np.ndarray, t0s: Sequence[float]) -> dict[str, np.ndarray]:
    """Undelayed contrast of Fig. 1: e^{-t/t0} for each t0, unit discrete L² norm → {f"exp_{t0:g}": ρ}."""
    dt = t[1] - t[0]
    out = {f"exp_{t0:g}": np.exp(-t / t0) for t0 in t0s}
    return {k: v / math.sqrt(dt * v @ v) for k, v in out.items()}


def fig1_train(rhos: dict[str, np.ndarray], *, m: int, dt: float, steps: int, lr: float, seed: int, band: float,
               drop: float,
               min_frac: float) -> dict:
    """GD on the closed-form loss for each target → {name: dict(loss, steps10, plateau)}."""
    out = {}
    for name, rho in rhos.items():
        p0 = E.random_init(m, np.random.default_rng(seed))
        _, L = E.train(p0, lambda q, k, rho=rho: E.kernel_loss_grad(q, rho, dt), steps, lr)
        out[name] = dict(loss=L, steps10=steps_to_fraction(L, 0.1),
                         plateau=longest_plateau(L, band=band, drop=drop, min_level=min_frac * L[0]))
    return out


def fig4_closed_form(mus: Sequence[float], *, m: int, dt: float, horizon: float, seed: int,
                     runs: dict[str, tuple[str, float, int]], target: Callable[[float], T.Sum] = T.two_part) -> dict:
    """Full-W linear RNN on the closed-form loss of ``target(mu)`` (default: the two-part target), for each
    optimiser in ``runs`` = {name: (method, lr, max_steps)}; returns {name: {mu: loss curve}} (stop at L₀/2)."""
    out = {name: {} for name in runs}
    for mu in mus:
        n = int(round((mu + horizon) / dt))
        rho = target(mu)(dt * np.arange(n))
        for name, (method, lr, steps) in runs.items():
            p0 = E.structured_init(m, np.random.default_rng(seed))
            L0 = E.kernel_loss_grad(p0, rho, dt)[0]
            _, L = E.train(p0, lambda q, k, rho=rho: E.kernel_loss_grad(q, rho, dt), steps, lr, method=method,
                           stop_below=L0 / 2)
            out[name][mu] = L
    return out


def fig4_sample_paths(mus: Sequence[float], acts: Sequence[str], *, m: int, dt: float, horizon: float, batch: int,
                      steps: int, lr: float, seed: int,
                      window: int, clip: float | None = None,
                      target: Callable[[float], T.Sum] = T.two_part) -> dict:
    """SGD on real white-noise sample paths of ``target(mu)`` (default: the two-part target; fresh batch each
    step, gradient norm clipped at ``clip``) → {(act, mu): smoothed loss (steps,)}."""
    out = {}
    for act in acts:
        for mu in mus:
            n = int(round((mu + horizon) / dt))
            rho = target(mu)(dt * np.arange(n))
            rng = np.random.default_rng(seed + 1)
            p0 = E.structured_init(m, np.random.default_rng(seed))

            def lg(q: E.Params, k: int, rho: np.ndarray = rho, rng: np.random.Generator = rng, n: int = n,
                   act: str = act) -> tuple[float, E.Params]:
                """One SGD step's batch loss and gradients on ``batch`` fresh paths of length n."""
                return E.sample_path_loss_grad(q, rho, dt, rng.normal(0, 1 / math.sqrt(dt), (batch, n)), act)

            _, L = E.train(p0, lg, steps, lr, clip=clip)
            out[(act, mu)] = E.smooth(L, window)
    return out
