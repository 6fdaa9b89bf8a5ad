"""Largest Lyapunov exponent of a map by tangent propagation with renormalisation.

A tuple state (LSTM ``(h, c)``) is handled by letting the map act on the concatenated vector:
``rnnrepro.core.cells.lstm_concat_step`` builds that map.
"""

from __future__ import annotations

from typing import Callable

import torch

Tensor = torch.Tensor
Tangent = Callable[[Tensor, Tensor], tuple[Tensor, Tensor]]


def reverse_jvp(f: Callable[[Tensor], Tensor]) -> Tangent:
    """``(h, v) -> (f(h), J_f(h) v)`` by reverse-mode AD (the double-vjp trick); h, v (P, B, H).

    Used instead of forward mode (``torch.func.jvp`` / dual numbers) because in torch 2.13 forward
    mode takes a slow path for ops that mix the state with constants (``x + b``, ``2 * x``), and its
    first use costs seconds (it imports ``torch._dynamo`` / scripts decompositions).
    """
    def tangent(h: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        with torch.enable_grad():
            h = h.detach().requires_grad_(True)
            y = f(h)
            if not y.requires_grad:  # f does not depend on h
                return y, torch.zeros_like(y)
            u = torch.zeros_like(y, requires_grad=True)
            # scalar outputs, no grad_outputs: torch 2.13 imports sympy (~1.5 s) on the first
            # autograd.grad call that is given grad_outputs
            (vjp,) = torch.autograd.grad((y * u).sum(), h, create_graph=True, allow_unused=True)
            if vjp is None or not vjp.requires_grad:  # f does not depend on h
                return y.detach(), torch.zeros_like(y)
            (jv,) = torch.autograd.grad((vjp * v).sum(), u, allow_unused=True)
        return y.detach(), torch.zeros_like(y) if jv is None else jv

    return tangent


def _checked_step(tangent: Tangent, h: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
    h_new, v_new = tangent(h, v)
    if h_new.shape != h.shape or v_new.shape != h.shape:
        raise ValueError(f"the map changed the state shape {tuple(h.shape)} -> {tuple(h_new.shape)}; "
                         "expand h0 to the full (P, B, H) shape")
    return h_new, v_new


def _unit(v: Tensor) -> tuple[Tensor, Tensor]:
    norm = torch.linalg.vector_norm(v, dim=-1, keepdim=True)
    return v / norm, norm.squeeze(-1)


def largest_lyapunov(f: Callable[..., Tensor] | None, h0: Tensor, n_steps: int, n_burn: int = 200, *,
                     inputs: Tensor | None = None, v0: Tensor | None = None, seed: int = 0,
                     tangent: Callable[..., tuple[Tensor, Tensor]] | None = None,
                     return_log_growth: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Largest Lyapunov exponent (nats per step) of ``h -> f(h)`` for every trajectory.

    f maps (P, B, H) -> (P, B, H) row-wise (each (p, b) trajectory evolves independently); it may
    be None when ``tangent`` is given.
    h0: (P, B, H). The state and a unit tangent vector (``v0``, or Gaussian from ``seed``) are
    first propagated ``n_burn`` steps (the tangent aligns with the leading direction), then the
    exponent is the mean of ``log ||J v||`` over ``n_steps`` steps, renormalising ``v`` every step.
    With ``inputs`` (n_burn + n_steps, ...) the map is driven: step t uses ``f(h, inputs[t])`` and
    ``tangent(h, v, inputs[t])``.
    Returns (P, B); with ``return_log_growth`` also the per-step log growths (n_steps, P, B).
    The Jacobian-vector products use ``reverse_jvp(f)`` unless ``tangent(h, v) -> (f(h), J v)`` is
    given (an analytic one is several times faster). A state that overflows
    (an expanding linear map run too long) gives nan.
    """
    if h0.dim() != 3:
        raise ValueError(f"h0 must have shape (P, B, H), got {tuple(h0.shape)}")
    if n_steps < 1 or n_burn < 0:
        raise ValueError(f"need n_steps >= 1 and n_burn >= 0, got n_steps={n_steps}, n_burn={n_burn}")
    if inputs is not None and inputs.shape[0] != n_burn + n_steps:
        raise ValueError(f"inputs must have n_burn + n_steps = {n_burn + n_steps} time steps, got {inputs.shape[0]}")
    if v0 is None:
        gen = torch.Generator().manual_seed(seed)
        v0 = torch.randn(h0.shape, generator=gen, dtype=h0.dtype).to(h0.device)
    elif v0.shape != h0.shape:
        raise ValueError(f"v0 must have the shape of h0 {tuple(h0.shape)}, got {tuple(v0.shape)}")
    if f is None and tangent is None:
        raise ValueError("give the map f or its tangent function")

    def step_at(t: int) -> Tangent:
        if inputs is None:
            return reverse_jvp(f) if tangent is None else tangent
        x = inputs[t]
        if tangent is None:
            return reverse_jvp(lambda h: f(h, x))
        return lambda h, v: tangent(h, v, x)

    h, v = h0.detach(), _unit(v0.detach())[0]
    with torch.no_grad():
        for t in range(n_burn):
            h, v = _checked_step(step_at(t), h, v)
            v = _unit(v)[0]
        # one preallocated (n_steps, P, B) buffer: appending a small tensor per step between the steps'
        # large temporaries fragments the heap (the full dynamics chapter grew to 20 GB that way)
        log_growth = torch.empty((n_steps, *h.shape[:-1]), dtype=h.dtype, device=h.device)
        for i, t in enumerate(range(n_burn, n_burn + n_steps)):
            h, v = _checked_step(step_at(t), h, v)
            v, norm = _unit(v)
            log_growth[i] = torch.log(norm)
    lam = log_growth.mean(dim=0)
    return (lam, log_growth) if return_log_growth else lam
