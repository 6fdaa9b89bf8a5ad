import numpy as np
import pytest

from rnnrepro.flynn import conservatism as cons
from rnnrepro.flynn.bounds import example1_recipe
from rnnrepro.flynn.network import example1_problem


def test_tau_star_scales_as_beta_to_the_fourth():
    assert cons.tau_star_local_slope(10, 0.25, 1e-3, 2e-3) == pytest.approx(4.0, abs=0.05)
    assert cons.tau_star_local_slope(10, 0.25, 0.5, 0.75) > 4.5


def test_descent_threshold_brackets_the_condition():
    net, w0 = example1_problem(4, 2, 2.0, 0)
    rec = example1_recipe(4, 2.0, 0.25)
    th = cons.descent_threshold(net, w0, 0.25, T=10.0, r=rec.r, lo=rec.tau, hi=100.0, iters=1)
    assert rec.tau <= th < 100.0
    assert cons.max_ratio(net, w0, th, T=10.0, r=rec.r) <= 0.25
    with pytest.raises(ValueError, match="lo"):
        cons.descent_threshold(net, w0, 0.25, T=10.0, r=rec.r, lo=1.0, hi=0.5)


def test_bisect_log_and_grid_bracket():
    th = cons.bisect_log(lambda t: t <= 3.0, 1.0, 10.0, 30)
    assert th <= 3.0 and th == pytest.approx(3.0, rel=1e-6)
    assert cons.bisect_log(lambda t: True, 1.0, 10.0, 0) == 1.0
    with pytest.raises(ValueError):
        cons.bisect_log(lambda t: True, 2.0, 1.0, 3)
    assert cons.grid_bracket([1, 2, 4, 8], [0.1, 0.2, 0.5, 0.3], 0.25) == (2.0, 4.0)
    with pytest.raises(ValueError, match="bracket"):
        cons.grid_bracket([1, 2], [0.1, 0.2], 0.25)
    with pytest.raises(ValueError, match="bracket"):
        cons.grid_bracket([1, 2], [0.5, 0.2], 0.25)


def test_tradeoff_helpers():
    taus = cons.tau_star_of_alpha(10, 2.0, [0.1, 0.25])
    assert taus[1] == pytest.approx(example1_recipe(10, 2.0, 0.25).tau)
    assert cons.smallest_step_ratio(cons.tau_star_of_alpha(10, 2.0, np.arange(0.05, 0.46, 0.05))) > 1
    assert cons.smallest_step_ratio(cons.tau_star_of_alpha(10, 2.0, [0.6, 0.9])) < 1
    assert cons.smallest_step_ratio([1.0, 2.0, 3.0]) == pytest.approx(1.5)
    with pytest.raises(ValueError):
        cons.smallest_step_ratio([1.0])


def test_invariant_ratio_holds_at_tau_star():
    net, w0 = example1_problem(4, 2, 2.0, 0)
    rec = example1_recipe(4, 2.0, 0.25)
    assert cons.max_invariant_ratio(net, w0, rec.tau, T=10.0, r=rec.r, c=rec.c) <= 1.0
    assert cons.max_invariant_ratio(net, w0, 1000 * rec.tau, T=10.0, r=rec.r, c=rec.c) > 1.0


def test_crossing_log_finds_a_known_threshold():
    from rnnrepro.flynn.conservatism import crossing_log
    calls = []
    tau = crossing_log(lambda t: calls.append(t) or (t / 4.36) ** 1.1, 1.0, 0.1, 100.0, rtol=1e-4)
    assert abs(tau / 4.36 - 1) < 1e-4 and len(calls) < 20
    with pytest.raises(ValueError, match="bracket"):
        crossing_log(lambda t: t, 1.0, 2.0, 3.0)


def test_crossing_log_fails_instead_of_running_away():
    import math
    with pytest.raises(RuntimeError, match="did not reach"):
        cons.crossing_log(lambda tau: (math.log(tau) - 0.3) ** 3, 0.0, 1e-3, 1e3, rtol=1e-12, max_iter=2)
    assert cons.crossing_log(lambda tau: math.log(tau), 0.0, 1e-3, 1e3) == pytest.approx(1.0, rel=1e-4)
