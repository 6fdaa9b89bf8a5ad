"""The widely-separated-symbols (temporal order) task of Hochreiter & Schmidhuber, as in Ribeiro et al.

Symbols p, q, a, b, c, d are coded 0..5. Two positions t1, t2 (1-based windows [10, 19], [40, 49])
carry p or q; all others are uniform distractors a..d. Class = 2·[symbol at t1 is q] + [symbol at t2 is q].
Model: nn.LSTM(6, H) + Linear(H, 4) on the last step, cross entropy. Training: Adam, gradient-norm clip,
batches in order (no shuffling), float32, single thread, deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike
import torch
import torch.nn as nn
import torch.nn.functional as F

from rnnrepro.core import cells

N_SYMBOLS = 6
N_CLASSES = 4
WINDOWS = ((10, 19), (40, 49))


def make_data(n: int, T: int, seed: int,
              windows: Sequence[tuple[int, int]] = WINDOWS) -> tuple[torch.Tensor, torch.Tensor]:
    """Sequences (n, T) int64 in 0..5 and labels (n,) in 0..3, from np.random.RandomState(seed)."""
    rng = np.random.RandomState(seed)
    X = rng.randint(2, N_SYMBOLS, size=(n, T))
    y = np.zeros(n, dtype=np.int64)
    for lo, hi in windows:
        pos = rng.randint(lo - 1, hi, size=n)          # 0-based positions in [lo-1, hi-1]
        sym = rng.randint(0, 2, size=n)                # 0 = p, 1 = q
        X[np.arange(n), pos] = sym
        y = 2 * y + sym
    return torch.as_tensor(X), torch.as_tensor(y)


def one_hot(X: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """(n, T) symbols -> (T, n, 6) one-hot inputs (time first, as nn.LSTM expects)."""
    return F.one_hot(X.T, N_SYMBOLS).to(dtype)


class Classifier(nn.Module):
    """LSTM(6, H) + Linear(H, 4) on the last hidden state; forward((T, n, 6)) -> logits (n, 4)."""

    def __init__(self, hidden: int = 50):
        super().__init__()
        self.lstm = nn.LSTM(N_SYMBOLS, hidden)
        self.out = nn.Linear(hidden, N_CLASSES)

    def forward(self, u: torch.Tensor) -> torch.Tensor:
        return self.out(self.lstm(u)[0][-1])


def new_model(hidden: int, seed: int) -> Classifier:
    """A float32 classifier with torch's default init after torch.manual_seed(seed)."""
    torch.manual_seed(seed)
    return Classifier(hidden).float()


def flat(model: nn.Module) -> torch.Tensor:
    """All parameters as one vector (a detached copy, model dtype)."""
    return nn.utils.parameters_to_vector(model.parameters()).detach().clone()


def set_flat(model: nn.Module, theta: torch.Tensor | np.ndarray) -> None:
    """Write a copy of a flat vector (tensor or array) into the model's parameters, in the model's dtype
    (training never writes back into theta)."""
    theta = torch.as_tensor(theta).to(next(model.parameters()).dtype).clone()
    nn.utils.vector_to_parameters(theta, model.parameters())


def evaluation_chain(T: int, hidden: int, batch: int = 500) -> int:
    """Longest chain of dependent float32 operations behind one :func:`evaluate` loss: T recurrent steps
    of dot products of length 6 + hidden, the readout (hidden) and the sum over a batch. Its product with
    eps(float32) is the round-off tolerance for re-evaluating shipped weights on another CPU."""
    if min(T, hidden, batch) < 1:
        raise ValueError(f"T, hidden and batch must be positive, got {T}, {hidden}, {batch}")
    return T * (N_SYMBOLS + hidden) + hidden + batch


@torch.no_grad()
def evaluate(model: nn.Module, X: torch.Tensor, y: torch.Tensor, batch: int = 500) -> tuple[float, float]:
    """(mean cross entropy, accuracy) of the model on (X, y), in the model's dtype."""
    dtype = next(model.parameters()).dtype
    loss, correct = 0.0, 0
    for k in range(0, len(y), batch):
        logits = model(one_hot(X[k:k + batch], dtype))
        loss += float(F.cross_entropy(logits, y[k:k + batch], reduction="sum"))
        correct += int((logits.argmax(1) == y[k:k + batch]).sum())
    return loss / len(y), correct / len(y)


