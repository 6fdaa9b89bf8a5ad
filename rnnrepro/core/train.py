"""Deterministic full-batch training loops with a column-oriented history.

The trainer draws no random numbers; anything random lives in the caller's ``loss_fn`` and seeds.
"""

from __future__ import annotations

import math
import sys
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import torch

Tensor = torch.Tensor
METHODS = ("gd", "projected_gd", "adam", "heavy_ball")


class History:
    """Columns of logged values (``{name: [v0, v1, ...]}``), one row per logged step."""

    def __init__(self, columns: Mapping[str, Sequence] | None = None):
        self._cols: dict[str, list] = {k: list(v) for k, v in (columns or {}).items()}
        lengths = {len(v) for v in self._cols.values()}
        if len(lengths) > 1:
            raise ValueError(f"columns have different lengths: {sorted(lengths)}")

    def __len__(self) -> int:
        return len(next(iter(self._cols.values()), []))

    def __getitem__(self, name: str) -> list:
        return self._cols[name]

    def __contains__(self, name: str) -> bool:
        return name in self._cols

    def __repr__(self) -> str:
        return f"History({len(self)} rows, columns={self.columns})"

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self._cols)

    def append(self, **row: Any) -> None:
        """Add a row; a new column is back-filled with nan, a missing one gets nan."""
        n = len(self)
        for name in row:
            if name not in self._cols:
                self._cols[name] = [math.nan] * n
        for name, col in self._cols.items():
            col.append(row.get(name, math.nan))

    def last(self, name: str):
        """The most recent value of a column."""
        if name not in self._cols or not self._cols[name]:
            raise KeyError(f"no logged values for {name!r} (columns: {self.columns})")
        return self._cols[name][-1]

    def to_dict(self) -> dict[str, list]:
        """A copy as plain lists (JSON-ready when the values are numbers)."""
        return {k: list(v) for k, v in self._cols.items()}

    def as_arrays(self) -> dict[str, np.ndarray]:
        return {k: np.asarray(v) for k, v in self._cols.items()}


def _param_list(params) -> list[Tensor]:
    tensors = list(params.values()) if isinstance(params, Mapping) else list(params)
    if not tensors:
        raise ValueError("no parameters to train")
    for i, p in enumerate(tensors):
        if not isinstance(p, Tensor) or not p.requires_grad or not p.is_leaf:
            raise ValueError(f"parameter {i} must be a leaf tensor with requires_grad=True")
    return tensors


def _multiplier(schedule, gamma: float) -> Callable[[int], float]:
    if schedule is None:
        return lambda step: 1.0
    if callable(schedule):
        return schedule
    milestones = sorted(int(m) for m in schedule)
    return lambda step: gamma ** sum(step >= m for m in milestones)


def _split_loss(out) -> tuple[Tensor, dict]:
    loss, extra = (out if isinstance(out, tuple) else (out, {}))
    if not isinstance(loss, Tensor) or loss.numel() != 1:
        raise ValueError("loss_fn must return a scalar tensor, or (scalar tensor, dict of metrics)")
    return loss, dict(extra)


def _show_progress(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    in_kernel = "ipykernel" in sys.modules
    return sys.stderr.isatty() and not in_kernel


def _progress_bar(total: int, enabled: bool):
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, leave=False, file=sys.stderr)


class _Optimizer:
    """The parameter updates, in closed form (one state tensor per parameter where needed)."""

    def __init__(self, method: str, params: list[Tensor], momentum: float, betas: tuple[float, float],
                 eps: float):
        if method not in METHODS:
            raise ValueError(f"unknown method {method!r}; choose one of {METHODS}")
        self.method, self.momentum, self.betas, self.eps = method, momentum, betas, eps
        self.m = [torch.zeros_like(p) for p in params]
        self.v = [torch.zeros_like(p) for p in params] if method == "adam" else None
        self.t = 0

    @torch.no_grad()
    def step(self, params: list[Tensor], grads: list[Tensor], lr: float) -> None:
        self.t += 1
        if self.method in ("gd", "projected_gd"):
            for p, g in zip(params, grads):
                p.sub_(lr * g)
        elif self.method == "heavy_ball":  # Polyak: m <- mu m + g; p <- p - lr m
            for p, g, m in zip(params, grads, self.m):
                m.mul_(self.momentum).add_(g)
                p.sub_(lr * m)
        else:
            b1, b2 = self.betas
            for p, g, m, v in zip(params, grads, self.m, self.v):
                m.mul_(b1).add_((1 - b1) * g)
                v.mul_(b2).add_((1 - b2) * g * g)
                denom = (v / (1 - b2 ** self.t)).sqrt_().add_(self.eps)
                p.sub_(lr / (1 - b1 ** self.t) * m / denom)


