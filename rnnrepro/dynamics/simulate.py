"""Run a recurrent step over time and keep the whole trajectory."""

from __future__ import annotations

from typing import Callable, Union

import torch

Tensor = torch.Tensor
State = Union[Tensor, tuple]


def _as_tuple(state: State) -> tuple[Tensor, ...]:
    return tuple(state) if isinstance(state, (tuple, list)) else (state,)


def simulate(step: Callable[[State, Tensor | None], State], h0: State, inputs: Tensor | None = None,
             n_steps: int | None = None) -> State:
    """Trajectory of ``h_{t+1} = step(h_t, x_t)``, including ``h0``.

    h0: a tensor (P, B, H), or a tuple of tensors (e.g. LSTM ``(h, c)``); ``step`` then takes and
    returns a tuple of the same structure. inputs: (T, ...) with ``x_t = inputs[t]`` (e.g. (T, P, B, I)
    or (T, B, I)), or None, in which case ``step(h, None)`` is called ``n_steps`` times.
    Returns (T+1, P, B, H), or a tuple of such trajectories for a tuple state.
    The graph is kept (wrap in ``torch.no_grad()`` when no gradient is needed).
    """
    if inputs is None:
        if n_steps is None or n_steps < 0:
            raise ValueError("give inputs or a non-negative n_steps")
        T = int(n_steps)
    else:
        T = inputs.shape[0]
        if n_steps is not None and n_steps != T:
            raise ValueError(f"n_steps={n_steps} but inputs has {T} time steps")
    is_tuple = isinstance(h0, (tuple, list))
    states = _as_tuple(h0)
    traj = [[s] for s in states]
    for t in range(T):
        new = _as_tuple(step(tuple(states) if is_tuple else states[0], None if inputs is None else inputs[t]))
        if len(new) != len(states) or any(a.shape != b.shape for a, b in zip(new, states)):
            raise ValueError(f"step changed the state shape at t={t}: "
                             f"{[tuple(s.shape) for s in states]} -> {[tuple(s.shape) for s in new]}; "
                             "expand h0 to the full (P, B, H) shape")
        states = new
        for k, s in enumerate(states):
            traj[k].append(s)
    out = tuple(torch.stack(parts) for parts in traj)
    return out if is_tuple else out[0]
