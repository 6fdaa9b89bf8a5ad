import numpy as np
import pytest
import torch

from rnnrepro.ribeiro import roundoff


def test_relative_tolerance_is_chain_times_eps():
    assert roundoff.relative_tolerance(1) == np.finfo(np.float32).eps
    assert roundoff.relative_tolerance(1000) == pytest.approx(1000 * 2.0 ** -23)
    for bad in (0, -3, 2.5):
        with pytest.raises(ValueError):
            roundoff.relative_tolerance(bad)


def test_relative_gap_and_flips():
    assert roundoff.relative_gap([1.0, 2.0], [1.0, 2.0]) == 0.0
    assert roundoff.relative_gap([1.1, 2.0], [1.0, 2.0]) == pytest.approx(0.1)
    with pytest.raises(ValueError):
        roundoff.relative_gap([1.0], [1.0, 2.0])
    assert roundoff.flipped_sequences([0.5, 0.75], [0.502, 0.75], 1000) == 2
    with pytest.raises(ValueError):
        roundoff.flipped_sequences([], [], 10)


def test_one_ulp_up():
    x = torch.tensor([1.0, -2.0, 0.0], dtype=torch.float32)
    y = roundoff.one_ulp_up(x)
    assert torch.all(y > x)
    assert np.array_equal(y.numpy(), np.nextafter(x.numpy(), np.float32(np.inf)))
    with pytest.raises(TypeError):
        roundoff.one_ulp_up(x.double())
