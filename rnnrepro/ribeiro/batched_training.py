"""All seeds of a temporal-order sweep trained as one computation (a seed dimension S through the LSTM).

Parameters are stacked per seed: W_ih (S, 4H, 6), W_hh (S, 4H, H), b_ih, b_hh (S, 4H), W_out (S, 4, H),
b_out (S, 4), in nn.LSTM's gate order (i, f, g, o). Each seed has its own gradient-norm clip and its own
Adam moments, so seed s follows the single-seed :class:`rnnrepro.ribeiro.temporal_order.Trainer` within
float32 round-off. ``reduction="sum"`` is the authors' loss (cross entropy summed over the batch);
"mean" is the project's single-seed trainer's.
"""
from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import torch
import torch.nn.functional as F

from rnnrepro.ribeiro.temporal_order import new_model, one_hot

B1, B2 = 0.9, 0.999            # Adam's betas
NAMES = ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "out_weight", "out_bias")


def stacked_init(hidden: int, seeds: Sequence[int]) -> list[torch.Tensor]:
    """Per-seed torch default inits (as :func:`new_model`), stacked: a list of 6 tensors (S, ...)."""
    models = [new_model(hidden, int(s)) for s in seeds]
    per_model = [list(m.parameters()) for m in models]
    return [torch.stack([ps[j].detach().clone() for ps in per_model]) for j in range(len(per_model[0]))]


def flat_per_seed(params: Sequence[torch.Tensor]) -> torch.Tensor:
    """Stacked parameters (a list of (S, ...) tensors) -> one flat vector per seed (S, D), nn.Module order."""
    return torch.cat([p.detach().reshape(p.shape[0], -1) for p in params], dim=1)


def split_per_seed(theta: torch.Tensor | np.ndarray, shapes: Sequence[Sequence[int]]) -> list[torch.Tensor]:
    """Flat vectors theta (S, D) -> stacked tensors (S, *shape) for each per-seed ``shape`` in ``shapes``
    (the inverse of :func:`flat_per_seed`); ValueError when D does not match."""
    theta = torch.as_tensor(theta)
    sizes = [int(torch.Size(shape).numel()) for shape in shapes]
    if theta.dim() != 2 or sum(sizes) != theta.shape[1]:
        raise ValueError(f"theta must be (S, {sum(sizes)}), got {tuple(theta.shape)}")
    parts = torch.split(theta, sizes, dim=1)
    return [part.reshape((theta.shape[0], *shape)) for part, shape in zip(parts, shapes)]


def forward(params: Sequence[torch.Tensor], U: torch.Tensor) -> torch.Tensor:
    """Logits (S, n, 4) of the S stacked classifiers on one-hot inputs U (T, n, 6) shared by all seeds."""
    Wih, Whh, bih, bhh, Wo, bo = params
    S, H = Whh.shape[0], Whh.shape[2]
    n = U.shape[1]
    xg = torch.einsum("tnk,sgk->tsng", U, Wih) + (bih + bhh)[None, :, None, :]   # (T, S, n, 4H)
    h = U.new_zeros(S, n, H)
    c = U.new_zeros(S, n, H)
    WhhT = Whh.transpose(1, 2).contiguous()
    for x_t in xg.unbind(0):
        g = torch.baddbmm(x_t, h, WhhT)
        i, f, gg, o = g.chunk(4, dim=2)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(gg)
        h = torch.sigmoid(o) * torch.tanh(c)
    return torch.baddbmm(bo[:, None, :], h, Wo.transpose(1, 2))


