import numpy as np
import pytest

from rnnrepro.flynn.network import FixedFeedbackNet, example1_problem, fd_gradient, newton_fixed_point


def test_h_star_is_minus_gradient():
    net, w0 = example1_problem(6, 3, 2.0, 1)
    assert np.abs(net.h_star(w0) + fd_gradient(net, w0)).max() < 1e-8
    x, y = net.equilibrium(w0)
    assert np.abs(net.f(x, w0)).max() < 1e-13 and np.abs(net.adjoint_field(x, y, w0)).max() < 1e-12


def test_jacobian_matches_finite_differences():
    net, w0 = example1_problem(5, 2, 1.5, 0)
    x = np.random.default_rng(0).uniform(0, 1, 5)
    eps = 1e-6
    J = np.stack([(net.f(x + eps * e, w0) - net.f(x - eps * e, w0)) / (2 * eps) for e in np.eye(5)], axis=1)
    assert np.allclose(net.jac_x(x, w0), J, atol=1e-9)


def test_problem_shapes_and_errors():
    net, w0 = example1_problem(7, 4, 2.0, 0)
    assert w0.shape == (7, 4) and np.linalg.norm(net.v) == pytest.approx(2.0)
    assert np.all(np.diag(net.v) == 0) and np.linalg.norm(net.rho) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        example1_problem(1, 1, 2.0, 0)
    with pytest.raises(ValueError):
        FixedFeedbackNet(np.zeros((3, 2)), np.ones(1), np.zeros(3))


def test_newton_fixed_point_solves_and_refuses_divergence():
    x = newton_fixed_point(lambda z: z ** 2 - 2.0, lambda z: np.diag(2 * z), np.array([1.0, 3.0]))
    assert np.allclose(x, np.sqrt(2.0), atol=1e-14)
    with pytest.raises(RuntimeError, match="Newton"):
        newton_fixed_point(lambda z: z ** 2 + 1.0, lambda z: np.diag(2 * z), np.array([0.5]), max_iter=20)


def test_shared_adjoint_methods():
    net, w0 = example1_problem(5, 2, 2.0, 3)
    assert net.w_shape == (5, 2)
    x, y = net.equilibrium(w0)
    assert np.allclose(net.fixed_point(w0), x) and net.loss_star(w0) == pytest.approx(net.loss(x))
    assert net.u_norm(x, y, w0, 1.0, 0.5) < 1e-12
    assert net.u_norm(x + 0.1, y, w0, 1.0, 0.0) == pytest.approx(np.linalg.norm(net.f(x + 0.1, w0)))
