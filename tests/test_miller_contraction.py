import pytest
import torch

from rnnrepro.core.cells import tanh_rnn_step
from rnnrepro.miller.contraction import (contraction_bound_tanh, jacobian_norm_sup, jacobian_top_singular, jacobians,
                                         pairwise_lipschitz)

torch.set_num_threads(1)
D = torch.float64


def rand(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=D)


def test_pairwise_lipschitz_linear_map_bounded_by_norm():
    A = rand(3, 4, 4)
    f = lambda h: h @ A.mT  # noqa: E731
    x, y = rand(3, 200, 4, seed=1), rand(3, 200, 4, seed=2)
    est = pairwise_lipschitz(f, x, y)
    norm = torch.linalg.matrix_norm(A, ord=2)
    assert est.shape == (3,) and (est <= norm + 1e-12).all() and (est > 0.5 * norm).all()
    ratios = pairwise_lipschitz(f, x, y, return_all=True)
    assert ratios.shape == (3, 200) and torch.equal(ratios.amax(-1), est)
    # the top right singular vector attains the norm
    v = torch.linalg.svd(A).Vh[:, 0, :].unsqueeze(1)
    assert torch.allclose(pairwise_lipschitz(f, v, torch.zeros_like(v)), norm)


def test_pairwise_lipschitz_errors():
    x = torch.zeros(2, 3, dtype=D)
    with pytest.raises(ValueError, match="same shape"):
        pairwise_lipschitz(torch.tanh, x, x[:1])
    with pytest.raises(ValueError, match="x == y"):
        pairwise_lipschitz(torch.tanh, x, x)


def test_jacobians_of_tanh_rnn_match_formula():
    P, M, H = 2, 5, 3
    W, b = rand(P, H, H), rand(P, H, seed=1)
    f = lambda h: tanh_rnn_step(h, None, W, None, b)  # noqa: E731
    xs = rand(P, M, H, seed=2)
    J = jacobians(f, xs)
    assert J.shape == (P, M, H, H)
    d = 1 - f(xs) ** 2
    assert torch.allclose(J, d.unsqueeze(-1) * W.unsqueeze(1), atol=1e-14)
    sup = jacobian_norm_sup(f, xs)
    norms = jacobian_norm_sup(f, xs, return_all=True)
    assert sup.shape == (P,) and norms.shape == (P, M) and torch.equal(norms.amax(-1), sup)
    assert (sup <= contraction_bound_tanh(W) + 1e-12).all()
    # at h = 0 with b = 0 the Jacobian is W itself: the bound is attained
    f0 = lambda h: tanh_rnn_step(h, None, W)  # noqa: E731
    assert torch.allclose(jacobian_norm_sup(f0, torch.zeros(P, 1, H, dtype=D)), contraction_bound_tanh(W))
    with pytest.raises(ValueError, match=r"\(\.\.\., M, D\)"):
        jacobians(f, torch.zeros(3, dtype=D))


def test_contraction_bound_tanh():
    W = torch.diag(torch.tensor([0.5, -0.9, 0.1], dtype=D))
    assert contraction_bound_tanh(W).item() == pytest.approx(0.9)
    assert contraction_bound_tanh(torch.stack([W, 2 * W])).shape == (2,)
    with pytest.raises(ValueError, match=r"\(\.\.\., H, H\)"):
        contraction_bound_tanh(torch.zeros(2, 3, dtype=D))


def test_project_spectral_norm_properties():
    from rnnrepro.miller.contraction import project_spectral_norm
    gen = torch.Generator().manual_seed(0)
    A = torch.randn(5, 6, 4, generator=gen, dtype=torch.float64)
    B = torch.randn(5, 6, 4, generator=gen, dtype=torch.float64)
    PA, PB = project_spectral_norm(A, 0.7), project_spectral_norm(B, 0.7)
    assert torch.linalg.matrix_norm(PA, ord=2).max() <= 0.7 + 1e-12
    assert torch.allclose(project_spectral_norm(PA, 0.7), PA, rtol=1e-12, atol=1e-12)
    assert (torch.linalg.matrix_norm(PA - PB) <= torch.linalg.matrix_norm(A - B) + 1e-12).all()
    small = 0.1 * A / torch.linalg.matrix_norm(A, ord=2, keepdim=True)
    assert torch.allclose(project_spectral_norm(small, 0.7), small, atol=1e-14)
    with pytest.raises(ValueError):
        project_spectral_norm(A, 0.0)
    with pytest.raises(ValueError):
        project_spectral_norm(torch.ones(3), 1.0)


