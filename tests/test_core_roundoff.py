"""The round-off floor (rnnrepro.core.roundoff) against float64 itself: above what rounding accumulates
on quantities of size one, far below what the chapters resolve."""

import math

import numpy as np

from rnnrepro.core.roundoff import ROUNDOFF_FLOOR


def test_the_floor_is_above_accumulated_rounding_of_unit_quantities():
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, 4000) / 4000            # a sum of size about one, in two orders
    forward, backward = math.fsum(x), 0.0
    for v in x[::-1]:
        backward += v
    naive = 0.0
    for v in x:
        naive += v
    assert abs(naive - forward) < ROUNDOFF_FLOOR and abs(backward - forward) < ROUNDOFF_FLOOR
    assert ROUNDOFF_FLOOR > 1000 * np.finfo(np.float64).eps


def test_the_floor_is_far_below_float32_and_resolved_distances():
    assert ROUNDOFF_FLOOR < np.finfo(np.float32).eps / 1e4
    a, b = 1.0, 1.0 + 1e-9                          # a distance the chapters resolve (resolved=1e-9)
    assert abs(b - a) > 100 * ROUNDOFF_FLOOR


def test_the_dynamics_package_reads_the_core_floor():
    from rnnrepro.dynamics import convergence, forgetting

    assert convergence.ROUNDOFF_FLOOR is ROUNDOFF_FLOOR and forgetting.ROUNDOFF_FLOOR is ROUNDOFF_FLOOR
