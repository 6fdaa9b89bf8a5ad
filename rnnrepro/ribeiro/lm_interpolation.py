"""The Fig. 6 language model along the line between its initial and final weights: the validation loss on
the line (:func:`line_cost`) and the steady states under a constant input token (:func:`bifurcation`).

The model is the book's tied LSTM (:mod:`rnnrepro.core.language_model`, ``tied=True``, ``cell="lstm"``);
its parameters, flattened in ``parameters()`` order, are the vectors θ(s) these functions take.
"""

from __future__ import annotations

import numpy as np
import torch

from rnnrepro.core import cells
from rnnrepro.core.language_model import WordLM, evaluate
from rnnrepro.ribeiro.temporal_order import flat, set_flat


def functional(model: WordLM, thetas: torch.Tensor) -> dict:
    """Flat vectors (P, D) of a tied LSTM model -> emb (P, V, H), W_ih, W_hh (P, 4H, H), b_ih, b_hh (P, 4H),
    dec_b (P, V)."""
    shapes = [tuple(q.shape) for q in model.parameters()]
    if model.cell != "lstm" or len(shapes) != 6:
        raise ValueError("functional needs a tied LSTM model (6 parameter tensors)")
    out, k = [], 0
    for shape in shapes:
        n = int(np.prod(shape))
        out.append(thetas[:, k:k + n].reshape((thetas.shape[0],) + shape))
        k += n
    emb, W_ih, W_hh, b_ih, b_hh, dec_b = out
    return dict(emb=emb, W_ih=W_ih, W_hh=W_hh, b_ih=b_ih, b_hh=b_hh, dec_b=dec_b)


@torch.no_grad()
def line_cost(model: WordLM, thetas: torch.Tensor, ids: torch.Tensor, *, bptt: int) -> np.ndarray:
    """Validation cross entropy (S,) on ids (n,) at each parameter vector (S, D), eval mode, in the model's
    dtype (:func:`~rnnrepro.core.language_model.evaluate` with BPTT windows of ``bptt``); the model's own
    weights are put back afterwards."""
    keep = flat(model)
    out = []
    for th in thetas:
        set_flat(model, th)
        out.append(evaluate(model, ids, bptt))
    set_flat(model, keep)
    return np.array(out)


@torch.no_grad()
def bifurcation(model: WordLM, thetas: torch.Tensor, token_ids, *, n_ic: int = 10, n_steps: int = 1500,
                window: int = 500, seed: int = 0):
    """Steady states under a constant input token, float64, h0, c0 ~ N(0, 1).

    thetas (P, D); token_ids (K,). Returns (logit of each input token at the last ``window`` steps
    (P, K, n_ic, window), spread of h over initial conditions and the window (P, K), max |c| over the run
    up to the window's start and up to the end (P, K, 2): a growing value means a cell state that drifts
    while h is saturated)."""
    f = functional(model, thetas.double())
    P, K = thetas.shape[0], len(token_ids)
    tok = torch.as_tensor(token_ids)
    x = f["emb"][:, tok].repeat_interleave(n_ic, 1)                         # (P, K·n_ic, H)
    H = f["W_hh"].shape[2]
    g = torch.Generator().manual_seed(seed)
    h = torch.randn(1, K * n_ic, H, generator=g, dtype=torch.float64).expand(P, -1, -1)
    c = torch.randn(1, K * n_ic, H, generator=g, dtype=torch.float64).expand(P, -1, -1)
    row = f["emb"][:, tok]                                                   # readout rows (P, K, H)
    logits, hs, cmax = [], [], torch.zeros(P, K * n_ic, dtype=torch.float64)
    cmax_start = cmax.clone()
    for t in range(n_steps):
        h, c = cells.lstm_step(h, c, x, W_ih=f["W_ih"], W_hh=f["W_hh"], b_ih=f["b_ih"], b_hh=f["b_hh"])
        cmax = torch.maximum(cmax, c.abs().amax(-1))
        if t == n_steps - window - 1:
            cmax_start = cmax.clone()
        if t >= n_steps - window:
            hk = h.view(P, K, n_ic, H)
            logits.append(torch.einsum("pkih,pkh->pki", hk, row) + f["dec_b"][:, tok][:, :, None])
            hs.append(hk)
    L = torch.stack(logits, 3)                                               # (P, K, n_ic, window)
    Hs = torch.stack(hs, 3)                                                  # (P, K, n_ic, window, H)
    spread = (Hs - Hs.median(2, keepdim=True).values.median(3, keepdim=True).values).abs().amax((2, 3, 4))
    cm = torch.stack([cmax_start, cmax], -1).view(P, K, n_ic, 2).amax(2)
    return L.numpy(), spread.numpy(), cm.numpy()
