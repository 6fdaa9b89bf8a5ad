"""Functional recurrent steps, batched over a leading *parameter* dimension ``P``.

Conventions (all functions):

- state ``h``: ``(P, B, H)``: ``P`` parameter sets, ``B`` trajectories per set, ``H`` units;
- input ``x``: ``(P, B, I)``, or ``(B, I)`` shared by all parameter sets, or ``None`` (no input);
- weights carry the leading ``P``: ``W`` is ``(P, out, in)``, a bias ``(P, out)``.

A leading dimension of 1 broadcasts against ``P`` (one weight set for many states, or one state for
many weight sets). Nothing is cast: float64 in, float64 out.
"""

from __future__ import annotations

from typing import Callable

import torch

Tensor = torch.Tensor

LSTM_PARAM_NAMES = ("W_ih", "W_hh", "b_ih", "b_hh")


def _check_state(h: Tensor, name: str = "h") -> None:
    if not isinstance(h, Tensor) or h.dim() != 3:
        shape = tuple(h.shape) if isinstance(h, Tensor) else type(h).__name__
        raise ValueError(f"{name} must have shape (P, B, H), got {shape}")


def _p_compatible(a: int, b: int) -> bool:
    return a == b or a == 1 or b == 1


def _bias(b: Tensor, width: int) -> Tensor:
    """Bias (P, width) as (P, 1, width), ready to add to a (P, B, width) tensor."""
    if b.dim() != 2 or b.shape[-1] != width:
        raise ValueError(f"bias must have shape (P, {width}), got {tuple(b.shape)}")
    return b.unsqueeze(-2)


def affine(v: Tensor, W: Tensor, b: Tensor | None = None, *, name: str = "W") -> Tensor:
    """``v W^T + b`` per parameter set: v (P, B, n) or (B, n), W (P, m, n), b (P, m) -> (P, B, m)."""
    if W.dim() != 3:
        raise ValueError(f"{name} must have shape (P, out, in), got {tuple(W.shape)}")
    if v.shape[-1] != W.shape[-1]:
        raise ValueError(f"{name} has {W.shape[-1]} input columns but the vector has {v.shape[-1]} entries")
    if v.dim() == 3 and not _p_compatible(v.shape[0], W.shape[0]):
        raise ValueError(f"{name} has P={W.shape[0]} parameter sets but the vector has P={v.shape[0]}")
    out = torch.matmul(v, W.transpose(-1, -2))
    if b is None:
        return out
    bias = _bias(b, W.shape[1])
    if not _p_compatible(b.shape[0], W.shape[0]):
        raise ValueError(f"the bias has P={b.shape[0]} parameter sets but {name} has P={W.shape[0]}")
    return out + bias


def _add_input(pre: Tensor, x: Tensor | None, W: Tensor | None, name: str) -> Tensor:
    """``pre + x W^T`` (``pre`` itself when x is None)."""
    if x is None:
        return pre
    if W is None:
        raise ValueError(f"an input x was given but {name} is None")
    if x.dim() not in (2, 3):
        raise ValueError(f"x must have shape (P, B, I) or (B, I), got {tuple(x.shape)}")
    return pre + affine(x, W, name=name)


def tanh_rnn_step(h: Tensor, x: Tensor | None, W_hh: Tensor, W_ih: Tensor | None = None,
                  b: Tensor | None = None) -> Tensor:
    """Elman step ``h' = tanh(W_hh h + W_ih x + b)``.

    h (P, B, H); x (P, B, I), (B, I) or None; W_hh (P, H, H); W_ih (P, H, I); b (P, H) or None.
    Returns (P, B, H).
    """
    _check_state(h)
    return torch.tanh(_add_input(affine(h, W_hh, b, name="W_hh"), x, W_ih, "W_ih"))


def linear_step(h: Tensor, x: Tensor | None, A: Tensor, B: Tensor | None = None) -> Tensor:
    """Linear step ``h' = A h + B x``: h (P, B, H), A (P, H, H), B (P, H, I) or None. Returns (P, B, H)."""
    _check_state(h)
    return _add_input(affine(h, A, name="A"), x, B, "B")


