import numpy as np
import torch

from rnnrepro.ribeiro import bifurcation as bif


def test_classify():
    t = np.arange(200)
    assert bif.classify(np.ones((3, 200)))[0] == "fixed"
    per = np.tile(np.sin(2 * np.pi * t / 7)[None], (3, 1))
    lab, sp, period = bif.classify(per)
    assert lab == "periodic" and period == 7 and sp > 0.5
    rng = np.random.default_rng(0)
    assert bif.classify(rng.standard_normal((3, 200)))[0] == "aperiodic"
    assert bif.smallest_period(np.array([1.0, 2.0] * 50)) == 2
    two = np.array([np.full(200, 1.0), np.full(200, -1.0)])
    assert bif.classify(two)[0] == "multistable"


def test_steady_states_contractive_lstm_is_fixed():
    P, H, I = 2, 3, 2
    g = torch.Generator().manual_seed(0)
    W_ih = 0.1 * torch.randn(P, 4 * H, I, generator=g, dtype=torch.float64)
    W_hh = 0.1 * torch.randn(P, 4 * H, H, generator=g, dtype=torch.float64)
    b = torch.zeros(P, 4 * H, dtype=torch.float64)
    out, cmax = bif.steady_states(W_ih, W_hh, b, b, inputs=torch.eye(2, dtype=torch.float64),
                                  readout=lambda h: h[..., :1], n_ic=4, n_steps=300, burn=200)
    assert out.shape == (P, 2, 4, 100, 1) and cmax.shape == (P, 2, 4)
    labels, spreads = bif.classify_all(out)
    assert (labels == "fixed").all() and spreads.max() < 1e-8


def test_aperiodic_rows_tells_cycles_from_chaos():
    t = np.arange(100)
    cycle4 = np.tile([0.1, 0.5, -0.2, 0.3], 25)                      # period 4
    fixed = np.full(100, 0.7)
    logistic = np.empty(100)
    logistic[0] = 0.3
    for k in range(99):                                               # the logistic map at r = 4: chaotic
        logistic[k + 1] = 4 * logistic[k] * (1 - logistic[k])
    slow = np.sin(2 * np.pi * t / 40)                                 # period 40 > max_period
    assert list(bif.aperiodic_rows(np.stack([cycle4, fixed, logistic, slow]), max_period=25)) == [
        False, False, True, True]
    assert not bif.aperiodic_rows(slow[None], max_period=40)[0]
