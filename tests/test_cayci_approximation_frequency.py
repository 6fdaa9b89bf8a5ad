import math

import numpy as np
import torch

from rnnrepro.cayci import approximation_frequency as af
from rnnrepro.cayci import bounds, elman, linearisation, transport


def test_certified_delta_inverts_the_prop3_bound():
    s = bounds.Setting(1.0, 1.0, 0.77, 0.5, 2, 8)
    m, t = 64, 5
    K = bounds.prop3_rhs(t, m, math.exp(-1), s) * math.sqrt(m)          # log(1/δ) = 1
    for delta in (0.01, 0.3, 0.9):
        err = bounds.prop3_rhs(t, m, delta, s)
        assert abs(af.certified_delta(np.array([err]), K, m)[0] - delta) < 1e-12


def test_exceedance_gap_against_known_samples():
    S = 1000
    assert abs(af.exceedance_gap(np.arange(1, S + 1) / S)) < 1e-12                      # exactly uniform quantiles
    assert af.exceedance_gap(np.zeros((10, 3))) == 1.0                                   # every sample certifies δ = 0
    rng = np.random.default_rng(0)
    assert af.exceedance_gap(rng.uniform(size=(20000, 2))) < math.sqrt(math.log(100) / (2 * 20000))  # DKW, p = 1 %
    assert af.exceedance_gap(rng.uniform(size=20000) ** 2) > 0.2                         # P(U² ≤ δ) = √δ: sup 1/4


def test_linear_transport_errors_match_a_direct_computation():
    torch.set_default_dtype(torch.float64)
    act = elman.activation("tanh")
    X = elman.sphere_inputs(2, 4, 2, 1)
    tmap = transport.cosine_map(2)
    err = af.linear_transport_errors(X, act, tmap, alpha=0.5, m=8, seeds=[3, 4], M=2 ** 8)
    Y = transport.target(X, act, tmap, alpha=0.5, M=2 ** 8, seed=0)
    c, w0, U0 = elman.symmetric_init(8, 2, 0.5, [4])
    wb, Ub = transport.theta_bar(c, w0, U0, tmap)
    ref = (linearisation.linear_outputs(X, w0[0], U0[0], c[0], dw=(wb - w0)[0], dU=(Ub - U0)[0], act=act) - Y).abs()
    assert err.shape == (2, 2, 4) and np.allclose(err[1], ref.numpy(), rtol=1e-12, atol=1e-15)
    wide = af.linear_transport_errors(X, act, tmap, alpha=0.5, m=4096, seeds=[0], M=2 ** 8)
    assert wide.max() < err.max()
