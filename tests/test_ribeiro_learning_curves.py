import numpy as np
import pytest

from rnnrepro.ribeiro.learning_curves import max_gain_within, transition_epochs


def test_transition_epochs():
    assert transition_epochs([0, 1, 2, 3, 4], [0.25, 0.3, 0.5, 0.95, 1.0]) == 2
    assert transition_epochs([0, 25, 50], [0.25, 0.5, 0.6]) == -1
    assert transition_epochs([0, 1], [0.5, 0.95]) == 1


def test_max_gain_within_separates_step_from_ramp():
    e = np.arange(100)
    step = np.where(e < 50, 0.25, 1.0)
    ramp = 0.25 + 0.75 * e / 99
    assert max_gain_within(e, step, 5) == pytest.approx(0.75)
    assert max_gain_within(e, ramp, 5) == pytest.approx(0.75 * 5 / 99)
    assert max_gain_within(e, ramp[::-1], 5) == 0.0
    with pytest.raises(ValueError):
        max_gain_within(e, step[:3], 5)
    with pytest.raises(ValueError):
        max_gain_within(e, step, 0)
