import pytest
import torch

from rnnrepro.dynamics import truncation


def test_linear_contraction_errors_decay_geometrically():
    a = 0.5
    step = lambda h, x: a * h + x  # noqa: E731
    inputs = torch.ones(6, 1, 1)
    err = truncation.truncation_errors(step, torch.zeros(1, 1, 1), inputs, [0, 1, 2, 6])
    # full state: sum_{j<6} a^j; truncated to k: sum_{j<k} a^j; difference a^k (1 - a^(6-k)) / (1 - a)
    expected = torch.tensor([(a ** k) * (1 - a ** (6 - k)) / (1 - a) for k in (0, 1, 2, 6)])
    assert err.shape == (4, 1, 1)
    assert torch.allclose(err[:, 0, 0], expected)


def test_final_state_and_window_check():
    step = lambda h, x: h + x  # noqa: E731
    assert truncation.final_state(step, torch.zeros(1, 1, 1), torch.ones(3, 1, 1)).item() == 3.0
    with pytest.raises(ValueError):
        truncation.truncation_errors(step, torch.zeros(1, 1, 1), torch.ones(3, 1, 1), [4])


def test_first_step_bound_is_l_to_the_k_times_the_state_k_steps_back():
    traj = torch.arange(5, dtype=torch.float64).view(5, 1, 1, 1) * torch.tensor([3.0, 4.0])  # |h_t| = 5t
    bound = truncation.first_step_bound(traj, [0, 1, 4], 0.5)
    assert bound.shape == (3, 1, 1)
    assert torch.allclose(bound[:, 0, 0], torch.tensor([20.0, 0.5 * 15.0, 0.5 ** 4 * 0.0]))
    with pytest.raises(ValueError):
        truncation.first_step_bound(traj, [5], 0.5)


def test_first_step_bound_holds_with_equality_for_a_scaled_rotation():
    """h -> L Q h + x (linear, ||LQ|| = L): the error after k inputs is exactly L^k ||h_{T-k}||."""
    from rnnrepro.dynamics.simulate import simulate

    gen = torch.Generator().manual_seed(1)
    Q = torch.linalg.qr(torch.randn(4, 4, generator=gen, dtype=torch.float64))[0]
    step = lambda h, x: 0.7 * h @ Q.T + x  # noqa: E731
    inputs = torch.randn(12, 1, 3, 4, generator=gen, dtype=torch.float64)
    h0 = torch.zeros(1, 3, 4, dtype=torch.float64)
    err = truncation.truncation_errors(step, h0, inputs, [1, 5, 11])
    bound = truncation.first_step_bound(simulate(step, h0, inputs=inputs), [1, 5, 11], 0.7)
    assert torch.allclose(err, bound, rtol=1e-12, atol=0)
