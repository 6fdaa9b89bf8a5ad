import math

import pytest
import torch

from rnnrepro.miller import instances, pgd

torch.set_num_threads(1)


def setup():
    g = torch.Generator().manual_seed(0)
    inst = instances.make_instance(2, 4, 3, 0.6, g, setup="calibrated")
    return inst, torch.randn(10, 2, 3, generator=g, dtype=torch.float64)


def test_full_length_truncation_tracks_the_full_model_exactly():
    inst, xs = setup()
    r = pgd.projected_gd(inst, xs, [3, 10], "tanh", alpha=0.05, steps=5, radius=0.6, schedules=("1/t", "constant"))
    assert r["delta"].shape == (6, 2, 2, 2) and r["twin"].shape == (6, 2, 2) and r["residual"].shape == (6, 2, 2)
    assert r["delta"][:, :, :, 1].abs().max() == 0          # k = T is the full model
    assert r["delta"][-1, :, :, 0].min() > 0
    assert torch.linalg.matrix_norm(r["W"], ord=2).max() <= 0.6 + 1e-12
    with pytest.raises(ValueError):
        pgd.projected_gd(inst, xs, [3], "linear", alpha=0.1, steps=2, radius=0.6, schedules=("1/t^2",))


def test_heldout_gap_and_bound():
    inst, xs = setup()
    assert pgd.heldout_prediction_gap(inst, inst.W, inst.W, xs, 10, "linear").abs().max() < 1e-14
    assert pgd.heldout_prediction_gap(inst, inst.W, inst.W, xs, 2, "linear").max() > 0
    loose, tight = pgd.prop2_bound(0.01, 100.0, 10.0, 5, 0.5, 200)
    assert math.isclose(loose, math.log10(0.01 * 10 * 5 * 0.5 ** 5 * 200 ** 2))
    assert tight < loose


def test_thm1_display_ratio_is_gamma():
    # independent reference: the two bounds evaluated in floating point at the same constants
    alpha, beta, gamma, k, lam, N = 0.01, 300.0, 457.0, 35, 0.75, 50
    composed = alpha * gamma * k * lam ** k * N ** (alpha * beta + 1) / (1 - lam)
    printed = k * lam ** k * alpha * N ** (alpha * beta + 1) / (1 - lam)
    got = pgd.thm1_display_ratio(alpha=alpha, beta=beta, gamma=gamma, k=k, lam=lam, N=N)
    assert abs(got - composed / printed) < 1e-9 * got
    assert pgd.thm1_display_ratio(alpha=alpha, beta=beta, gamma=1.0, k=k, lam=lam, N=N) == 1.0


def test_thm1_proof_bound_formula_and_that_it_bounds_the_gap():
    inst, xs = setup()
    d = torch.tensor([0.0, 0.3], dtype=torch.float64)
    got = pgd.thm1_proof_bound(inst, d, xs, 3, 0.6)
    for p in range(2):                                      # the formula, entry by entry
        lf, lx = float(inst.C[p].norm()), float(torch.linalg.svdvals(inst.U[p])[0])
        bx = max(float(xs[t, p].norm()) for t in range(xs.shape[0]))
        want = lf * (lx * bx / 0.4) * float(d[p]) / 0.4 + 0.6 ** 3 * lf * lx * bx / 0.4
        assert math.isclose(float(got[p]), want, rel_tol=1e-12)
    # a projected perturbation of W: the held-out gap stays below the bound for every k
    g = torch.Generator().manual_seed(1)
    W2 = pgd.project_spectral_norm(inst.W + 0.05 * torch.randn(inst.W.shape, generator=g, dtype=torch.float64), 0.6)
    dist = torch.linalg.matrix_norm(inst.W - W2)
    for k in (1, 3, 6):
        gap = pgd.heldout_prediction_gap(inst, inst.W, W2, xs, k, "linear")
        assert (gap <= pgd.thm1_proof_bound(inst, dist, xs, k, 0.6)).all()
    with pytest.raises(ValueError):
        pgd.thm1_proof_bound(inst, d, xs, 3, 1.0)
