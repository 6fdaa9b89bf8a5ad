import numpy as np

from rnnrepro.ribeiro.stats import density_ratio, transition_epochs


def test_density_ratio():
    mask = np.array([1, 1, 0, 0, 0, 1, 0, 0], bool)
    inside = np.array([1, 1, 1, 1, 0, 0, 0, 0], bool)
    assert density_ratio(mask, inside, ~inside) == (2 / 4) / (1 / 4)
    assert density_ratio(np.zeros(8, bool) | inside, inside, ~inside) == 4.0   # outside count floored at 1


def test_transition_epochs():
    assert transition_epochs([0, 1, 2, 3, 4], [0.25, 0.3, 0.5, 0.95, 1.0]) == 2
    assert transition_epochs([0, 25, 50], [0.25, 0.5, 0.6]) == -1
    assert transition_epochs([0, 1], [0.5, 0.95]) == 1


def test_max_gain_within_separates_step_from_ramp():
    import pytest

    from rnnrepro.ribeiro.stats import max_gain_within
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


def test_strict_minima_beyond_ignores_shallow_dips():
    import pytest

    from rnnrepro.ribeiro.stats import strict_minima_beyond
    v = np.array([1.0, 0.0, 1.0, 0.999999, 1.0])
    assert strict_minima_beyond(v, 0.0).tolist() == [False, True, False, True, False]
    assert strict_minima_beyond(v, 1e-3).tolist() == [False, True, False, False, False]
    with pytest.raises(ValueError):
        strict_minima_beyond(v, -1.0)
    with pytest.raises(ValueError):
        strict_minima_beyond(v[None], 0.0)
