import numpy as np
import pytest

from rnnrepro.flynn import matrix_measures as mm
from rnnrepro.flynn import reservoir as rs
from rnnrepro.flynn.network import fd_gradient
from rnnrepro.flynn.optimisation_system import diagnose, monotone_violation, run_optimisation, warm_up


def test_hierarchy_contracts_for_saturated_readout():
    rng = np.random.default_rng(0)
    v = rng.standard_normal((6, 6))
    np.fill_diagonal(v, 0.0)
    v *= 2.0 / np.linalg.norm(v, 2)
    assert rs.reservoir_rate(v) == pytest.approx(0.5)
    k = rs.coupling_bound(2, 6)
    assert k == pytest.approx(0.25 * np.sqrt(12))
    w = 10 * rng.standard_normal((2, 6))
    assert 0.25 * np.linalg.norm(np.tanh(w)) <= k
    x1 = rng.uniform(0, 1, (3, 2))
    t, X1, X2 = rs.pair_distances(v, rng.standard_normal((6, 2)), rng.standard_normal(2), w,
                                  x1=np.concatenate([x1, x1]), x2=rng.uniform(0, 1, (6, 6)), T=10.0, n_out=51)
    r = 0.5 / (2 * k)
    d = np.linalg.norm(X2[:, :3] - X2[:, 3:], axis=2) + r * np.linalg.norm(X1[:, :3] - X1[:, 3:], axis=2)
    assert X1.shape == (51, 6, 2) and mm.envelope_ratio(d, t, 0.25) <= 1 + 1e-6


def readout_net(squash=True):
    rng = np.random.default_rng(1)
    v = rng.standard_normal((6, 6))
    np.fill_diagonal(v, 0.0)
    v *= 2.0 / np.linalg.norm(v, 2)
    net = rs.ReservoirReadoutNet(v, rng.standard_normal(2), np.array([0.2, 0.7]), squash)
    return net, net.pack(0.5 * rng.standard_normal((2, 6)), rng.standard_normal((6, 2)))


def test_readout_net_derivatives():
    for squash in (True, False):
        net, theta = readout_net(squash)
        assert net.n == 8 and net.w_shape == (24,)
        w, u = net.unpack(theta)
        assert w.shape == (2, 6) and u.shape == (6, 2) and np.array_equal(net.pack(w, u), theta)
        x = np.random.default_rng(2).uniform(0, 1, 8)
        eps = 1e-6
        J = np.stack([(net.f(x + eps * e, theta) - net.f(x - eps * e, theta)) / (2 * eps) for e in np.eye(8)], 1)
        assert np.abs(J - net.jac_x(x, theta)).max() < 1e-9
        assert np.abs(net.h_star(theta) + fd_gradient(net, theta)).max() < 1e-8


def test_readout_training_descends_and_errors():
    net, theta = readout_net()
    x, y = warm_up(net, theta, np.full(8, 0.5), np.zeros(8), 30.0)
    d = diagnose(net, run_optimisation(net, theta, x, y, tau=0.1, T=10.0, n_out=11), 1.0, 1.0)
    assert d.ratio.max() < 0.25 and monotone_violation(d.loss_star) == 0.0 and d.loss_star[-1] < d.loss_star[0]
    with pytest.raises(ValueError, match="need v"):
        rs.ReservoirReadoutNet(np.zeros((3, 2)), np.ones(2), np.ones(2))


def test_readout_derivatives_fd_against_closed_forms():
    from rnnrepro.flynn.activations import L_DDSIGMA, ddsigma, dsigma
    rng = np.random.default_rng(3)
    w, x2 = 5 * rng.standard_normal((2, 6)), rng.uniform(0, 1, 6)
    for omega in (np.tanh(w), w):
        u = omega @ x2
        J, H = rs.readout_derivatives_fd(omega, x2)
        assert np.abs(J - dsigma(u)[:, None] * omega).max() < 1e-8
        H_exact = ddsigma(u)[:, None, None] * omega[:, :, None] * omega[:, None, :]
        assert np.abs(H - H_exact).max() < 1e-5 * max(1.0, np.abs(H_exact).max())
    # squashed: within k and L_σ'' whatever w; unsquashed at a state where u = 0 exceeds k
    J, H = rs.readout_derivatives_fd(np.tanh(w), x2)
    assert np.linalg.norm(J, 2) <= rs.coupling_bound(2, 6) and np.abs(H).max() <= L_DDSIGMA
    x0 = np.zeros(6)
    J0, _ = rs.readout_derivatives_fd(w, x0)
    assert np.linalg.norm(J0, 2) == pytest.approx(0.25 * np.linalg.norm(w, 2), rel=1e-8)
    assert np.linalg.norm(J0, 2) > rs.coupling_bound(2, 6)


def test_readout_weight_derivatives_fd_against_closed_forms():
    from rnnrepro.flynn.activations import ddsigma, dsigma
    rng = np.random.default_rng(4)
    w, x2 = 2 * rng.standard_normal((2, 4)), rng.uniform(0, 1, 4)
    om, d1 = np.tanh(w), 1 - np.tanh(w) ** 2
    d2 = -2 * om * d1
    u = om @ x2
    Dw, Dww, Dxw = rs.readout_weight_derivatives_fd(w, x2)
    n1, n2 = w.shape
    Dw_x, Dww_x, Dxw_x = np.zeros((n1, n1 * n2)), np.zeros((n1, n1 * n2, n1 * n2)), np.zeros((n1, n2, n1 * n2))
    for i in range(n1):
        for j in range(n2):
            a = i * n2 + j
            Dw_x[i, a] = dsigma(u[i]) * d1[i, j] * x2[j]
            Dww_x[i, a, a] += dsigma(u[i]) * d2[i, j] * x2[j]
            Dxw_x[i, j, a] += dsigma(u[i]) * d1[i, j]
            for k in range(n2):
                Dww_x[i, a, i * n2 + k] += ddsigma(u[i]) * d1[i, j] * x2[j] * d1[i, k] * x2[k]
                Dxw_x[i, k, a] += ddsigma(u[i]) * om[i, k] * d1[i, j] * x2[j]
    assert np.abs(Dw - Dw_x).max() < 1e-8
    assert np.abs(Dww - Dww_x).max() < 1e-6 and np.abs(Dxw - Dxw_x).max() < 1e-6
    b = rs.readout_weight_bounds()
    assert np.abs(Dw).max() <= b[0] and np.abs(Dww).max() <= b[1] and np.abs(Dxw).max() <= b[2]
    # unsquashed: D²_{x₂,w} grows with w (σ''(u) w_ik x_j), beyond the squashed bound for large w at u ≈ ±1.3
    w_big = np.array([[40.0, -40.0 + 1.3]])
    _, _, Dxw0 = rs.readout_weight_derivatives_fd(w_big, np.array([1.0, 1.0]), squash=False)
    assert np.abs(Dxw0).max() > b[2]
