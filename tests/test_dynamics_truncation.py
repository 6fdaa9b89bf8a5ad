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