def test_jacobian_top_singular_of_a_linear_map_and_of_tanh_at_the_origin():
    g = torch.Generator().manual_seed(5)
    A = torch.randn(7, 7, generator=g, dtype=torch.float64)
    sigma = torch.linalg.svdvals(A)                                          # LAPACK: the reference
    assert abs(jacobian_top_singular(lambda h: A @ h, torch.zeros(7, dtype=torch.float64)) / sigma[0] - 1) < 1e-10
    at_origin = jacobian_top_singular(lambda h: torch.tanh(A @ h), torch.zeros(7, dtype=torch.float64))
    assert abs(at_origin / sigma[0] - 1) < 1e-10                            # tanh'(0) = 1
    saturated = jacobian_top_singular(lambda h: torch.tanh(A @ h + 2.0), torch.zeros(7, dtype=torch.float64))
    assert saturated < 0.1 * sigma[0]                                         # tanh'(2) = 0.07


def test_projection_inequality_on_the_euclidean_ball_and_the_spectral_clip():
    from rnnrepro.miller.contraction import (feasible_perturbations, project_spectral_norm, projection_inequality,
                                             unclipped_moves)
    g = torch.Generator().manual_seed(3)
    # 1 x n matrices: the spectral ball is the Euclidean ball, whose projection x·min(1, r/‖x‖) is textbook
    x = 3 * torch.randn(6, 1, 20, generator=g, dtype=D)
    ball = x * (1.0 / torch.linalg.vector_norm(x, dim=-1, keepdim=True)).clamp(max=1)
    near = feasible_perturbations(ball, 1.0, count=40, step=1e-2, generator=g)
    assert torch.linalg.matrix_norm(near, ord=2).max() <= 1 + 1e-12                # the candidates are feasible
    assert projection_inequality(x, ball, near) <= 1e-12
    assert projection_inequality(x, 0.9 * ball, feasible_perturbations(0.9 * ball, 1.0, count=40, step=1e-2,
                                                                       generator=g)) > 1e-3  # 10 % short fails
    # the clip: tight (cosine 0) on the unclipped moves, violated by a clip 1 % or 10 % too low
    A = 0.3 * torch.randn(4, 16, 16, generator=g, dtype=D)
    for radius, ok in ((0.75, True), (0.99 * 0.75, False), (0.9 * 0.75, False)):
        P = project_spectral_norm(A, radius)
        Z = torch.cat([feasible_perturbations(P, 0.75, count=20, step=1e-2, generator=g), unclipped_moves(A, 0.75)], 1)
        value = projection_inequality(A, P, Z)
        assert (value <= 1e-12) == ok and (abs(value) < 1e-12 if ok else value > 1e-3), (radius, value)
    # a hand example: A = diag(2, 0.5), Π(A) = diag(1, 0.5) at radius 1; Z = diag(0.9, 0.5) gives cosine -1
    A2, P2 = torch.diag(torch.tensor([2.0, 0.5], dtype=D)), torch.diag(torch.tensor([1.0, 0.5], dtype=D))
    Z2 = torch.diag(torch.tensor([0.9, 0.5], dtype=D)).view(1, 2, 2)
    assert projection_inequality(A2, P2, Z2) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="every candidate equals P"):
        projection_inequality(A2, P2, P2.view(1, 2, 2))
    with pytest.raises(ValueError, match="shape"):
        projection_inequality(A2, P2, Z2[0])
