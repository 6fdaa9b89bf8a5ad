import torch

from rnnrepro.core import convergence


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
    import pytest

    with pytest.raises(ValueError):
        convergence.pairwise_distances(torch.zeros(3, 1, 1, 2))


def test_diameter():
    states = torch.tensor([[[0.0, 0.0], [2.0, 0.0], [1.0, 0.0]]], dtype=torch.float64)  # (P=1, B=3, H=2)
    assert convergence.diameter(states).tolist() == [2.0]
    assert convergence.spread(states).tolist() == [1.0]
    # tiny distances far from the origin are resolved (no |x|^2 + |y|^2 - 2 x.y cancellation)
    close = torch.ones(1, 40, 8, dtype=torch.float64) + 1e-13 * torch.arange(40.0).view(1, 40, 1)
    assert abs(convergence.diameter(close).item() / (39e-13 * 8 ** 0.5) - 1) < 1e-3
    import pytest

    with pytest.raises(ValueError):
        convergence.diameter(torch.zeros(1, 1, 2))
