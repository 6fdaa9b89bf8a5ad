import numpy as np
import pytest

from rnnrepro.flynn import trajectories as tj


def test_weights_and_batched_integration_match_single_copies():
    W = tj.zero_diagonal_weights(5, np.inf, 3.0, 0)
    assert np.linalg.norm(W, np.inf) == pytest.approx(3.0) and np.all(np.diag(W) == 0)
    S = tj.star_weights(5, 2.0)
    assert np.linalg.norm(S, np.inf) == 2.0 and np.linalg.norm(S, 1) == 8.0
    net = tj.table1_net(W)
    rng = np.random.default_rng(0)
    x0, y0 = rng.uniform(0, 1, (3, 5)), rng.standard_normal((3, 5))
    t, X, Y = tj.integrate_copies(net, lambda s: np.ones((5, 1)), x0, y0, 2.0, 5)
    t1, X1, Y1 = tj.integrate_copies(net, lambda s: np.ones((5, 1)), x0[1], y0[1], 2.0, 5)
    assert X.shape == (5, 3, 5) and np.allclose(X[:, 1], X1[:, 0], atol=1e-9) and np.allclose(Y[:, 1], Y1[:, 0],
                                                                                              atol=1e-9)
    b = tj.ball_samples(4, 2.0, 100, rng, lo=0.5)
    nb = np.linalg.norm(b, axis=1)
    assert nb.max() <= 2.0 and nb.min() >= 1.0
    with pytest.raises(ValueError):
        tj.integrate_copies(net, lambda s: np.ones((5, 1)), x0, y0[:2], 1.0)


def test_leaky_exact_solves_its_equations_and_matches_the_integrator():
    rng = np.random.default_rng(3)
    x0, y0, s, tg = rng.uniform(0, 1, (2, 4)), rng.standard_normal((2, 4)), rng.uniform(0, 1, 4), rng.uniform(0, 1, 4)
    t, h = np.linspace(0.5, 3.0, 6), 1e-5
    X, Y = tj.leaky_exact(x0, y0, s, tg, t)
    (Xp, Yp), (Xm, Ym) = tj.leaky_exact(x0, y0, s, tg, t + h), tj.leaky_exact(x0, y0, s, tg, t - h)
    assert np.allclose((Xp - Xm) / (2 * h), -X + s, atol=1e-8)              # the ODE, by central differences
    assert np.allclose((Yp - Ym) / (2 * h), -Y - (X - tg), atol=1e-8)
    X0, Y0 = tj.leaky_exact(x0, y0, s, tg, np.zeros(1))
    assert np.allclose(X0[0], x0) and np.allclose(Y0[0], y0)


def test_uniform_weights_have_equal_norms_and_a_centred_fixed_point():
    W = tj.uniform_weights(6, 3.6)
    assert np.all(np.diag(W) == 0)
    for o in (1, 2, np.inf):
        assert abs(np.linalg.norm(W, ord=o) - 3.6) < 1e-12
    b = -W @ np.full(6, 0.5)                                  # σ(Wx* + b) = σ(0) = 1/2 = x*
    net = tj.table1_net(W)
    assert np.abs(net.fixed_point(b[:, None]) - 0.5).max() < 1e-12
    lam = np.linalg.eigvalsh(net.jac_x(np.full(6, 0.5), b[:, None]))
    assert abs(lam.max() - (-1 + 0.25 * 3.6)) < 1e-12         # linear rate exactly 1 − L_σ'‖W‖
