import numpy as np
import pytest
import torch

from rnnrepro.core.roundoff import ROUNDOFF_FLOOR
from rnnrepro.ribeiro import chaotic_lstm as cl


def test_printed_weights_flip_two_signs():
    a, b = cl.theta_true(), cl.theta_true(printed=True)
    diff = torch.nonzero(a != b).tolist()
    assert diff == [[0, 1], [7, 1]]
    assert a[0, 1] == -4 and b[0, 1] == 4 and a[7, 1] == -7 and b[7, 1] == 7


def test_step_matches_torch_lstm():
    W = cl.theta_true()
    m = torch.nn.LSTM(1, 2, bias=False).double()
    with torch.no_grad():
        m.weight_hh_l0.copy_(W)
        m.weight_ih_l0.zero_()
        out, _ = m(torch.zeros(30, 1, 1, dtype=torch.float64),
                   (torch.full((1, 1, 2), 0.5, dtype=torch.float64), torch.full((1, 1, 2), 0.5, dtype=torch.float64)))
    ours = cl.simulate(W[None], 30)[0]
    assert torch.allclose(ours, out[:, 0], atol=1e-14)


def test_batch_rows_are_bit_identical_and_cost_zero_at_true():
    s = cl.s_grid(101)
    assert (s == 1.0).sum() == 1 and len(s) == 101
    V, traj = cl.line_cost(s, cl.theta_true(), n_steps=150, burn=50)
    assert V[s == 1.0][0] == 0.0
    assert traj.shape == (101, 100)


def test_step_tangent_matches_autograd_jvp():
    W = (1.1 * cl.theta_true())[None].expand(3, 8, 2)
    g = torch.Generator().manual_seed(0)
    h, c, vh, vc = (torch.randn(3, 2, generator=g, dtype=torch.float64) for _ in range(4))
    _, _, th, tc = cl.step_tangent(h, c, vh, vc, W)
    _, (jh, jc) = torch.func.jvp(lambda a, b: cl.step(a, b, W), (h, c), (vh, vc))
    assert torch.allclose(th, jh, atol=1e-13) and torch.allclose(tc, jc, atol=1e-13)


def test_lyapunov_sign_chaotic_vs_fixed_point():
    W = torch.stack([cl.theta_true(), 0.6 * cl.theta_true()])
    lam = cl.lyapunov(W, n_steps=2000, burn=200)
    assert lam[0] > 0.1 and lam[1] < -0.1


def test_plane_cost_zero_at_true_and_separation():
    W0, Wr = cl.theta_true(), torch.ones(8, 2, dtype=torch.float64)
    V = cl.plane_cost([0.5, 1.0], [0.0, 0.1], W0, Wr, n_steps=120, burn=20)
    assert V.shape == (2, 2) and V[1, 0] == 0.0 and V[0, 0] > 0
    assert 0 < cl.separation_time(W0) <= 200
    assert cl.separation_time(0.6 * W0) == -1
    std_min, spread = cl.long_run_spread(W0, n_starts=20, n_steps=600)
    assert std_min > 0.01 and spread > 0.01


def test_exponent_at_reads_the_nearest_grid_point():
    import numpy as np
    s_lyap = np.array([0.5, 1.0, 1.5, 2.0])
    lam = np.array([-1.0, 0.2, -0.3, -0.5])
    got = cl.exponent_at([0.5, 0.7, 0.8, 1.24, 1.26, 2.0], s_lyap, lam)
    assert list(got) == [-1.0, -1.0, 0.2, 0.2, -0.3, -0.5]


def test_jacobian_matches_autograd():
    W = (1.1 * cl.theta_true())[None].expand(3, 8, 2)
    g = torch.Generator().manual_seed(1)
    h, c = (torch.randn(3, 2, generator=g, dtype=torch.float64) for _ in range(2))
    J = cl.jacobian(h, c, W)
    for p in range(3):
        f = lambda z, p=p: torch.cat(cl.step(z[None, :2], z[None, 2:], W[p:p + 1]), -1)[0]
        want = torch.autograd.functional.jacobian(f, torch.cat([h[p], c[p]]))
        assert torch.allclose(J[p], want, atol=1e-13)


def test_lyapunov_spectrum_at_a_fixed_point_is_log_of_eigenvalue_moduli():
    # at s = 0.45 the orbit from (h0, c0) settles on the origin, a stable focus: J there has a complex pair
    # (modulus < 1) and a double zero eigenvalue (tanh(c) = 0 kills the output-gate block)
    W = (0.45 * cl.theta_true())[None]
    lam, logdet = cl.lyapunov_spectrum(W, n_steps=3000, burn=1000)
    hh, cc = torch.tensor([[0.5, 0.5]], dtype=torch.float64), torch.tensor([[0.5, 0.5]], dtype=torch.float64)
    for _ in range(3000):
        hh, cc = cl.step(hh, cc, W)
    ev = np.log(np.abs(np.linalg.eigvals(cl.jacobian(hh, cc, W)[0].numpy())))
    top = np.sort(ev)[::-1][:2]
    assert np.allclose(lam[0, :2], top, atol=1e-3)              # a rotating pair: each converges like 1/T
    assert lam[0, :2].sum() == pytest.approx(top.sum(), abs=1e-6)
    # the double zero: -inf where the CPU's arithmetic lands on exact zeros (AMD EPYC), otherwise round-off
    # (about -36 on an Intel Xeon): below the float64 floor either way, far below the pair's exponents
    floor = np.log(ROUNDOFF_FLOOR)
    assert (lam[0, 2:] < floor).all() and logdet[0] < floor


def test_lyapunov_spectrum_largest_matches_tangent_estimate_and_sum_matches_logdet():
    W = cl.theta_true()[None]
    lam, logdet = cl.lyapunov_spectrum(W, n_steps=6000, burn=500)
    assert lam[0, 0] == pytest.approx(cl.lyapunov(W, n_steps=6000, burn=500)[0], abs=0.02)
    assert lam[0].sum() == pytest.approx(logdet[0], abs=1e-3)
    assert lam[0, 0] > 0.1 and lam[0].sum() < -5
    with pytest.raises(ValueError):
        cl.lyapunov_spectrum(W, n_steps=10, burn=10)


def test_closed_form_log_det_matches_the_jacobian_and_the_spectrum():
    W = torch.stack([cl.theta_true(), 1.3 * cl.theta_true(), 0.8 * cl.theta_true()])
    g = torch.Generator().manual_seed(2)
    h, c = (torch.randn(3, 2, generator=g, dtype=torch.float64) for _ in range(2))
    want = torch.linalg.slogdet(cl.jacobian(h, c, W))[1]
    assert torch.allclose(cl.log_det_jacobian(h, c, W), want, atol=1e-10)
    lam, logdet = cl.lyapunov_spectrum(W[:1], n_steps=1200, burn=200)
    assert cl.mean_log_det(W[:1], n_steps=1200, burn=200)[0] == pytest.approx(logdet[0], abs=1e-9)
    assert cl.mean_log_det(W[:1], n_steps=1201, burn=200)[0] != pytest.approx(logdet[0], abs=1e-9)  # alignment
    with pytest.raises(ValueError):
        cl.mean_log_det(W, n_steps=5, burn=5)
