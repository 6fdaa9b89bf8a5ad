import math

import numpy as np
import pytest
import torch
from scipy.spatial.distance import euclidean, pdist

from rnnrepro.dynamics import convergence


def test_spread():
    states = torch.tensor([[[0.0, 0.0], [2.0, 0.0]], [[1.0, 1.0], [1.0, 1.0]]])  # (P=2, B=2, H=2)
    assert convergence.spread(states).tolist() == [1.0, 0.0]


def geometric(rate, T=10):
    d = torch.tensor([rate ** t for t in range(T + 1)])
    return d.view(-1, 1, 1)  # (T+1, P=1, M=1)


def test_pairwise_distances_shape():
    traj = torch.zeros(5, 2, 3, 4)
    traj[:, :, 1, 0] = 1.0
    d = convergence.pairwise_distances(traj)
    assert d.shape == (5, 2, 2) and d[0, 0].tolist() == [1.0, 1.0]


def test_worst_rate_and_envelope():
    d = geometric(0.5)
    assert torch.isclose(convergence.worst_rate(d), torch.tensor(0.5))
    assert torch.isclose(convergence.envelope_violation(d, 0.5), torch.tensor(1.0))
    assert convergence.envelope_violation(d, 0.4).item() > 1.0
    grow = geometric(1.2)
    assert convergence.worst_rate(grow).item() > 1.0


def test_merged_trajectories_are_skipped():
    d = torch.tensor([1.0, 0.1, 0.0, 0.0]).view(-1, 1, 1)
    assert torch.isclose(convergence.worst_rate(d), torch.tensor(0.1))
    # at round-off the distance stops shrinking; that must not count as a slower rate
    d = torch.tensor([1.0, 0.1] + [1e-16] * 40).view(-1, 1, 1)
    assert torch.isclose(convergence.worst_rate(d), torch.tensor(0.1))
    assert convergence.worst_rate(d, floor=0.0).item() > 0.3   # (1e-16)^(1/41)


def test_bad_shape():
    with pytest.raises(ValueError):
        convergence.pairwise_distances(torch.zeros(3, 1, 1, 2))


def test_diameter():
    states = torch.tensor([[[0.0, 0.0], [2.0, 0.0], [1.0, 0.0]]], dtype=torch.float64)  # (P=1, B=3, H=2)
    assert convergence.diameter(states).tolist() == [2.0]
    assert convergence.spread(states).tolist() == [1.0]
    # tiny distances far from the origin are resolved (no |x|^2 + |y|^2 - 2 x.y cancellation)
    close = torch.ones(1, 40, 8, dtype=torch.float64) + 1e-13 * torch.arange(40.0).view(1, 40, 1)
    assert abs(convergence.diameter(close).item() / (39e-13 * 8 ** 0.5) - 1) < 1e-3
    with pytest.raises(ValueError):
        convergence.diameter(torch.zeros(1, 1, 2))


# ------------------------------------------------ against independent references (explicit loops, scipy)

def _random(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def test_pairwise_distances_against_scipy_pair_by_pair():
    """Every entry is the Euclidean distance of trajectories b and b+1 (random states in H = 5, so a
    dropped square root, another norm, a 10 % error or a pair shifted by one all change it)."""
    traj = _random(4, 2, 5, 5)                                  # (T+1, P, B, H)
    d = convergence.pairwise_distances(traj)
    assert d.shape == (4, 2, 4)
    x = traj.numpy()
    for t in range(4):
        for p in range(2):
            for b in range(4):
                assert d[t, p, b].item() == pytest.approx(euclidean(x[t, p, b], x[t, p, b + 1]), rel=1e-12)


def test_spread_and_diameter_against_explicit_loops():
    states = _random(3, 6, 4, seed=1)                           # (P, B, H)
    x = states.numpy()
    for p in range(3):
        centre = x[p].mean(axis=0)
        spread = max(math.sqrt(sum((x[p, b, h] - centre[h]) ** 2 for h in range(4))) for b in range(6))
        assert convergence.spread(states)[p].item() == pytest.approx(spread, rel=1e-12)
        assert convergence.diameter(states)[p].item() == pytest.approx(pdist(x[p]).max(), rel=1e-12)


def _worst_rate_loop(d, floor):
    T1, P, M = d.shape
    return [max([(d[t, p, m] / d[0, p, m]) ** (1 / t) for t in range(1, T1) for m in range(M)
                 if d[t, p, m] > floor] or [0.0]) for p in range(P)]


def _envelope_loop(d, L):
    T1, P, M = d.shape
    return [max(d[t, p, m] / (L[p] ** t * d[0, p, m]) for t in range(T1) for m in range(M)) for p in range(P)]


def test_worst_rate_and_envelope_violation_against_explicit_loops():
    """Random positive distances (T+1 = 7, P = 3, M = 4), the worst over every time (the last included) and
    every pair, against loops; a pair and a time where the worst sits that is not the first pair."""
    d = torch.exp(_random(7, 3, 4, seed=2))
    d[1:6, 1] = 0.5 * d[0, 1]                                   # population 1 contracts until its last step,
    d[6, 1, 3] = 40.0 * d[0, 1, 3]                              # where its last pair is the worst of all
    d[2, 2, 2] = 1e-13                                          # below the floor: left out of the rate
    x = d.numpy()
    assert convergence.worst_rate(d).tolist() == pytest.approx(_worst_rate_loop(x, 1e-12), rel=1e-12)
    L = np.array([0.7, 1.0, 1.3])
    assert convergence.envelope_violation(d, torch.tensor(L)).tolist() == pytest.approx(_envelope_loop(x, L),
                                                                                         rel=1e-12)
    assert convergence.envelope_violation(d, 0.9).tolist() == pytest.approx(_envelope_loop(x, [0.9] * 3), rel=1e-12)
