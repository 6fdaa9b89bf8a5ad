"""Tests of rnnrepro.li.gradient_flow: hitting times, GD agreement, loss curves."""

import numpy as np
import pytest

from rnnrepro.li import gradient_flow as GF
from rnnrepro.li import targets as T

TH0 = np.array([1.0, 0.0, 1.0, 0.5])


def test_hitting_time_grows_with_memory():
    taus = [GF.hitting_time(TH0, T.two_part(mu)) for mu in (6.0, 10.0)]
    assert 0 < taus[0] < taus[1] and taus[1] / taus[0] > 5


def test_gd_matches_flow_for_small_steps():
    tg = T.two_part(6.0)
    tau = GF.hitting_time(TH0, tg)
    assert 0.01 * GF.gd_hitting_steps(TH0, tg, 0.01) == pytest.approx(tau, rel=0.05)


def test_parameter_separation_and_unreachable_drop():
    tg = T.two_part(6.0)
    assert GF.hitting_time(TH0, tg, delta=0.5, kind="param") > 0
    assert GF.hitting_time(TH0, tg, delta=10.0, tmax=50.0) == np.inf


def test_loss_curve_starts_at_plateau_and_decreases():
    tg = T.two_part(8.0)
    c = GF.loss_curve(TH0, tg, np.logspace(-2, 3, 11))
    assert c[0] == pytest.approx(np.sqrt(np.pi / 2), rel=1e-4)
    assert np.all(np.diff(c) <= 1e-9) and c[-1] < c[0] - 0.05


def test_distance_at_moves_off_the_plateau_point_and_rejects_bad_time():
    th = np.array([1.0, 0.0, 1.0, 0.5])
    tg = T.two_part(6.0)
    assert GF.distance_at(th, tg, 0.1) < GF.distance_at(th, tg, 50.0)
    assert GF.distance_at(th, tg, 50.0) > 0.5
    with pytest.raises(ValueError):
        GF.distance_at(th, tg, 0.0)


def test_hitting_time_options_are_keyword_only():
    with pytest.raises(TypeError):
        GF.hitting_time(TH0, T.two_part(6.0), 0.5)
