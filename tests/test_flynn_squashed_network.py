import numpy as np
import pytest

from rnnrepro.flynn.network import fd_gradient
from rnnrepro.flynn.optimisation_system import gradient_flow, run_optimisation, warm_up
from rnnrepro.flynn.squashed_network import SquashedNet, complete_graph, fd_jacobians, table3_printed


def make(squash=True, seed=0, n=5):
    rng = np.random.default_rng(seed)
    gain = 0.9 / (0.25 * (n - 1)) * rng.uniform(0.5, 1.0, n)
    return SquashedNet(gain, complete_graph(n), rng.uniform(-1, 1, n), np.arange(2), np.array([0.2, 0.8]), squash)


def test_jacobians_match_finite_differences_and_table3_misprints():
    net = make()
    rng = np.random.default_rng(1)
    x, w = rng.uniform(0, 1, 5), 0.3 * rng.standard_normal((5, 5))
    jx, jw = fd_jacobians(net, x, w)
    assert np.abs(jx - net.jac_x(x, w)).max() < 1e-8 and np.abs(jw - net.jac_w(x, w)).max() < 1e-8
    px, pw = table3_printed(net, x, w)
    assert np.abs(jx - px).max() == pytest.approx(1.0, abs=1e-8) and np.abs(jw - pw).max() > 1e-3


def test_h_star_is_minus_gradient_and_certificate():
    net = make()
    w = 0.3 * np.random.default_rng(2).standard_normal((5, 5))
    assert np.abs(net.h_star(w) + fd_gradient(net, w)).max() < 1e-8
    assert net.certificate(100 * w) <= -1 + 0.25 * (net.gain * 4).max() + 1e-12
    assert not make(squash=False).certificate(100 * w) < 0


def test_gradient_flow_descends():
    net = make()
    W = gradient_flow(net, np.zeros((5, 5)), 20.0, np.linspace(0, 20, 5), method="LSODA", rtol=1e-8, atol=1e-10)
    losses = [net.loss_star(w) for w in W]
    assert W.shape == (5, 5, 5) and np.all(np.diff(losses) <= 1e-12)


def test_optimisation_system_keeps_the_certificate():
    net = make()
    x, y = warm_up(net, np.zeros((5, 5)), np.full(5, 0.5), np.zeros(5), 20.0)
    traj = run_optimisation(net, np.zeros((5, 5)), x, y, tau=1.0, T=20.0, n_out=5)
    assert traj.w.shape == (5, 5, 5)
    assert max(net.certificate(w) for w in traj.w) <= -1 + 0.25 * (net.gain * 4).max() + 1e-12
    assert net.loss_star(traj.w[-1]) < net.loss_star(traj.w[0])


def test_second_derivatives_match_second_differences_and_table3_misses_product_terms():
    from rnnrepro.flynn.squashed_network import fd_second_derivatives, table3_printed_second
    for source in (False, True):
        net = make(seed=3)
        net = SquashedNet(net.gain, net.mask, net.rho, net.out, net.target, source_gain=source)
        rng = np.random.default_rng(4)
        x, w = rng.uniform(0, 1, 5), 0.5 * rng.standard_normal((5, 5))
        fx, fw = fd_second_derivatives(net, x, w)
        cx, cw = net.second_derivatives(x, w)
        px, pw = table3_printed_second(net, x, w)
        assert np.abs(fx - cx).max() < 1e-6 and np.abs(fw - cw).max() < 1e-6
        assert np.abs(fx - px).max() > 1e-2 and np.abs(fw - pw).max() > 1e-3
        # the missing terms are exactly the σ'(u) δ products
        assert np.abs((cx - px)[:, 0, 1]).max() == 0.0 and np.abs(cx - px).max() > 0


