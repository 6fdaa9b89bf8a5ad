"""Gradient flow dθ/dτ = −∇J_m(θ) (21) with an adaptive solver, hitting times (22) and GD steps.

The paper integrates (21) with Adams–Bashforth–Moulton; we use scipy's LSODA (Adams in its
non-stiff mode, BDF when stiff), which reaches the exponentially long plateaus that fixed-step GD
cannot.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.integrate import solve_ivp

from rnnrepro.li import diagonal
from rnnrepro.li.budget import CountedCalls, passes
from rnnrepro.li.targets import Target

MAX_RHS = 10**5   # right-hand-side evaluations per flow solve; the chapter's longest solve needs ≈ 4·10³


def _flow_rhs(target: Target, what: str, max_rhs: int) -> CountedCalls:
    """−∇J_m(θ) as solve_ivp's right-hand side, bounded to ``max_rhs`` evaluations (RunawayError)."""
    return CountedCalls(lambda t, th: -diagonal.grad(th, target), max_rhs,
                        f"gradient flow ({what}, target {target!r})")


def hitting_time(theta0: ArrayLike, target: Target, *, delta: float = 0.01, tmax: float = 1e9, kind: str = "loss",
                 rtol: float = 1e-9, atol: float = 1e-12, max_rhs: int = MAX_RHS) -> float:
    """τ₀(δ) of (22): first τ with J(θ(τ)) ≤ J(θ₀) − δ (kind="loss") or ‖θ(τ) − θ₀‖ ≥ δ (kind="param").

    θ₀: (2m,) packed (a, w). Returns float (np.inf if not reached by ``tmax``); RunawayError after
    ``max_rhs`` gradient evaluations.
    """
    theta0 = np.asarray(theta0, float)
    n2 = target.l2norm2()
    J0 = diagonal.loss(theta0, target, n2)
    if kind == "loss":
        ev = lambda t, th: diagonal.loss(th, target, n2) - (J0 - delta)
    else:
        ev = lambda t, th: np.linalg.norm(th - theta0) - delta
    ev.terminal, ev.direction = True, -1 if kind == "loss" else 1
    rhs = _flow_rhs(target, f"hitting time τ₀ ({kind}, δ = {delta:g})", max_rhs)
    sol = solve_ivp(rhs, (0.0, tmax), theta0, method="LSODA", rtol=rtol, atol=atol, events=ev)
    return float(sol.t_events[0][0]) if sol.t_events[0].size else np.inf


def loss_curve(theta0: ArrayLike, target: Target, taus: np.ndarray, *, rtol: float = 1e-9,
               atol: float = 1e-12, max_rhs: int = MAX_RHS) -> np.ndarray:
    """J(θ(τ)) at the increasing times ``taus`` (shape (n,)) along the flow; returns shape (n,)
    (RunawayError after ``max_rhs`` gradient evaluations)."""
    theta0 = np.asarray(theta0, float)
    n2 = target.l2norm2()
    sol = solve_ivp(_flow_rhs(target, "loss curve", max_rhs), (0.0, float(taus[-1])), theta0,
                    method="LSODA", rtol=rtol, atol=atol, t_eval=taus)
    return np.array([diagonal.loss(th, target, n2) for th in sol.y.T])


def gd_hitting_steps(theta0: ArrayLike, target: Target, lr: float, *, delta: float = 0.01,
                     max_steps: int = 10**5) -> int:
    """Plain GD θ ← θ − lr∇J: the first step k with J ≤ J(θ₀) − δ (int); RunawayError if no step up
    to ``max_steps`` gets there."""
    th = np.asarray(theta0, float).copy()
    n2 = target.l2norm2()
    J0 = diagonal.loss(th, target, n2)
    for k in passes(max_steps, f"GD hitting steps (lr = {lr:g}, δ = {delta:g}, target {target!r})"):
        th -= lr * diagonal.grad(th, target)
        if diagonal.loss(th, target, n2) <= J0 - delta:
            return k


def distance_at(theta0: ArrayLike, target: Target, tau: float, *, rtol: float = 1e-9, atol: float = 1e-12,
                max_rhs: int = MAX_RHS) -> float:
    """‖θ(τ) − θ₀‖ (float) after flowing (21) from θ₀ (2m,) for time ``tau`` > 0 (RunawayError after
    ``max_rhs`` gradient evaluations)."""
    theta0 = np.asarray(theta0, float)
    if not tau > 0:
        raise ValueError(f"tau must be positive, got {tau!r}")
    sol = solve_ivp(_flow_rhs(target, f"distance at τ = {tau:g}", max_rhs), (0.0, float(tau)), theta0,
                    method="LSODA", rtol=rtol, atol=atol)
    return float(np.linalg.norm(sol.y[:, -1] - theta0))
