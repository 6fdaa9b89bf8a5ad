"""A training loop in the authors' style, the yardstick of the project's trainers (written for this book from
the paper's description and the settings of the authors' public code; no code copied).

``nn.LSTM(6, H)`` + ``nn.Linear(H, 4)`` on the last step, ``torch.optim.Adam(lr)``,
``nn.CrossEntropyLoss(reduction="sum")``, ``clip_grad_norm_(0.25)``, batches in order.
"""
from __future__ import annotations

import torch
import torch.nn as nn

from rnnrepro.ribeiro.temporal_order import Classifier, one_hot, set_flat


class AuthorsLoop:
    """One seed trained as the authors do. ``theta`` (D,) float32 in nn.Module order sets the initial
    weights (default: torch's init after ``torch.manual_seed(seed)``, as :func:`temporal_order.new_model`)."""

    def __init__(self, data, *, seed: int = 0, hidden: int = 50, lr: float = 1e-3, clip: float = 0.25,
                 batch: int = 100, theta: torch.Tensor | None = None):
        torch.manual_seed(seed)
        self.model = Classifier(hidden).float()
        if theta is not None:
            set_flat(self.model, theta)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.loss = nn.CrossEntropyLoss(reduction="sum")
        self.clip, self.batch = clip, batch
        self.U, self.y = one_hot(data[0]), data[1]

    def step(self, k: int) -> float:
        """One clipped Adam step on batch k of an epoch (sequences k·batch …, k taken modulo the number of
        batches); returns the summed cross entropy."""
        k %= len(self.y) // self.batch
        sl = slice(k * self.batch, (k + 1) * self.batch)
        self.opt.zero_grad()
        loss = self.loss(self.model(self.U[:, sl]), self.y[sl])
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.opt.step()
        return float(loss.detach())

    def train_epoch(self) -> None:
        for k in range(len(self.y) // self.batch):
            self.step(k)

    def theta(self) -> torch.Tensor:
        """The current weights, one flat float32 vector (D,) in nn.Module order."""
        return nn.utils.parameters_to_vector(self.model.parameters()).detach().clone()
