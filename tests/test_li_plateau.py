"""Tests of rnnrepro.li.plateau: the band-and-drop plateau detector."""

import numpy as np

from rnnrepro.li import plateau as P


def _curve():
    return np.concatenate([np.linspace(1, 0.95, 100), np.linspace(0.95, 0.3, 20),
                           np.linspace(0.3, 0.29, 50), np.linspace(0.29, 0.01, 30)])


def test_finds_the_plateau_followed_by_a_drop():
    n, s, e = P.longest_plateau(_curve())
    assert (s, e) == (0, 101) and n == 102


def test_a_tail_without_later_drop_is_not_a_plateau():
    L = np.concatenate([np.linspace(1, 0.1, 50), np.full(500, 0.1)])
    assert all(e < 50 for _, e in P.plateaus(L))
    assert P.longest_plateau(np.full(100, 0.3)) == (0, -1, -1)


def test_min_level_excludes_low_plateaus():
    L = np.concatenate([np.linspace(1, 0.05, 20), np.full(300, 0.05), np.linspace(0.05, 1e-3, 20)])
    assert P.longest_plateau(L)[0] >= 300
    assert P.longest_plateau(L, min_level=0.1)[0] < 300


def test_plateaus_do_not_overlap_and_steps_to_fraction():
    spans = P.plateaus(_curve())
    taken = np.zeros(200, bool)
    for s, e in spans:
        assert not taken[s:e + 1].any()
        taken[s:e + 1] = True
    assert P.steps_to_fraction(_curve(), 0.5) == 114
    assert P.steps_to_fraction(np.ones(5), 0.5) == -1
