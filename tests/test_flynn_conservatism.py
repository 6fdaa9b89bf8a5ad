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
    th = cons.descent_threshold(net, w0, 0.25, 10.0, rec.r, rec.tau, 100.0, iters=1)
    assert rec.tau <= th < 100.0
    assert cons.max_ratio(net, w0, th, 10.0, rec.r) <= 0.25
    with pytest.raises(ValueError, match="lo"):
        cons.descent_threshold(net, w0, 0.25, 10.0, rec.r, 1.0, 0.5)
