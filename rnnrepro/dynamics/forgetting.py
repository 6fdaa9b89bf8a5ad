"""How a contraction forgets, read against its two textbook bounds.

Banach: a cloud of trajectories of an L-contraction has diameter ``D_t <= L^t D_0``, so all of them end
at one point. The one-step form: every pair obeys ``d_{t+1} <= L d_t``. Both are read only where the
distances are resolved in float64 (above a floor), since below it they are round-off, not dynamics.
"""

from __future__ import annotations

import torch

from rnnrepro.core.roundoff import ROUNDOFF_FLOOR
from rnnrepro.dynamics.convergence import diameter

Tensor = torch.Tensor


def diameter_envelope(traj: Tensor, L: float, *, resolved: float = 1e-9) -> tuple[Tensor, Tensor]:
    """Largest ``D_t / (L^t D_0)`` over the steps 1 ≤ t where the bound ``L^t D_0`` is at least ``resolved``.

    traj (T+1, P, B, H) with B ≥ 2 (the diameter reads every pair). Returns the ratio (P,) (≤ 1 when the
    Banach bound holds; nan where not even t = 1 is resolved) and the last step read, t* (P,) (0 when none).
    """
    if not 0 < L:
        raise ValueError(f"L must be positive, got {L}")
    if resolved < 100 * ROUNDOFF_FLOOR:
        raise ValueError(f"resolved={resolved:g} is within a factor 100 of float64 round-off ({ROUNDOFF_FLOOR:g})")
    d0 = diameter(traj[0])                                                           # (P,)
    t = torch.arange(traj.shape[0], dtype=d0.dtype)
    bound = L ** t.view(-1, 1) * d0                                                  # (T+1, P)
    horizon = ((bound >= resolved) & (t.view(-1, 1) >= 1)).sum(dim=0)               # steps 1 … t*
    last = int(horizon.max())
    ratio = torch.full_like(d0, float("nan"))
    if last == 0:
        return ratio, horizon
    diam = torch.stack([diameter(traj[s]) for s in range(1, last + 1)])             # (t*, P)
    read = t[1:last + 1].view(-1, 1) <= horizon                                      # (t*, P)
    ratios = torch.where(read, diam / bound[1:last + 1], torch.zeros_like(diam))
    return torch.where(horizon > 0, ratios.amax(dim=0), ratio), horizon


def step_factor(distances: Tensor, *, floor: float = ROUNDOFF_FLOOR) -> Tensor:
    """Largest one-step factor ``d_{t+1} / d_t`` over times and pairs whose ``d_t`` exceeds ``floor``.

    distances (T+1, P, M) (e.g. :func:`rnnrepro.dynamics.convergence.pairwise_distances`) -> (P,); an
    L-contraction keeps it at most L. A pair already merged to round-off (``d_t ≤ floor``) is left out.
    """
    if distances.dim() != 3 or distances.shape[0] < 2:
        raise ValueError(f"distances must have shape (T+1 >= 2, P, M), got {tuple(distances.shape)}")
    before, after = distances[:-1], distances[1:]
    resolved = before > floor
    factors = torch.where(resolved, after / torch.where(resolved, before, torch.ones_like(before)),
                          torch.zeros_like(after))
    return factors.amax(dim=(0, 2))
