import numpy as np
import pytest
import torch

from rnnrepro.core import language_model as lm
from rnnrepro.miller import input_gradients as ig

CFG = lm.LMConfig(cell="rnn", vocab=30, emb=8, hidden=6, dropout=0.5)


def _ids(n=800):
    return torch.as_tensor(np.random.default_rng(0).integers(0, 30, n))


def test_window_ends_spread_and_bounds():
    s = ig.window_ends(1000, 10, 100)
    assert s[0] == 100 and s[-1] == 998 and len(s) == 10
    with pytest.raises(ValueError):
        ig.window_ends(50, 10, 100)


def test_lag_profile_matches_a_direct_gradient():
    m = lm.new_model(CFG, 0)
    ids = _ids()
    g = ig.lag_profile(m, ids, n_lags=5, n_windows=1, warmup=3)
    s = int(ig.window_ends(ids.numel(), 1, 8)[0])
    x = ids[s - 8:s + 1]
    with torch.no_grad():
        _, h = m.rnn(m.enc(x[:3, None]))
    e = m.enc(x[3:, None]).detach().requires_grad_(True)
    out, _ = m.rnn(e, h)
    torch.nn.functional.cross_entropy(m.dec(out[-1]), ids[s + 1:s + 2]).backward()
    ref = e.grad[:, 0].norm(dim=1).flip(0).double().numpy()
    assert np.allclose(g, ref, rtol=1e-5)
    assert m.training                      # restored after the eval-mode computation


def test_batching_does_not_change_the_profile():
    m = lm.new_model(CFG, 0)
    a = ig.lag_profile(m, _ids(), n_lags=10, n_windows=12, warmup=5, batch=12)
    b = ig.lag_profile(m, _ids(), n_lags=10, n_windows=12, warmup=5, batch=5)
    assert np.allclose(a, b, rtol=1e-5)


def test_decay_summaries():
    p = 0.5 ** np.arange(51)
    assert abs(ig.decay_ratio(p, 50) - 0.5 ** 49) < 1e-20
    assert abs(ig.mean_log_decay(p) - np.log(0.5)) < 1e-12
    assert ig.mean_log_decay(np.ones(51)) == 0.0


def test_orthogonal_control_does_not_vanish_and_tanh_model_does():
    m = lm.new_model(CFG, 0)
    ids = _ids()
    ctrl = ig.orthogonal_control(m)
    assert torch.allclose(ctrl.W_hh.T @ ctrl.W_hh, torch.eye(6, dtype=ctrl.W_hh.dtype), atol=1e-5)
    g_ctrl = ig.lag_profile(m, ids, n_lags=30, n_windows=20, warmup=5, rnn=ctrl)
    g = ig.lag_profile(m, ids, n_lags=30, n_windows=20, warmup=5)
    assert ig.decay_ratio(g_ctrl, 30) > 0.1 > 1e-3 > ig.decay_ratio(g, 30)
    with pytest.raises(ValueError):
        ig.orthogonal_control(lm.new_model(lm.LMConfig(cell="lstm", vocab=30, emb=8, hidden=6), 0))


def test_scaled_identity_recurrence_decays_exactly_like_lambda_to_the_lag():
    m = lm.new_model(CFG, 0)
    ids = _ids()
    g = ig.lag_profile(m, ids, n_lags=20, n_windows=10, warmup=5, rnn=ig.scaled_identity_recurrence(m, 0.75))
    assert np.allclose(g / g[0], 0.75 ** np.arange(21), rtol=1e-5)      # the closed form λ^i
    g_tanh = ig.lag_profile(m, ids, n_lags=20, n_windows=10, warmup=5,
                            rnn=ig.scaled_identity_recurrence(m, 0.75, tanh=True))
    assert ig.decay_ratio(g_tanh, 20) < 0.9 * 0.75 ** 19                 # tanh' < 1 contracts more
