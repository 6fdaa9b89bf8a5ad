import numpy as np
import torch

from rnnrepro.ribeiro import smoothness as sm


def test_teacher_norm_and_perturb_radius():
    th = sm.tanh_teacher(16, 0.8, "orthogonal", 0)
    assert abs(torch.linalg.matrix_norm(th["W"], 2) - 0.8) < 1e-12
    tk = sm.perturb(th, 4, 0.05)
    d = (tk["W"] - th["W"][None]).flatten(1).norm(dim=1)
    assert torch.allclose(d, torch.full((4,), 0.05, dtype=torch.float64))


def test_grad_sup_matches_finite_difference():
    th = sm.tanh_teacher(4, 0.8, "orthogonal", 0)
    u = torch.randn(20, 1, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    x0 = torch.full((4,), 0.5, dtype=torch.float64)
    y = torch.zeros(20, dtype=torch.float64)
    one = {k: v[None] for k, v in th.items()}
    G = sm.grad_sup(one, y, u, x0, [20])[0]
    # directional finite difference along b
    e = 1e-6
    def V(db):
        t = {k: v.clone() for k, v in one.items()}
        t["b"] = t["b"] + db
        return float(((sm.tanh_rnn_outputs(t, u, x0)) ** 2).mean())
    db = torch.zeros(1, 4, dtype=torch.float64)
    db[0, 0] = e
    fd = (V(db) - V(-db)) / (2 * e)
    assert G >= abs(fd) - 1e-8


def test_jacobian_norms_ordering():
    th = sm.tanh_teacher(8, 0.8, "orthogonal", 0)
    u = torch.randn(10, 1, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    Lx, Lb, Lj = sm.jacobian_norms(th, u, torch.full((8,), 0.5, dtype=torch.float64))
    assert (Lx <= 0.8 + 1e-12).all() and (Lj >= Lb).all() and (Lj >= Lx).all()


def test_rotation_closed_form_and_autograd():
    g_auto, g_closed = sm.rotation_autograd_derivative(0.31, 0.3, 50)
    assert abs(g_auto - g_closed) < 1e-10
    G, H = sm.rotation_derivative_sups([50, 100], n_grid=2001)
    assert G[1] > G[0] and H[1] > H[0]


def test_tanh_lyapunov_linear_regime():
    th = sm.tanh_teacher(8, 0.5, "orthogonal", 0)
    th["U"] = th["U"] * 0
    u = torch.zeros(300, 1, dtype=torch.float64)
    lam = sm.tanh_lyapunov({k: v[None] for k, v in th.items()}, u, torch.zeros(8, dtype=torch.float64))
    assert abs(lam[0] - np.log(0.5)) < 1e-6


def test_lstm_line_derivatives_vs_finite_difference():
    s = np.array([0.7, 1.2])
    d1, d2 = sm.lstm_line_derivatives(s, [20])
    from rnnrepro.ribeiro import chaotic_lstm as cl
    W = cl.theta_true()
    y = cl.simulate(W[None], 20)
    def V(x):
        yh = cl.simulate(torch.tensor([[[x]]], dtype=torch.float64) * W[None], 20)
        return float(((yh - y) ** 2).sum(2).mean())
    e = 1e-5
    for i, x in enumerate(s):
        assert abs(d1[0, i] - (V(x + e) - V(x - e)) / (2 * e)) < 1e-5 * max(1, abs(d1[0, i]))
        assert abs(d2[0, i] - (V(x + e) - 2 * V(x) + V(x - e)) / e ** 2) < 1e-2 * max(1, abs(d2[0, i]))


def test_lstm_jacobian_sup():
    assert sm.lstm_jacobian_sup([1.0], n_steps=20) > 1


def test_curvature_sup_matches_finite_difference():
    th = sm.tanh_teacher(4, 0.8, "orthogonal", 0)
    u = torch.randn(15, 1, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    x0 = torch.full((4,), 0.5, dtype=torch.float64)
    y = torch.zeros(15, dtype=torch.float64)
    one = {k: v[None] for k, v in th.items()}
    H = sm.curvature_sup(one, y, u, x0, [15], seed=3)[0]
    g = torch.Generator().manual_seed(3)          # the same direction as curvature_sup draws
    d = {k: torch.randn(v.shape, generator=g, dtype=v.dtype) for k, v in one.items()}
    n = sum(v.pow(2).sum() for v in d.values()).sqrt()
    e = 1e-4
    V = lambda c: float((sm.tanh_rnn_outputs({k: v + c * d[k] / n for k, v in one.items()}, u, x0) ** 2).mean())
    fd = (V(e) - 2 * V(0.0) + V(-e)) / e ** 2
    assert abs(H - abs(fd)) < 1e-5 * max(1.0, abs(fd))


def test_linear_teacher_state_constant_is_spectral_radius():
    th = sm.linear_teacher(8, 1.5, seed=3)
    A = th["A"].numpy()
    assert np.allclose(A, A.T)
    assert abs(np.linalg.norm(A, 2) - 1.5) < 1e-12
    assert abs(np.max(np.abs(np.linalg.eigvalsh(A))) - 1.5) < 1e-12
    x_star = sm.linear_fixed_point(th["A"], th["b"]).numpy()
    assert np.allclose(A @ x_star + th["b"].numpy(), x_star)


def test_linear_grad_sup_matches_matrix_power_closed_form():
    # grad_b V_N = (2/N) sum_t (c.M_t d) M_t^T c, M_t = sum_{k<t} A^k, d = b - b*, from the fixed point
    th = sm.linear_teacher(5, 1.3, seed=1)
    b_k = th["b"][None] + 0.1 * torch.randn(3, 5, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    A, c = th["A"].numpy(), th["c"].numpy()
    for N in (7, 30):
        norms = []
        for d in (b_k - th["b"][None]).numpy():
            M, P, g = np.zeros((5, 5)), np.eye(5), np.zeros(5)
            for _ in range(N):
                M, P = M + P, P @ A
                g += 2 / N * (c @ M @ d) * (M.T @ c)
            norms.append(np.linalg.norm(g))
        assert np.isclose(sm.linear_grad_sup(th, b_k, [N])[0], max(norms), rtol=1e-10)


def test_linear_lyapunov_is_log_spectral_radius():
    for a in (1.5, 0.8):
        assert abs(sm.linear_lyapunov(sm.linear_teacher(8, a, seed=0)) - np.log(a)) < 1e-6


def test_rotation_sup_is_linear_with_the_integral_constant():
    # (2/N) sum_t t sin(t d) -> 2N h(N d), h(x) = (sin x - x cos x)/x^2: G(N)/N -> 2 max|h|
    x = np.linspace(0.01, 10, 200001)
    h = (np.sin(x) - x * np.cos(x)) / x ** 2
    G, _ = sm.rotation_derivative_sups([2000], delta_max=0.25, n_grid=40001)
    assert abs(G[0] / 2000 - 2 * np.abs(h).max()) < 2e-3