class Trainer:
    """Adam (betas 0.9, 0.999) + MultiStepLR + gradient-norm clipping, batches in order, no shuffling.

    data = (Xtr, ytr, Xva, yva). ``run(epochs, log_every)`` appends (epoch, train/val loss and accuracy)
    to ``history`` every ``log_every`` epochs. ``state()``/``load_state()`` capture the exact training state
    (parameters, Adam moments, epoch) as flat arrays, so a run can be resumed bit for bit."""

    def __init__(self, model, data, lr: float = 1e-3, milestones=(500, 1000, 2000), gamma: float = 0.1,
                 clip: float = 0.25, batch: int = 100):
        self.model, self.data, self.clip, self.batch = model, data, clip, batch
        self.opt = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.999))
        self.sched = torch.optim.lr_scheduler.MultiStepLR(self.opt, list(milestones), gamma)
        self.epoch = 0
        self.history = {k: [] for k in ("epoch", "train_loss", "train_acc", "val_loss", "val_acc")}
        self._U = one_hot(data[0], next(model.parameters()).dtype)

    def log(self) -> None:
        Xtr, ytr, Xva, yva = self.data
        self.history["epoch"].append(self.epoch)
        for name, (X, y) in (("train", (Xtr, ytr)), ("val", (Xva, yva))):
            l, a = evaluate(self.model, X, y)
            self.history[f"{name}_loss"].append(l)
            self.history[f"{name}_acc"].append(a)

    def train_epoch(self) -> None:
        y = self.data[1]
        for k in range(0, len(y), self.batch):
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(self._U[:, k:k + self.batch]), y[k:k + self.batch])
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
            self.opt.step()
        self.sched.step()
        self.epoch += 1

    def run(self, epochs: int, log_every: int = 1, callback: Callable[[Trainer], None] | None = None) -> dict:
        """Train ``epochs`` epochs, logging every ``log_every`` (and at epoch 0 if nothing is logged yet);
        ``callback(trainer)`` after every epoch."""
        if not self.history["epoch"]:
            self.log()
        for _ in range(epochs):
            self.train_epoch()
            if self.epoch % log_every == 0:
                self.log()
            if callback is not None:
                callback(self)
        return self.history

    def state(self) -> dict:
        """Flat float arrays: theta, adam_m, adam_v, and the ints step, epoch."""
        ps = list(self.model.parameters())
        st = [self.opt.state[q] for q in ps]
        cat = lambda key: torch.cat([s[key].reshape(-1) for s in st]).detach().clone()
        return dict(theta=flat(self.model), adam_m=cat("exp_avg"), adam_v=cat("exp_avg_sq"),
                    step=int(st[0]["step"]), epoch=self.epoch)

    def load_state(self, state: dict) -> None:
        """Restore a :meth:`state` (after at least the constructor)."""
        set_flat(self.model, torch.as_tensor(np.asarray(state["theta"])))
        m, v = (torch.as_tensor(np.asarray(state[key])) for key in ("adam_m", "adam_v"))
        k = 0
        for q in self.model.parameters():
            n = q.numel()
            self.opt.state[q] = {"step": torch.tensor(float(state["step"])),
                                 "exp_avg": m[k:k + n].view_as(q).to(q.dtype).clone(),
                                 "exp_avg_sq": v[k:k + n].view_as(q).to(q.dtype).clone()}
            k += n
        self.epoch = int(state["epoch"])
        self.sched.last_epoch = self.epoch


def batched_params(model: Classifier, thetas: torch.Tensor) -> dict:
    """Flat vectors (P, D) -> functional parameters for cells.lstm_step and the readout (dtype of thetas)."""
    shapes = [p.shape for p in model.parameters()]
    out, k = [], 0
    for s in shapes:
        n = int(np.prod(s))
        out.append(thetas[:, k:k + n].reshape((thetas.shape[0],) + tuple(s)))
        k += n
    W_ih, W_hh, b_ih, b_hh, C, d = out
    return dict(W_ih=W_ih, W_hh=W_hh, b_ih=b_ih, b_hh=b_hh, C=C, d=d)


def line_thetas(theta_init: torch.Tensor, theta_final: torch.Tensor, s: ArrayLike) -> torch.Tensor:
    """θ(s) = s·θ_init + (1 − s)·θ_final for each s: (S, D) float64 (s = 0 is the final estimate)."""
    s = torch.as_tensor(np.asarray(s, float))[:, None]
    return s * theta_init.double()[None] + (1 - s) * theta_final.double()[None]


@torch.no_grad()
def line_cost(model: Classifier, thetas: torch.Tensor, X: torch.Tensor, y: torch.Tensor,
              chunk: int = 8) -> np.ndarray:
    """Mean cross entropy (S,) of the classifier at each row of thetas (S, D) on (X, y), float64,
    with the batched functional LSTM (cells.lstm_step), ``chunk`` rows at a time (each row's arithmetic is its own,
    so the chunk changes no number; a few rows keep each step's tensors in the CPU's cache, and a step over many
    rows was a third slower for the population's zooms)."""
    U = one_hot(X, torch.float64)                                   # (T, n, 6)
    out = []
    for k in range(0, thetas.shape[0], chunk):
        P = batched_params(model, thetas[k:k + chunk])
        Pn = P["W_hh"].shape[0]
        H = P["W_hh"].shape[2]
        h = torch.zeros(Pn, U.shape[1], H, dtype=torch.float64)
        c = torch.zeros_like(h)
        for t in range(U.shape[0]):
            h, c = cells.lstm_step(h, c, U[t], W_ih=P["W_ih"], W_hh=P["W_hh"], b_ih=P["b_ih"], b_hh=P["b_hh"])
        logits = torch.einsum("pbh,pkh->pbk", h, P["C"]) + P["d"][:, None]
        out.append(F.cross_entropy(logits.reshape(-1, N_CLASSES), y.repeat(Pn), reduction="none").view(Pn, -1).mean(1))
    return torch.cat(out).numpy()
