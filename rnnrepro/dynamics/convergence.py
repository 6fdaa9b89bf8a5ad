"""How fast trajectories forget where they started: spread, pairwise decay and its rate."""

from __future__ import annotations

import torch

from rnnrepro.core.roundoff import ROUNDOFF_FLOOR  # noqa: F401  (the floor lives in core/; read here as before)

Tensor = torch.Tensor


def spread(states: Tensor) -> Tensor:
    """Largest distance of the trajectories at one time from their mean: (P, B, H) -> (P,).

    The mean is not itself a trajectory, so a contraction bounds this only through the diameter:
    spread_t ≤ diameter_t ≤ L^t diameter_0 ≤ 2 L^t spread_0; ``spread_t ≤ L^t spread_0`` does not follow.
    """
    centre = states.mean(dim=1, keepdim=True)
    return torch.linalg.vector_norm(states - centre, dim=-1).amax(dim=1)


def diameter(states: Tensor) -> Tensor:
    """Largest distance between any two trajectories at one time: (P, B, H) -> (P,).

    Every pair obeys ``d_t ≤ L^t d_0`` under a contraction, hence ``diameter_t ≤ L^t diameter_0``.
    """
    if states.dim() != 3 or states.shape[1] < 2:
        raise ValueError(f"states must have shape (P, B>=2, H), got {tuple(states.shape)}")
    # centred first, the matrix-product form |x|^2 + |y|^2 - 2 x.y is exact to round-off for the largest
    # distance (every |x| is at most the diameter); uncentred it would lose distances below ~1e-8 of |x|
    centred = states - states.mean(dim=1, keepdim=True)
    return torch.cdist(centred, centred, compute_mode="use_mm_for_euclid_dist").amax(dim=(1, 2))


def pairwise_distances(traj: Tensor) -> Tensor:
    """Distance between trajectory b and trajectory b+1 at every time.

    traj (T+1, P, B, H) with B ≥ 2 -> (T+1, P, B-1).
    """
    if traj.dim() != 4 or traj.shape[2] < 2:
        raise ValueError(f"traj must have shape (T+1, P, B>=2, H), got {tuple(traj.shape)}")
    return torch.linalg.vector_norm(traj[:, :, 1:] - traj[:, :, :-1], dim=-1)


def worst_rate(distances: Tensor, floor: float = ROUNDOFF_FLOOR) -> Tensor:
    """Largest per-step factor ``(d_t / d_0)^(1/t)`` over times t ≥ 1 and pairs: (T+1, P, M) -> (P,).

    A contraction with constant L keeps this at most L. Distances below ``floor`` (the trajectories
    have merged to round-off) are left out.
    """
    d0 = distances[0]
    t = torch.arange(1, distances.shape[0], dtype=distances.dtype).view(-1, 1, 1)
    ratio = distances[1:] / d0
    rates = torch.where(distances[1:] > floor, ratio ** (1.0 / t), torch.zeros_like(ratio))
    return rates.amax(dim=(0, 2))


def envelope_violation(distances: Tensor, L: Tensor | float) -> Tensor:
    """Largest ``d_t / (L^t d_0)`` over t and pairs (≤ 1 when the bound d_t ≤ L^t d_0 holds).

    distances (T+1, P, M); L a float or (P,). Returns (P,).
    """
    L = torch.as_tensor(L, dtype=distances.dtype).reshape(-1, 1)
    t = torch.arange(distances.shape[0], dtype=distances.dtype).view(-1, 1, 1)
    return (distances / (L.unsqueeze(0) ** t * distances[0])).amax(dim=(0, 2))