class BatchedTrainer:
    """Adam (0.9, 0.999, eps 1e-8) + step-wise lr ÷(1/gamma) at ``milestones`` + per-seed norm clip.

    On CUDA each training step is captured once as a CUDA graph and replayed (``graph=False``: eager).
    ``run(epochs, eval_every)`` keeps running training loss/accuracy per epoch (as the authors do) and
    evaluates validation every ``eval_every`` epochs. ``history`` arrays are (epochs, S)."""

    def __init__(self, seeds: Sequence[int], data: Sequence[torch.Tensor], *, hidden: int = 50, lr: float = 1e-3,
                 milestones: Sequence[int] = (500, 1000, 2000), gamma: float = 0.1, clip: float = 0.25,
                 batch: int = 100, reduction: str = "mean", device: str = "cpu", graph: bool | None = None,
                 data_seeds: Sequence[int] | None = None):
        self.seeds = list(seeds)
        self.hidden, self.data_seeds = hidden, None if data_seeds is None else [int(s) for s in data_seeds]
        self.device = torch.device(device)
        self.use_graph = self.device.type == "cuda" if graph is None else graph
        self._graph, self._warm = None, 0
        self.params = [p.to(device).requires_grad_(True) for p in stacked_init(hidden, self.seeds)]
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]
        self.lr0, self.milestones, self.gamma = lr, tuple(milestones), gamma
        self.clip, self.batch, self.reduction = clip, batch, reduction
        Xtr, ytr, Xva, yva = data
        self.U, self.y = one_hot(Xtr).to(device), ytr.to(device)
        self.Uva, self.yva = one_hot(Xva).to(device), yva.to(device)
        self.step_count, self.epoch = 0, 0
        self.history = {k: [] for k in ("epoch", "train_loss", "train_acc", "val_epoch", "val_loss",
                                        "val_acc")}
        self.snapshots: dict[int, dict] = {}
        self.init_ulps = 0            # set by whoever moves the initial weights (recorded in config())

    def lr(self) -> float:
        return self.lr0 * self.gamma ** sum(self.epoch >= m for m in self.milestones)

    def _schedule(self) -> torch.Tensor:
        """(lr / (1 - b1^t), sqrt(1 - b2^t)) for the step about to be taken (t = step_count + 1), float32 (2,)."""
        t = self.step_count + 1
        return torch.tensor([self.lr() / (1 - B1 ** t), (1 - B2 ** t) ** 0.5], dtype=torch.float32)

    def _update(self, U, y, sched):
        """One clipped Adam step of every seed on the batch U (T, b, 6), y (b,), with ``sched`` =
        :meth:`_schedule` on the device (a tensor, so that a CUDA graph can replay the step).
        Returns (summed cross entropy (S,), correct (S,))."""
        ce, logits, grads = self._loss_and_grads(U, y)
        S = ce.shape[0]
        norm = torch.sqrt(sum((g.reshape(S, -1).double() ** 2).sum(1) for g in grads)).float()
        coef = torch.clamp(self.clip / (norm + 1e-6), max=1.0)
        with torch.no_grad():
            for p, g, m, v in zip(self.params, grads, self.m, self.v):
                g = g * coef.view(-1, *([1] * (g.dim() - 1)))
                m.mul_(B1).add_(g, alpha=1 - B1)
                v.mul_(B2).addcmul_(g, g, value=1 - B2)
                denom = (v.sqrt() / sched[1]).add_(1e-8)
                p.addcdiv_(m * sched[0], denom, value=-1.0)
        return ce.detach().sum(1), (logits.argmax(2) == y).sum(1)

    def _loss_and_grads(self, U, y):
        """Per-sample cross entropy (S, n), logits (S, n, 4) and the gradients of each seed's loss (summed or
        mean cross entropy, as ``reduction``) w.r.t. ``params``, by autograd."""
        logits = self.forward_all(U)                                # (S, n, 4)
        S, n = logits.shape[:2]
        ce = F.cross_entropy(logits.reshape(S * n, -1), y.repeat(S), reduction="none").view(S, n)
        per_seed = ce.sum(1) if self.reduction == "sum" else ce.mean(1)
        return ce, logits, torch.autograd.grad(per_seed.sum(), self.params)

    def _step(self, U, y):
        """:meth:`_update` eagerly, or on CUDA as a replay of a captured graph of it (after 3 eager warm-up
        steps on a side stream, as CUDA graph capture requires); the same arithmetic either way."""
        if not self.use_graph or U.shape[1] != self.batch:
            out = self._update(U, y, self._schedule().to(self.device))
        elif self._graph is None:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                out = self._update(U, y, self._schedule().to(self.device))
            torch.cuda.current_stream().wait_stream(side)
            self._warm += 1
            if self._warm == 3:
                self._static = (U.clone(), y.clone(), self._schedule().to(self.device))
                self._graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(self._graph):
                    self._static_out = self._update(*self._static)
        else:
            self._static[0].copy_(U)
            self._static[1].copy_(y)
            self._static[2].copy_(self._schedule())
            self._graph.replay()
            out = tuple(t.clone() for t in self._static_out)
        self.step_count += 1
        return out

    def forward_all(self, U: torch.Tensor) -> torch.Tensor:
        return forward(self.params, U)

    @torch.no_grad()
    def evaluate(self, U: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(mean cross entropy (S,), accuracy (S,)) on one-hot U (T, n, 6)."""
        logits = self.forward_all(U)
        S, n = logits.shape[:2]
        ce = F.cross_entropy(logits.reshape(S * n, -1), y.repeat(S), reduction="none").view(S, n)
        return ce.mean(1), (logits.argmax(2) == y).float().mean(1)

    def train_epoch(self) -> tuple[torch.Tensor, torch.Tensor]:
        n = len(self.y)
        loss, correct = 0.0, 0
        for k in range(0, n, self.batch):
            l, c = self._step(self.U[:, k:k + self.batch], self.y[k:k + self.batch])
            loss, correct = loss + l, correct + c
        self.epoch += 1
        return (loss / n).cpu(), (correct.float() / n).cpu()

    def run(self, epochs: int, eval_every: int = 10) -> dict:
        for _ in range(epochs):
            tl, ta = self.train_epoch()
            self.history["epoch"].append(self.epoch)
            self.history["train_loss"].append(tl.numpy())
            self.history["train_acc"].append(ta.numpy())
            if self.epoch % eval_every == 0:
                vl, va = self.evaluate(self.Uva, self.yva)
                self.history["val_epoch"].append(self.epoch)
                self.history["val_loss"].append(vl.cpu().numpy())
                self.history["val_acc"].append(va.cpu().numpy())
        return self.history

    def theta(self, s: int) -> torch.Tensor:
        """Seed index s's parameters as one flat vector in nn.Module order (for ``set_flat``)."""
        return flat_per_seed(self.params)[s].cpu()

    def optimiser_state(self) -> dict:
        """Parameters, Adam moments (lists of (S, ...) CPU tensors), step and epoch: what a replay starts from."""
        cpu = lambda ts: [t.detach().cpu().clone() for t in ts]
        return dict(params=cpu(self.params), m=cpu(self.m), v=cpu(self.v), step=self.step_count,
                    epoch=self.epoch)

    def snapshot(self) -> None:
        """Keep :meth:`optimiser_state` at the current epoch (``snapshots[epoch]``, saved with the state)."""
        self.snapshots[self.epoch] = self.optimiser_state()

    def config(self) -> dict:
        """The training configuration, as recorded in a checkpoint: the data's sizes (T, n_train, n_val, read
        off the tensors it trains on) and seeds (when given), the width, the batch, the optimiser settings, the
        trainer class and the ulps by which the initial weights were moved."""
        return dict(T=int(self.U.shape[0]), n_train=int(self.U.shape[1]), n_val=int(self.Uva.shape[1]),
                    hidden=self.hidden, data_seeds=self.data_seeds, batch=self.batch, lr=self.lr0,
                    milestones=list(self.milestones), gamma=self.gamma, clip=self.clip, reduction=self.reduction,
                    trainer=type(self).__name__, init_ulps=self.init_ulps)

    def state(self) -> dict:
        """Everything a bit-for-bit resume needs: parameters, Adam moments, step, epoch, history, torch RNG,
        and the snapshots; and the training :meth:`config` (for the record, not read back on resume)."""
        return dict(self.optimiser_state(), history={k: list(v) for k, v in self.history.items()},
                    rng=torch.get_rng_state(), seeds=list(self.seeds), snapshots=dict(self.snapshots),
                    config=self.config())

    def load_state(self, state: dict) -> None:
        """Restore a :meth:`state` into a trainer built with the same seeds, data and settings."""
        if list(state["seeds"]) != self.seeds:
            raise ValueError(f"checkpoint seeds {state['seeds']} differ from {self.seeds}")
        dev = self.params[0].device
        with torch.no_grad():
            for dst, src in ((self.params, state["params"]), (self.m, state["m"]), (self.v, state["v"])):
                for d, s in zip(dst, src):
                    d.copy_(s.to(dev))
        self.step_count, self.epoch = int(state["step"]), int(state["epoch"])
        self.history = {k: list(v) for k, v in state["history"].items()}
        self.snapshots = dict(state.get("snapshots", {}))
        torch.set_rng_state(state["rng"])

    def load_flat_snapshot(self, theta: torch.Tensor | np.ndarray, m: torch.Tensor | np.ndarray,
                           v: torch.Tensor | np.ndarray, *, step: int, epoch: int) -> None:
        """Start from a shipped snapshot: theta, m, v (S, D) flat per seed in nn.Module order (as
        ``export`` writes them), Adam's step count and the epoch (which sets the learning rate)."""
        shapes = [p.shape[1:] for p in self.params]
        if any(torch.as_tensor(a).shape[0] != len(self.seeds) for a in (theta, m, v)):
            raise ValueError(f"snapshot arrays must have one row per seed ({len(self.seeds)})")
        with torch.no_grad():
            for dst, src in zip((self.params, self.m, self.v), (theta, m, v)):
                for d, part in zip(dst, split_per_seed(src, shapes)):
                    d.copy_(part.to(d.device, d.dtype))
        self.step_count, self.epoch = int(step), int(epoch)

    def save(self, path: str | os.PathLike) -> None:
        """Write :meth:`state` atomically (a temporary file renamed over ``path``)."""
        import os
        tmp = f"{path}.tmp"
        torch.save(self.state(), tmp)
        os.replace(tmp, path)

    def load(self, path: str | os.PathLike) -> None:
        self.load_state(torch.load(path, weights_only=False))