def test_source_gain_variant_and_measures():
    from rnnrepro.flynn.squashed_network import sampled_measure_sup
    n = 6
    gain = np.random.default_rng(5).uniform(0.5, 1.0, n) * 0.9 / (0.25 * (n - 1))
    net = SquashedNet(gain, complete_graph(n), np.zeros(n), np.arange(2), np.array([0.2, 0.8]), source_gain=True)
    w = 5 * np.random.default_rng(6).standard_normal((n, n))
    assert np.allclose(net.omega(w), gain[None, :] * np.tanh(w) * complete_graph(n))
    x = np.random.default_rng(7).uniform(0, 1, n)
    jx, jw = fd_jacobians(net, x, w)
    assert np.abs(jw - net.jac_w(x, w)).max() < 1e-8
    assert np.abs(jw - table3_printed(net, x, w)[1]).max() < 1e-8               # 7.4 is Table 3's D_w f
    mu1 = sampled_measure_sup(net, w, 1, 500, np.random.default_rng(8))
    assert mu1 <= net.certificate(w, ord=1) + 1e-12 <= -1 + 0.25 * gain.max() * (n - 1) + 2e-12


def test_logistic_squash_of_7_4_as_printed():
    """7.4 with the logistic σ: ω', ω'' against differences of ω; Table 3's verdicts are the same as with tanh
    (D_w f exact, the second derivatives miss their product-rule terms); signed gains contract in the 1-norm."""
    from rnnrepro.flynn.squashed_network import (complete_graph, fd_jacobians, fd_second_derivatives,
                                                 sampled_measure_sup, table3_printed, table3_printed_second)
    n, rng = 5, np.random.default_rng(4)
    gain = 0.9 / (0.25 * (n - 1)) * rng.uniform(0.5, 1.0, n) * rng.choice([-1.0, 1.0], n)
    net = SquashedNet(gain, complete_graph(n), rng.uniform(-1, 1, n), np.arange(2), np.array([0.2, 0.7]),
                      source_gain=True, squash_fn="logistic")
    w, x = rng.standard_normal((n, n)), rng.uniform(0, 1, n)
    eps = 1e-6
    assert np.allclose((net.omega(w + eps) - net.omega(w - eps)) / (2 * eps), net.domega(w), atol=1e-9)
    assert np.allclose((net.domega(w + eps) - net.domega(w - eps)) / (2 * eps), net.ddomega(w), atol=1e-8)
    assert np.all(np.sign(net.omega(w)) == np.sign(gain)[None, :] * net.mask)     # the sign is the source's
    jx_fd, jw_fd = fd_jacobians(net, x, w)
    assert np.abs(jw_fd - table3_printed(net, x, w)[1]).max() < 1e-8
    dxw_fd, dww_fd = fd_second_derivatives(net, x, w)
    dxw_ok, dww_ok = net.second_derivatives(x, w)
    dxw_pr, dww_pr = table3_printed_second(net, x, w)
    assert np.abs(dxw_fd - dxw_ok).max() < 1e-6 and np.abs(dww_fd - dww_ok).max() < 1e-6
    assert np.abs(dxw_fd - dxw_pr).max() > 1e-3 and np.abs(dww_fd - dww_pr).max() > 1e-3
    beta = 1 - 0.25 * (n - 1) * np.abs(gain).max()
    W5 = 5 * rng.standard_normal((n, n))
    assert sampled_measure_sup(net, W5, 1, 500, np.random.default_rng(0)) <= -beta + 1e-12
    with pytest.raises(ValueError, match="squash_fn"):
        SquashedNet(gain, complete_graph(n), np.zeros(n), np.arange(2), np.zeros(2), squash_fn="relu")


def test_in_star_chain_degrees():
    from rnnrepro.flynn.squashed_network import in_star_chain
    m = in_star_chain(6)
    assert np.all(np.diag(m) == 0)
    assert list(m.sum(axis=1)) == [5, 1, 1, 1, 1, 1]          # in(i): row sums (edge j -> i)
    assert list(m.sum(axis=0)) == [1, 2, 2, 2, 2, 1]          # out(j): column sums
    assert m[0, 3] == 1 and m[4, 3] == 1 and m[3, 4] == 0