def lstm_step(h: Tensor, c: Tensor, x: Tensor | None, *, W_ih: Tensor | None, W_hh: Tensor,
              b_ih: Tensor | None = None, b_hh: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """One step of ``torch.nn.LSTM`` (gate order i, f, g, o), batched over parameter sets.

    h, c (P, B, H); x (P, B, I), (B, I) or None (= zero input, the biases still act);
    W_ih (P, 4H, I); W_hh (P, 4H, H); b_ih, b_hh (P, 4H) or None. Returns (h', c'), each (P, B, H).
    """
    _check_state(h)
    _check_state(c, "c")
    if c.shape != h.shape:
        raise ValueError(f"h and c must have the same shape, got {tuple(h.shape)} and {tuple(c.shape)}")
    if W_hh.dim() != 3 or W_hh.shape[1] != 4 * h.shape[-1]:
        raise ValueError(f"W_hh must have shape (P, 4H, H) = (P, {4 * h.shape[-1]}, {h.shape[-1]}), "
                         f"got {tuple(W_hh.shape)}")
    gates = _add_input(affine(h, W_hh, b_hh, name="W_hh"), x, W_ih, "W_ih")
    if b_ih is not None:
        gates = gates + _bias(b_ih, W_hh.shape[1])
    i, f, g, o = gates.chunk(4, dim=-1)
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c_new), c_new


def lstm_params_from_torch(module: torch.nn.LSTM) -> dict[str, Tensor]:
    """Copy the weights of a single-layer, unidirectional ``torch.nn.LSTM`` as a P=1 parameter set.

    Returns ``{"W_ih": (1, 4H, I), "W_hh": (1, 4H, H), "b_ih": (1, 4H), "b_hh": (1, 4H)}``
    (detached copies, the module's dtype; zero biases when ``bias=False``), usable as
    ``lstm_step(h, c, x, **params)``.
    """
    if not isinstance(module, torch.nn.LSTM):
        raise ValueError(f"expected a torch.nn.LSTM, got {type(module).__name__}")
    if module.num_layers != 1 or module.bidirectional or module.proj_size != 0:
        raise ValueError("only single-layer, unidirectional LSTMs without projection are supported")
    W_ih = module.weight_ih_l0.detach().clone().unsqueeze(0)
    W_hh = module.weight_hh_l0.detach().clone().unsqueeze(0)
    if module.bias:
        b_ih = module.bias_ih_l0.detach().clone().unsqueeze(0)
        b_hh = module.bias_hh_l0.detach().clone().unsqueeze(0)
    else:
        b_ih = W_ih.new_zeros(1, W_ih.shape[1])
        b_hh = b_ih.clone()
    return dict(zip(LSTM_PARAM_NAMES, (W_ih, W_hh, b_ih, b_hh)))


def concat_state(h: Tensor, c: Tensor) -> Tensor:
    """``(h, c)`` each (P, B, H) -> z (P, B, 2H)."""
    if h.shape != c.shape:
        raise ValueError(f"h and c must have the same shape, got {tuple(h.shape)} and {tuple(c.shape)}")
    return torch.cat([h, c], dim=-1)


def split_state(z: Tensor) -> tuple[Tensor, Tensor]:
    """z (P, B, 2H) -> ``(h, c)`` views, each (P, B, H)."""
    if z.shape[-1] % 2:
        raise ValueError(f"the last dimension of a concatenated (h, c) state must be even, got {z.shape[-1]}")
    return z.chunk(2, dim=-1)


def lstm_concat_step(W_ih: Tensor | None, W_hh: Tensor, b_ih: Tensor | None = None,
                     b_hh: Tensor | None = None) -> Callable[..., Tensor]:
    """The LSTM as a map on the concatenated state ``z = [h, c]`` (P, B, 2H).

    Returns ``step(z, x=None) -> z'``; use it with ``simulate`` and, with the input fixed
    (``lambda z: step(z, x)`` or just ``step`` for zero input), with ``largest_lyapunov``.
    """
    def step(z: Tensor, x: Tensor | None = None) -> Tensor:
        _check_state(z, "z")
        return concat_state(*lstm_step(*split_state(z), x, W_ih=W_ih, W_hh=W_hh, b_ih=b_ih, b_hh=b_hh))

    return step
