"""Random LDS / tanh-RNN instances of Miller & Hardt §7.1 (literal and calibrated scales).

Shapes: P instances, n hidden units, d inputs. Everything in float64.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from rnnrepro.core import cells
from rnnrepro.miller.contraction import project_spectral_norm

Tensor = torch.Tensor
ACTIVATIONS = ("linear", "tanh")


@dataclass
class Instance:
    """Weights W (P, n, n), U (P, n, d), readouts C (P, n), D (P, d) and the target y (P,)."""

    W: Tensor
    U: Tensor
    C: Tensor
    D: Tensor
    y: Tensor

    @property
    def P(self) -> int:
        return self.W.shape[0]


def haar_orthogonal(P: int, n: int, gen: torch.Generator) -> Tensor:
    """P Haar-distributed orthogonal matrices (P, n, n) (QR of a Gaussian with the sign fix)."""
    Q, R = torch.linalg.qr(torch.randn(P, n, n, generator=gen, dtype=torch.float64))
    return Q * torch.sign(torch.diagonal(R, dim1=-2, dim2=-1)).unsqueeze(-2)


def make_instance(P: int, n: int, d: int, lam: float, gen: torch.Generator, *, setup: str = "calibrated",
                  w_scale: float | None = None) -> Instance:
    """§7.1 instances: W_ij, U_ij ~ N(0, 0.5) with W's singular values clipped at ``lam``.

    ``setup``: ``"literal"`` (as printed), ``"calibrated"`` (U divided by sqrt(d)), or ``"orthogonal"``
    (W = w_scale * Q with Q Haar-orthogonal, U ~ N(0, 1/d)). C ~ N(0, I_n), D ~ N(0, I_d), y ~ U[-2, 2].
    """
    if setup not in ("literal", "calibrated", "orthogonal"):
        raise ValueError(f"setup must be literal, calibrated or orthogonal, got {setup!r}")
    W = math.sqrt(0.5) * torch.randn(P, n, n, generator=gen, dtype=torch.float64)
    U = math.sqrt(0.5) * torch.randn(P, n, d, generator=gen, dtype=torch.float64)
    if setup == "orthogonal":
        W = (lam if w_scale is None else w_scale) * haar_orthogonal(P, n, gen)
        U = U * math.sqrt(2.0 / d)
    else:
        W = project_spectral_norm(W, lam)
        if setup == "calibrated":
            U = U / math.sqrt(d)
    C = torch.randn(P, n, generator=gen, dtype=torch.float64)
    D = torch.randn(P, d, generator=gen, dtype=torch.float64)
    y = 4.0 * torch.rand(P, generator=gen, dtype=torch.float64) - 2.0
    return Instance(W, U, C, D, y)


def with_norm(inst: Instance, norm: float) -> Instance:
    """The same instance with W rescaled to spectral norm ``norm`` (the unstable controls: 1.05Q, 3Q)."""
    W = inst.W * (norm / torch.linalg.matrix_norm(inst.W, ord=2)).view(-1, 1, 1)
    return Instance(W, inst.U, inst.C, inst.D, inst.y)


def step_fn(act: str, W: Tensor, U: Tensor):
    """The map h, x -> act(W h + U x) for states (P, B, n) and inputs (P, B, d)."""
    if act not in ACTIVATIONS:
        raise ValueError(f"act must be one of {ACTIVATIONS}, got {act!r}")
    if act == "tanh":
        return lambda h, x: cells.tanh_rnn_step(h, x, W, U)
    return lambda h, x: cells.linear_step(h, x, W, U)
