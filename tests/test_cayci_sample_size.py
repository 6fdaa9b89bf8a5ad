import math

import numpy as np
import pytest
import torch

from rnnrepro.cayci import pgd, sample_size
from rnnrepro.cayci import elman as E


def test_random_labels_keep_each_sequence_norm():
    torch.set_default_dtype(torch.float64)
    Y = torch.arange(1.0, 13.0).reshape(3, 4)
    R = sample_size.random_labels(Y, 3)
    assert R.shape == Y.shape
    assert torch.allclose(R.norm(dim=1), Y.norm(dim=1), rtol=1e-14)
    assert not torch.allclose(R / R.norm(dim=1, keepdim=True), Y / Y.norm(dim=1, keepdim=True))
    assert torch.equal(R, sample_size.random_labels(Y, 3))
    with pytest.raises(ValueError, match=r"\(n, T\)"):
        sample_size.random_labels(Y[0], 3)


def test_each_entry_is_one_projected_gd_run_on_the_first_n_sequences():
    """Entry (kind, n, seed) = min_s R̂(s)/R̂(0) of one pgd.train run on X[:n] (η = 1/(T√τ), ρ = 1)."""
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(6, 3, 2, 4)
    Y = 0.3 * X[..., 0] - 0.2 * X[..., 1]
    out = sample_size.sample_size_sweep(X, Y, [2, 5], act=act, m=8, alpha=0.5, seeds=[7, 9], tau=6, label_seed=1)
    assert out.shape == (2, 2, 2) and (out <= 1 + 1e-12).all()
    c, w, U = E.symmetric_init(8, 2, 0.5, [9])
    R = sample_size.random_labels(Y, 1)
    for kind, target in ((0, Y), (1, R)):
        r = pgd.train(X[:5], target[:5][None], c, w, U, act=act, eta=1 / (3 * math.sqrt(6)), taus=6, rho_w=1.0,
                      rho_u=1.0)
        assert out[kind, 1, 1] == pytest.approx(float(np.nanmin(r.loss[0]) / r.loss[0, 0]), rel=1e-12)


def test_one_step_reaches_nothing_and_bad_input_is_refused():
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(4, 3, 2, 0)
    Y = X[..., 0]
    out = sample_size.sample_size_sweep(X, Y, [1, 4], act=act, m=4, alpha=0.5, seeds=[0], tau=1, label_seed=0)
    assert np.allclose(out, 1.0)
    with pytest.raises(ValueError, match="pool size"):
        sample_size.sample_size_sweep(X, Y, [5], act=act, m=4, alpha=0.5, seeds=[0], tau=3, label_seed=0)
    with pytest.raises(ValueError, match=r"\(N, T\)"):
        sample_size.sample_size_sweep(X, Y[:2], [1], act=act, m=4, alpha=0.5, seeds=[0], tau=3, label_seed=0)


def test_union_growth_against_the_bound_written_in_base_two():
    # √(log(2nT/δ)/log(2 n0 T/δ)) with n = 128, n0 = 2, T = 8, δ = 0.1: log2(20480) / log2(320)
    want = math.sqrt(math.log2(20480) / math.log2(320))
    assert float(sample_size.union_growth(128, n0=2, T=8)) == pytest.approx(want, rel=1e-12)
    assert sample_size.union_growth([2, 8, 32, 128], n0=2, T=8)[0] == pytest.approx(1.0)
    assert float(sample_size.union_growth(128, n0=2, T=8, delta=0.01)) == pytest.approx(
        math.sqrt(math.log2(204800) / math.log2(3200)), rel=1e-12)
    with pytest.raises(ValueError):
        sample_size.union_growth(128, n0=2, T=8, delta=1.5)
