"""Tests of rnnrepro.li.momentum: escape steps of GD and heavy ball."""

import numpy as np
import pytest

from rnnrepro.li import momentum as MO


def test_gd_closed_form_matches_iteration():
    for eps in (1e-2, 1e-3):
        assert MO.gd_escape_steps(eps, 0.5, 1e-3) == MO.gd_escape_steps_iterated(eps, 0.5, 1e-3)


def test_heavy_ball_is_faster_and_tuned_beta():
    assert MO.hb_escape_steps(1e-3, 0.5, 0.9, 1e-3) < MO.gd_escape_steps(1e-3, 0.5, 1e-3)
    assert MO.tuned_beta(1e-4, 0.5) == pytest.approx(1 - 2 * np.sqrt(5e-5))
    assert MO.hb_escape_steps(1e-3, 0.5, 0.0, 1.0, gap=0.5) == 1


def test_exponent():
    eps = np.array([1e-2, 1e-3, 1e-4])
    assert MO.exponent(eps, 3 / eps) == pytest.approx(-1.0)
