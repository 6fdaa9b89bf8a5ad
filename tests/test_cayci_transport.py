import math

import pytest
import torch

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import transport as tr


@pytest.fixture(autouse=True)
def _f64():
    torch.set_default_dtype(torch.float64)


def test_qmc_sample_and_errors():
    w, U = tr.qmc_sample(2, 0.5, 8, 0)
    assert w.shape == (32,) and U.shape == (32, 2)
    assert torch.allclose(U[:8], -U[8:16]) and torch.allclose(w.abs(), torch.full((32,), 0.5))
    with pytest.raises(ValueError):
        tr.qmc_sample(2, 0.5, 6, 0)


def test_maps_bounded_and_odd_tanh_vanishes():
    m = tr.cosine_map(2)
    U = torch.randn(100, 2)
    assert (m.vu(U).norm(dim=-1) <= 1 + 1e-12).all()
    X = E.sphere_inputs(3, 4, 2, 0)
    for mp in (tr.w_only_map(), tr.odd_u_map()):
        assert tr.target(X, E.activation("tanh"), mp, alpha=0.5, M=64).abs().max() < 1e-14
        assert tr.target(X, E.activation("logistic"), mp, alpha=0.5, M=64).abs().max() > 1e-4


def test_theta_bar_linearisation_is_mean_tangent():
    act = E.activation("tanh")
    tm = tr.cosine_map(2)
    c, w, U = E.symmetric_init(8, 2, 0.5, [0])
    wb, Ub = tr.theta_bar(c, w, U, tm)
    assert torch.allclose((wb - w) * c * math.sqrt(8), tm.vw(w))
    X = E.sphere_inputs(2, 3, 2, 0)
    lin = torch.einsum("bntm,bm->bnt", E.tangent(X, w, U, wb - w, Ub - U, act), c) / math.sqrt(8)
    assert torch.allclose(lin, E.tangent(X, w, U, tm.vw(w), tm.vu(U), act).mean(-1))
    assert float(tr.lyapunov0(w, U, tm)[0]) == pytest.approx(float(((wb - w) ** 2).sum() + ((Ub - U) ** 2).sum()))
    assert tr.transport_sq_norm(tm, 0.5, 2, 64) > 0
