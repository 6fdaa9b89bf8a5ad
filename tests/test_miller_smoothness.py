import pytest
import torch

from rnnrepro.miller import instances, smoothness

torch.set_num_threads(1)


def test_hessian_norm_of_a_scalar_lds_matches_the_closed_form():
    # n = d = 1, T = 1: h = u x, no dependence on W -> Hessian 0; T = 2: h = w u x1 + u x2,
    # p = ½(1 - c h)^2, d²p/dw² = (c u x1)^2
    W = torch.full((1, 1, 1), 0.3, dtype=torch.float64)
    U = torch.full((1, 1, 1), 2.0, dtype=torch.float64)
    C = torch.full((1, 1), 0.5, dtype=torch.float64)
    xs = torch.tensor([[[3.0]], [[1.0]]], dtype=torch.float64)
    beta = smoothness.hessian_norms("linear", W, U, C, xs=xs, lengths=[1, 2], iters=3)
    assert beta[0, 0].abs() < 1e-12
    assert torch.allclose(beta[0, 1], torch.tensor(9.0, dtype=torch.float64))
    with pytest.raises(ValueError):
        smoothness.hessian_norms("linear", W, U, C, xs=xs, lengths=[3])


def test_loss_hessian_norm_positive_and_trajectory_ratio():
    g = torch.Generator().manual_seed(0)
    inst = instances.make_instance(3, 4, 4, 0.7, g, setup="calibrated")
    xs = torch.randn(20, 3, 4, generator=g, dtype=torch.float64)
    assert (smoothness.loss_hessian_norm("tanh", inst, xs, iters=5) > 0).all()
    ratio, bound = smoothness.trajectory_gap_ratio("linear", inst.W, 0.9 * inst.W, inst.U, xs, 0.7)
    assert ratio.shape == (3,) and (ratio <= 1).all() and (bound > 0).all()
    ratio_same, _ = smoothness.trajectory_gap_ratio("tanh", inst.W, inst.W + 1e-3, inst.U, xs, 0.7)
    assert (ratio_same <= 1).all()
