"""The shipped temporal-order sweep at the paper's configuration (artefact ``wss_paper``).

Outcomes per seed, the good and bad run picked from them, and the pieces a CPU re-verifies: the final
weights re-evaluated, and one epoch replayed from a shipped optimiser snapshot with
:class:`rnnrepro.ribeiro.batched_training.BatchedTrainer`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike
import torch
import torch.nn.functional as F

from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.batched_training import BatchedTrainer, forward, split_per_seed

if TYPE_CHECKING:
    from rnnrepro.book.artifacts import Artifact

SOLVED = 0.95      #: "solves": final training and validation accuracy both at least this
CHANCE = 0.25      #: guessing among 4 classes


DATA_SEEDS = (1, 2)   # the sweep's training and validation data seeds


def paper_data(n: int = 1000, T: int = 150) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """(Xtr, ytr, Xva, yva) of the sweep: training data from seed 1, validation from seed 2 (n, T)."""
    return (*to.make_data(n, T, DATA_SEEDS[0]), *to.make_data(n, T, DATA_SEEDS[1]))


def unflatten(theta: torch.Tensor | np.ndarray, hidden: int = 50) -> list[torch.Tensor]:
    """Flat float32 vectors (S, D) in nn.Module order -> the 6 stacked parameter tensors (S, ...)."""
    return split_per_seed(theta, [p.shape for p in to.Classifier(hidden).parameters()])


@torch.no_grad()
def evaluate_flat(theta: torch.Tensor | np.ndarray, X: torch.Tensor, y: torch.Tensor, *, hidden: int = 50,
                  batch: int = 500) -> tuple[np.ndarray, np.ndarray]:
    """(mean cross entropy (S,), accuracy (S,)) numpy of S classifiers theta (S, D) on (X (n, T), y (n,))."""
    params = unflatten(torch.as_tensor(theta, dtype=torch.float32), hidden)
    loss, correct = 0.0, 0
    for k in range(0, len(y), batch):
        logits = forward(params, to.one_hot(X[k:k + batch]))                  # (S, b, 4)
        S, b = logits.shape[:2]
        yb = y[k:k + batch]
        loss = loss + F.cross_entropy(logits.reshape(S * b, -1), yb.repeat(S), reduction="none").view(S, b).sum(1)
        correct = correct + (logits.argmax(2) == yb).sum(1)
    return (loss / len(y)).numpy(), (correct.float() / len(y)).numpy()


def chance_sd(n: int) -> float:
    """Binomial standard deviation of the accuracy of guessing among 4 classes on n sequences."""
    return float(np.sqrt(CHANCE * (1 - CHANCE) / n))


def outcome_labels(train_acc: ArrayLike, val_acc: ArrayLike, *, n_val: int, solved: float = SOLVED,
                   n_sd: float = 3.0) -> np.ndarray:
    """Per seed: "solved" (train and val ≥ solved), "memorised" (val within n_sd binomial sds of chance
    while train ≥ 0.5) or "other"."""
    tr, va = np.asarray(train_acc, float), np.asarray(val_acc, float)
    at_chance = np.abs(va - CHANCE) <= n_sd * chance_sd(n_val)
    return np.where((tr >= solved) & (va >= solved), "solved",
                    np.where(at_chance & (tr >= 0.5), "memorised", "other"))


def first_of(labels: ArrayLike, label: str) -> int:
    """Index of the first seed with this outcome label (ValueError if none)."""
    hit = np.flatnonzero(np.asarray(labels) == label)
    if not len(hit):
        raise ValueError(f"no seed has outcome {label!r}")
    return int(hit[0])


TRAINERS = ("auto", "fused", "batched")


def trainer_class(trainer: str, device: str) -> type[BatchedTrainer]:
    """The trainer class for a device: "auto" is the fastest correct one (:class:`FusedTrainer` on the CPU,
    :class:`BatchedTrainer` with CUDA-graph replay on a GPU). On the CPU "auto" falls back to
    :class:`BatchedTrainer` where the fused trainer cannot be built (no compiler: :func:`fused_lstm.cpu_trainer`)."""
    if trainer not in TRAINERS:
        raise ValueError(f"unknown trainer {trainer!r}; choose from {', '.join(TRAINERS)}")
    if trainer == "fused":
        from rnnrepro.ribeiro.fused_lstm import FusedTrainer
        return FusedTrainer
    if trainer == "auto" and torch.device(device).type == "cpu":
        from rnnrepro.ribeiro.fused_lstm import cpu_trainer
        return cpu_trainer()
    return BatchedTrainer


def replay(art: Artifact, idx: Sequence[int], data: Sequence[torch.Tensor], *, snapshot: int, n_epochs: int = 1,
           theta: torch.Tensor | np.ndarray | None = None,
           epoch: int | None = None) -> tuple[torch.Tensor, np.ndarray]:
    """Resume the seeds ``idx`` of a shipped sweep from snapshot epoch ``snapshot`` for ``n_epochs`` on the CPU,
    with the trainer the sweep records (:class:`BatchedTrainer` when it records none); ValueError (one line)
    for a seed whose snapshot the artefact does not ship (config ``snapshot_seeds``).

    ``theta`` (len(idx), D) replaces the snapshot's weights (a last-bit twin); ``epoch`` replaces the
    snapshot's epoch (which sets the learning rate; a wrong schedule is the control). Returns
    (weights (len(idx), D) float32, running training loss of the last epoch (len(idx),) numpy)."""
    cfg = art.config
    idx = list(idx)
    shipped = cfg.get("snapshot_seeds", len(cfg["seeds"]))
    if any(i >= shipped for i in idx):
        raise ValueError(f"the artefact ships snapshots for its first {shipped} seeds only; seed indices {list(idx)} "
                         f"asked for (re-export with --snapshot-seeds {max(idx) + 1})")
    trainer = trainer_class("auto" if cfg.get("trainer") == "FusedTrainer" else "batched", "cpu")
    bt = trainer([cfg["seeds"][i] for i in idx], data, hidden=cfg["hidden"], lr=cfg["lr"],
                        milestones=cfg["milestones"], gamma=cfg["gamma"], clip=cfg["clip"], batch=cfg["batch"],
                        reduction=cfg["reduction"], device="cpu", graph=False)
    snap = {k: art.params[f"snap{snapshot}_{k}"][idx] for k in ("theta", "m", "v")}
    bt.load_flat_snapshot(snap["theta"] if theta is None else theta, snap["m"], snap["v"],
                          step=cfg["snapshots"][str(snapshot)], epoch=snapshot if epoch is None else epoch)
    for _ in range(n_epochs):
        loss, _ = bt.train_epoch()
    return torch.stack([bt.theta(k) for k in range(len(idx))]), loss.numpy()


def gap_in_roundoff_units(a: torch.Tensor | np.ndarray, b: torch.Tensor | np.ndarray) -> float:
    """max |a − b| / (eps32 · max |b|): a difference of float32 weight vectors in units of one rounding
    of the largest weight."""
    a, b = torch.as_tensor(a).double(), torch.as_tensor(b).double()
    return float((a - b).abs().max() / (np.finfo(np.float32).eps * b.abs().max()))


def max_gain_per_seed(epochs: ArrayLike, acc: ArrayLike, window: float) -> np.ndarray:
    """:func:`rnnrepro.ribeiro.learning_curves.max_gain_within` for each column of acc (E, S)."""
    from rnnrepro.ribeiro.learning_curves import max_gain_within
    acc = np.asarray(acc, float)
    return np.array([max_gain_within(epochs, acc[:, k], window) for k in range(acc.shape[1])])
