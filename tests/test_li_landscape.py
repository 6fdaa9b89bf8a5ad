"""Tests of rnnrepro.li.landscape: Stirling counts, coincided critical points, Prop. D.1 line."""

from fractions import Fraction

import numpy as np
import pytest

from rnnrepro.li import diagonal as D
from rnnrepro.li import landscape as LS
from rnnrepro.li import targets as T


def test_stirling_and_counts():
    assert [LS.stirling2(4, k) for k in range(1, 5)] == [1, 7, 6, 1]
    assert len(LS.labelled_partitions(4, 2)) == 2 * LS.stirling2(4, 2)
    assert LS.two_term_ratio(5) == Fraction(13 * 6, 24)


def test_best_single_exponential_is_critical_and_points_are_critical():
    tg = T.ExpSum([1.0, 1.0], [1.0, 3.0])
    a, w = LS.best_single_exponential(tg)
    assert np.abs(D.grad(np.concatenate([a, w]), tg)).max() < 1e-12
    th = LS.coincided_point(a, w, (0, 0, 0), np.random.default_rng(0))
    assert th[:3].sum() == pytest.approx(a[0]) and np.abs(D.grad(th, tg)).max() < 1e-10


def test_prop_d1_sign_pattern_and_zero_count():
    tg = T.ExpSum([1.0, 1.0], [1.0, 3.0])
    a, w = LS.best_single_exponential(tg)
    assert LS.line_min_eigenvalue(tg, a[0], w[0], 0.5) < -1e-3
    assert abs(LS.line_min_eigenvalue(tg, a[0], w[0], 1.5)) < 1e-8
    assert LS.zero_eigenvalues(np.diag([0.0, 1e-12, 1.0]), 1e-8) == 2
