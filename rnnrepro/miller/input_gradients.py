"""Fig. 2: the norm of the gradient of the loss at position s with respect to the input embedding at s − i.

g(i) = mean over windows of ‖∇_{x_{s−i}} p_s‖ for i = 0..n_lags: the embedding outputs of a window
are made a leaf, only the last position's loss is back-propagated, and one backward pass gives every
lag at once (averaging over end positions s is averaging over t by stationarity). The state entering
the window is warmed up on the ``warmup`` preceding tokens without gradients. Eval mode (no dropout).
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from rnnrepro.core.language_model import WordLM


def window_ends(n_tokens: int, n_windows: int, span: int) -> np.ndarray:
    """``n_windows`` end positions s, evenly spread, with s − span ≥ 0 and s + 1 < n_tokens."""
    if n_tokens - 1 - span < n_windows:
        raise ValueError(f"{n_tokens} tokens are too few for {n_windows} windows of span {span}")
    return np.linspace(span, n_tokens - 2, n_windows).astype(np.int64)


def lag_profile(model: WordLM, ids: torch.Tensor, *, n_lags: int = 50, n_windows: int = 400, warmup: int = 50,
                batch: int = 100, rnn: nn.Module | None = None) -> np.ndarray:
    """g(i), i = 0..n_lags (n_lags + 1,) float64, averaged over ``n_windows`` windows of ``ids`` (n,).

    ``rnn`` replaces the model's recurrent layer (same call signature; used for the control)."""
    if n_lags < 1 or warmup < 0:
        raise ValueError(f"need n_lags >= 1 and warmup >= 0, got {n_lags}, {warmup}")
    was = model.training
    model.eval()
    layer = model.rnn if rnn is None else rnn
    ends = window_ends(ids.numel(), n_windows, n_lags + warmup)
    dev = next(model.parameters()).device
    offs = torch.arange(-(n_lags + warmup), 1)
    total = torch.zeros(n_lags + 1, dtype=torch.float64)
    for j in range(0, len(ends), batch):
        s = torch.as_tensor(ends[j:j + batch])
        x = ids[s[None, :] + offs[:, None]].to(dev)                 # (warmup + n_lags + 1, B)
        y = ids[s + 1].to(dev)
        state = None
        if warmup:
            with torch.no_grad():
                _, state = layer(model.enc(x[:warmup]), None)
        e = model.enc(x[warmup:]).detach().requires_grad_(True)      # (n_lags + 1, B, E)
        with torch.backends.cudnn.flags(enabled=False):              # cuDNN's RNN has no backward in eval mode
            out, _ = layer(e, state)
            loss = F.cross_entropy(model.dec(out[-1]), y, reduction="sum")
            (g,) = torch.autograd.grad(loss, e)
        total += g.double().norm(dim=2).sum(1).flip(0).cpu()        # index i = lag
    model.train(was)
    return (total / len(ends)).numpy()


def decay_ratio(profile: np.ndarray, lag: int = 50) -> float:
    """g(lag) / g(1)."""
    return float(profile[lag] / profile[1])


def mean_log_decay(profile: np.ndarray, lo: int = 1, hi: int = 50) -> float:
    """Lag-averaged decay rate: mean over i in [lo, hi] of log(g(i)/g(lo)) / (i − lo) for i > lo, i.e. the
    average per-lag log decrement (0: no decay; more negative: faster vanishing)."""
    i = np.arange(lo + 1, hi + 1)
    return float(np.mean(np.log(profile[i] / profile[lo]) / (i - lo)))


class LinearRecurrence(nn.Module):
    """h_t = W h_{t−1} + W_ih x_t + b (no activation; ``tanh=True``: tanh of it): the control of Fig. 2 with an
    orthogonal W, whose input gradients cannot vanish. Same call signature as ``nn.RNN``: (e (L, B, E), h0) ->
    (out, h)."""

    def __init__(self, W_ih: torch.Tensor, W_hh: torch.Tensor, bias: torch.Tensor, *, tanh: bool = False):
        super().__init__()
        self.W_ih, self.W_hh, self.bias, self.tanh = W_ih, W_hh, bias, tanh

    def forward(self, e: torch.Tensor, h0=None):
        h = e.new_zeros(e.shape[1], self.W_hh.shape[0]) if h0 is None else h0[0]
        out = []
        for x in e:
            h = h @ self.W_hh.T + x @ self.W_ih.T + self.bias
            h = torch.tanh(h) if self.tanh else h
            out.append(h)
        return torch.stack(out), h[None]


def scaled_identity_recurrence(model: WordLM, lam: float, *, tanh: bool = False) -> LinearRecurrence:
    """The model's RNN input weights and bias with W_hh = λ I and no activation (``tanh=True``: with tanh): a
    linear recurrence whose state Jacobian is exactly λ I, so its input gradients decay exactly like λ^i."""
    r = model.rnn
    H = r.weight_hh_l0.shape[0]
    W = lam * torch.eye(H, dtype=r.weight_hh_l0.dtype, device=r.weight_hh_l0.device)
    return LinearRecurrence(r.weight_ih_l0.detach(), W, (r.bias_ih_l0 + r.bias_hh_l0).detach(), tanh=tanh)


def orthogonal_control(model: WordLM, seed: int = 0) -> LinearRecurrence:
    """The model's RNN input weights and bias with the activation removed and W_hh replaced by a random
    orthogonal matrix (‖W^i‖ = 1 for every i): the same readout, no contraction."""
    if model.cell != "rnn":
        raise ValueError("the orthogonal control is defined for the tanh RNN")
    r = model.rnn
    H = r.weight_hh_l0.shape[0]
    g = torch.Generator().manual_seed(seed)
    Q, R = torch.linalg.qr(torch.randn(H, H, generator=g, dtype=torch.float64))
    Q = (Q * torch.sign(torch.diagonal(R))).to(r.weight_hh_l0.dtype).to(r.weight_hh_l0.device)
    return LinearRecurrence(r.weight_ih_l0.detach(), Q, (r.bias_ih_l0 + r.bias_hh_l0).detach())
