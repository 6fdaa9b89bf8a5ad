import numpy as np
import pytest

from rnnrepro.flynn.bounds import example1_recipe
from rnnrepro.flynn.network import example1_problem
from rnnrepro.flynn.optimisation_system import (diagnose, gradient_flow, joint_rhs, monotone_violation,
                                                run_optimisation, warm_up)


def test_short_run_descends_and_tracks_gradient_flow():
    net, w0 = example1_problem(4, 2, 2.0, 0)
    rec = example1_recipe(4, 2.0, 0.25)
    x, y = warm_up(net, w0, np.full(4, 0.5), np.zeros(4), 30.0)
    xs, ys = net.equilibrium(w0)
    assert np.abs(x - xs).max() < 1e-5 and np.abs(y - ys).max() < 1e-5
    traj = run_optimisation(net, w0, x, y, tau=rec.tau, T=5.0, n_out=11)
    d = diagnose(net, traj, 1.0, rec.r)
    assert traj.w.shape == (11, 4, 2) and d.ratio.max() < 0.25
    assert monotone_violation(d.loss_star) == 0.0
    w_gf = gradient_flow(net, w0, 5.0)[-1]
    assert np.linalg.norm(traj.w[-1] - w_gf) < 10 * rec.tau * np.linalg.norm(w_gf - w0)


def test_errors_and_helpers():
    net, _ = example1_problem(4, 2, 2.0, 0)
    with pytest.raises(ValueError, match="tau"):
        joint_rhs(net, 0.0)
    assert monotone_violation([2.0, 1.0, 1.5]) == pytest.approx(0.25)
