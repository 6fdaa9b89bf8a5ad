"""Check the functional LSTM step of :mod:`rnnrepro.core.cells` against ``torch.nn.LSTM``."""

from __future__ import annotations

import torch

from rnnrepro.core.cells import lstm_params_from_torch, lstm_step

TORCH_GATES = "ifgo"


def permute_gates(params: dict[str, torch.Tensor], order: str) -> dict[str, torch.Tensor]:
    """Reorder the four gate blocks of LSTM parameters stored in torch's order (i, f, g, o).

    ``order`` names the gate each block is read as, e.g. ``"ifog"`` reads block 3 as o and 4 as g.
    """
    if sorted(order) != sorted(TORCH_GATES):
        raise ValueError(f"order must be a permutation of {TORCH_GATES!r}, got {order!r}")
    index = [TORCH_GATES.index(g) for g in order]

    def reorder(t: torch.Tensor) -> torch.Tensor:
        blocks = t.chunk(4, dim=1)
        return torch.cat([blocks[i] for i in index], dim=1)

    return {name: reorder(t) for name, t in params.items()}


def lstm_gap_to_torch(*, n_sets: int, n_in: int, n_hidden: int, n_batch: int, n_steps: int, seed: int,
                      gate_order: str = TORCH_GATES) -> float:
    """Largest |h_ours − h_torch| over time, batch and ``n_sets`` random float64 LSTMs.

    Our step runs all parameter sets in one batched call (P = n_sets); each torch LSTM runs alone
    on the same inputs and initial state. ``gate_order`` reads the gate blocks in another order
    (a deliberately wrong step, for a negative control).
    """
    gen = torch.Generator().manual_seed(seed)
    torch_params, outs = [], []
    x = torch.randn(n_steps, n_batch, n_in, generator=gen, dtype=torch.float64)
    h0 = torch.randn(1, n_batch, n_hidden, generator=gen, dtype=torch.float64)
    c0 = torch.randn(1, n_batch, n_hidden, generator=gen, dtype=torch.float64)
    for _ in range(n_sets):
        module = torch.nn.LSTM(n_in, n_hidden, dtype=torch.float64)
        with torch.no_grad():
            for w in module.parameters():
                w.copy_(torch.randn(w.shape, generator=gen, dtype=torch.float64))
            outs.append(module(x, (h0, c0))[0])
        torch_params.append(lstm_params_from_torch(module))
    ref = torch.stack(outs, dim=1)                                   # (T, P, B, H)
    params = {k: torch.cat([tp[k] for tp in torch_params]) for k in torch_params[0]}
    params = permute_gates(params, gate_order)
    h, c = h0.expand(n_sets, -1, -1), c0.expand(n_sets, -1, -1)
    ours = []
    with torch.no_grad():
        for t in range(n_steps):
            h, c = lstm_step(h, c, x[t], **params)
            ours.append(h)
    return float((torch.stack(ours) - ref).abs().max())
