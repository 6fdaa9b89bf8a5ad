import numpy as np
import pytest

from rnnrepro.ribeiro.learning_curves import block_steps, first_passage_epochs, max_gain_within, transition_epochs


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


def test_first_passage_counts_from_the_first_exit_not_the_rebound():
    e = np.arange(0, 100, 10)
    jump = [0.25, 0.3, 0.3, 0.45, 0.95, 1.0, 1.0, 1.0, 1.0, 1.0]
    rebound = [0.25, 0.45, 0.7, 0.75, 0.35, 0.3, 0.6, 0.95, 1.0, 1.0]     # up, collapse, then up again
    assert first_passage_epochs(e, jump) == 10
    assert first_passage_epochs(e, rebound) == 60
    assert first_passage_epochs(e, [0.25] * 10) == -1
    assert first_passage_epochs([5], [0.95]) == 0
    with pytest.raises(ValueError):
        first_passage_epochs(e, jump[:3])
    with pytest.raises(ValueError):
        first_passage_epochs(e, jump, low=0.9, high=0.4)


def test_block_steps_separates_ramp_from_step_and_collapse():
    """Against block means written out by hand: a ramp over 200 epochs rises 0.125 per 50-epoch block, a step
    by 0.75 in one block, and a curve that collapses falls by the collapse."""
    e = np.arange(200)
    ramp = 0.25 + 0.5 * e / 200
    step = np.where(e < 100, 0.25, 1.0)
    collapse = np.where((e >= 100) & (e < 150), 0.25, 1.0)
    rise, fall = block_steps(np.stack([ramp, step, collapse], 1), 50)
    np.testing.assert_allclose(rise, [0.125, 0.75, 0.75])
    np.testing.assert_allclose(fall, [-0.125, 0.0, 0.75])
    assert block_steps(np.ones((101, 2)), 50)[0].shape == (2,)          # the trailing epoch is dropped
    with pytest.raises(ValueError, match="two blocks"):
        block_steps(np.ones((60, 2)), 50)
    with pytest.raises(ValueError, match="epochs, seeds"):
        block_steps(np.ones(100), 50)