def _apply_projection(project, params, tensors: list[Tensor]) -> None:
    with torch.no_grad():
        out = project(params)
        if out is None:
            return
        new = list(out.values()) if isinstance(out, Mapping) else list(out)
        if len(new) != len(tensors):
            raise ValueError("project must return None or a container like params")
        for p, q in zip(tensors, new):
            p.copy_(q)


def _number(value) -> float:
    return float(value.detach()) if isinstance(value, Tensor) else float(value)


def _global_norm(grads: list[Tensor]) -> float:
    return math.sqrt(sum(float((g * g).sum()) for g in grads))


def train(params, loss_fn: Callable[[Any], Any], *, steps: int, method: str = "gd", lr: float,
          schedule: Callable[[int], float] | Iterable[int] | None = None, gamma: float = 0.1,
          clip: float | None = None, project: Callable[[Any], Any] | None = None, log_every: int = 1,
          callbacks: Sequence[Callable[[int, Any, History], Any]] = (), momentum: float = 0.9,
          betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
          progress: bool | None = None) -> History:
    """Minimise ``loss_fn(params)`` in place for ``steps`` full-batch steps.

    params: list or dict of leaf tensors with ``requires_grad``; ``loss_fn(params)`` returns a scalar
    tensor or ``(loss, {metric: float})``. Step ``k`` uses the rate ``lr * schedule(k)`` (a callable), or
    ``lr * gamma ** (number of milestones <= k)`` when ``schedule`` is a list of ints.
    method: "gd"; "projected_gd" (gd, then ``project``); "heavy_ball" (Polyak momentum, torch's SGD
    convention ``m = momentum m + g``); "adam" (as ``torch.optim.Adam``). ``project(params)`` runs
    after every update (any method), in place or returning new values. ``clip`` rescales the
    gradient to global norm ``<= clip``.
    The history logs rows at k = 0, log_every, 2 log_every, ... and at k = steps (the final
    parameters, no update): columns step, loss, grad_norm (before clipping), lr, and the metrics.
    Each callback ``cb(k, params, history)`` runs after a logged row; a truthy return stops training.
    A tqdm bar is shown only on a terminal outside Jupyter (``progress`` forces it on or off).
    """
    tensors = _param_list(params)
    if steps < 0 or log_every < 1:
        raise ValueError(f"need steps >= 0 and log_every >= 1, got steps={steps}, log_every={log_every}")
    if method == "projected_gd" and project is None:
        raise ValueError("method='projected_gd' needs a project callable")
    if clip is not None and clip <= 0:
        raise ValueError(f"clip must be positive, got {clip}")
    opt = _Optimizer(method, tensors, momentum, betas, eps)
    mult = _multiplier(schedule, gamma)
    history = History()
    bar = _progress_bar(steps, _show_progress(progress))
    for k in range(steps + 1):
        loss, extra = _split_loss(loss_fn(params))
        grads = torch.autograd.grad(loss, tensors, allow_unused=True)
        grads = [torch.zeros_like(p) if g is None else g for p, g in zip(tensors, grads)]
        norm, rate = _global_norm(grads), lr * mult(k)
        if k % log_every == 0 or k == steps:
            history.append(step=k, loss=_number(loss), grad_norm=norm, lr=rate,
                           **{name: _number(v) for name, v in extra.items()})
            if any([bool(cb(k, params, history)) for cb in callbacks]) or k == steps:
                break
        if clip is not None and norm > clip:
            grads = [g * (clip / norm) for g in grads]
        opt.step(tensors, grads, rate)
        if project is not None:
            _apply_projection(project, params, tensors)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return history
