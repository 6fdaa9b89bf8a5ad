import itertools
import math

import pytest
import torch

from rnnrepro.dynamics import forgetting


def brute_diameter(states):
    """Largest distance between two of the states (B, H), pair by pair."""
    return max(float(torch.linalg.vector_norm(a - b)) for a, b in itertools.combinations(states, 2))


def test_diameter_envelope_against_pairs_read_one_by_one():
    gen = torch.Generator().manual_seed(3)
    traj = torch.randn(7, 2, 5, 3, generator=gen, dtype=torch.float64) * 0.6 ** torch.arange(7.0).view(-1, 1, 1, 1)
    ratio, horizon = forgetting.diameter_envelope(traj, 0.7)
    for p in range(2):
        d0 = brute_diameter(traj[0, p])
        expected = max(brute_diameter(traj[t, p]) / (0.7 ** t * d0) for t in range(1, 7))
        assert math.isclose(float(ratio[p]), expected, rel_tol=1e-12)
    assert horizon.tolist() == [6, 6]


def test_diameter_envelope_of_a_scaled_cloud():
    """h_t = a^t h_0: D_t = a^t D_0, so the ratio is 1 at L = a and (a/L) at L > a (largest at t = 1)."""
    cloud = torch.tensor([[[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]]], dtype=torch.float64)     # D_0 = 5
    traj = torch.stack([0.5 ** t * cloud for t in range(10)])
    assert torch.allclose(forgetting.diameter_envelope(traj, 0.5)[0], torch.tensor([1.0], dtype=torch.float64))
    assert torch.allclose(forgetting.diameter_envelope(traj, 0.8)[0], torch.tensor([0.625], dtype=torch.float64))
    assert forgetting.diameter_envelope(traj, 0.4)[0].item() == pytest.approx(1.25 ** 9)   # bound broken


def test_diameter_envelope_reads_only_resolved_steps():
    cloud = torch.tensor([[[0.0], [1.0]]], dtype=torch.float64)                            # D_0 = 1
    traj = torch.stack([cloud] * 40)                                                        # nothing shrinks
    ratio, horizon = forgetting.diameter_envelope(traj, 0.1, resolved=1e-5)
    assert horizon.item() == 5                                                              # 0.1^5 = 1e-5
    assert ratio.item() == pytest.approx(1e5)
    ratio, horizon = forgetting.diameter_envelope(traj, 1e-6, resolved=1e-5)               # t = 1 unresolved
    assert horizon.item() == 0 and math.isnan(ratio.item())
    with pytest.raises(ValueError, match="round-off"):
        forgetting.diameter_envelope(traj, 0.5, resolved=1e-12)


def test_step_factor_against_a_loop():
    gen = torch.Generator().manual_seed(4)
    d = torch.rand(6, 2, 4, generator=gen, dtype=torch.float64)
    d[3, 1, 2] = 1e-14                                                                      # merged: left out as d_t
    factor = forgetting.step_factor(d)
    for p in range(2):
        expected = max(float(d[t + 1, p, m] / d[t, p, m]) for t in range(5) for m in range(4)
                       if d[t, p, m] > 1e-12)
        assert math.isclose(float(factor[p]), expected, rel_tol=1e-12)


def test_step_factor_of_a_geometric_decay_and_shape_check():
    d = (0.3 ** torch.arange(60.0, dtype=torch.float64)).view(-1, 1, 1)                    # reaches 1e-12 at t ≈ 23
    assert forgetting.step_factor(d).item() == pytest.approx(0.3, rel=1e-12)
    with pytest.raises(ValueError):
        forgetting.step_factor(d[:1])
