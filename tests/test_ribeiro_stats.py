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
