"""Small example systems with known properties, used to introduce and test the dynamics tools.

Random weight matrices with a prescribed spectral norm (a contraction constant for tanh RNNs) or
spectral radius (the Lyapunov exponent of a linear map), and the logistic map, whose exponent at
r = 4 is exactly ln 2.
"""

from __future__ import annotations

import torch

Tensor = torch.Tensor


def _gaussian(P: int, n: int, m: int, seed: int) -> Tensor:
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(P, n, m, generator=gen, dtype=torch.float64)


def with_spectral_norm(P: int, n: int, norm: float, seed: int) -> Tensor:
    """P random (n, n) matrices scaled so that each has largest singular value ``norm``: (P, n, n)."""
    W = _gaussian(P, n, n, seed)
    return W * (norm / torch.linalg.matrix_norm(W, ord=2)).view(P, 1, 1)


def with_spectral_radius(P: int, n: int, radius: float, seed: int) -> Tensor:
    """P random, generally non-normal (n, n) matrices scaled to spectral radius ``radius``: (P, n, n)."""
    W = _gaussian(P, n, n, seed)
    rho = torch.linalg.eigvals(W).abs().amax(dim=-1)
    return W * (radius / rho).view(P, 1, 1)


def spectral_radius(A: Tensor) -> Tensor:
    """Largest eigenvalue modulus of each matrix: A (P, n, n) -> (P,)."""
    return torch.linalg.eigvals(A).abs().amax(dim=-1)


def logistic_map(r: float):
    """The map ``x -> r x (1 - x)`` on states (P, B, 1), for ``largest_lyapunov``."""
    def step(x: Tensor) -> Tensor:
        return r * x * (1.0 - x)

    return step
