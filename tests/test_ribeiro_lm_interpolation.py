import numpy as np
import pytest
import torch

from rnnrepro.core import language_model as lm
from rnnrepro.ribeiro import lm_interpolation as li
from rnnrepro.ribeiro.temporal_order import flat, set_flat
from rnnrepro.ribeiro.train_artifacts import LM_CONFIG, model_config

CFG = model_config(dict(LM_CONFIG, vocab=50, hidden=8, bptt=5, batch=4, epochs=2, lr=1e-2))


def _ids(n=400, seed=0):
    """A learnable stream: a repeating 7-token pattern shifted by seed."""
    return torch.as_tensor((np.arange(n) + seed) % 7 * 3)


def test_tied_weights_and_flat_roundtrip():
    m = lm.new_model(CFG, 0)
    assert m.dec.weight is m.enc.weight
    th = flat(m)
    assert th.numel() == sum(q.numel() for q in m.parameters())
    set_flat(m, th * 2)
    assert torch.equal(flat(m), th * 2)


def test_functional_views_are_the_model_parameters():
    m = lm.new_model(CFG, 0)
    th = torch.stack([flat(m), 2 * flat(m)])
    f = li.functional(m, th)
    assert torch.equal(f["emb"][1], 2 * m.enc.weight) and torch.equal(f["W_hh"][0], m.rnn.weight_hh_l0)
    assert torch.equal(f["b_ih"][0], m.rnn.bias_ih_l0) and torch.equal(f["dec_b"][0], m.dec.bias)
    with pytest.raises(ValueError):
        li.functional(lm.new_model(lm.LMConfig(cell="rnn", vocab=50, emb=8, hidden=8, tied=True), 0), th)


def test_train_decreases_and_is_deterministic():
    h1 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, record_norm=False)
    h2 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, record_norm=False)
    assert h1 == h2
    assert h1["val_loss"][-1] < h1["val_loss"][0]
    h3 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, record_norm=False, max_updates=5)
    assert h3["train_loss"] == h1["train_loss"][:5]


def test_line_cost_is_the_loss_at_each_point_and_restores_the_weights():
    m = lm.new_model(CFG, 0)
    th = flat(m)
    V = li.line_cost(m, torch.stack([th, 0.5 * th]), _ids(100), bptt=CFG.bptt)
    other = lm.new_model(CFG, 0)
    set_flat(other, 0.5 * th)
    assert V.shape == (2,) and V[0] == lm.evaluate(m, _ids(100), CFG.bptt)
    assert V[1] == lm.evaluate(other, _ids(100), CFG.bptt)
    assert torch.equal(flat(m), th)


def test_bifurcation_shapes_and_a_contraction():
    m = lm.new_model(CFG, 0)
    th = flat(m)
    L, spread, cmax = li.bifurcation(m, torch.stack([th, 0.5 * th]).double(), [1, 2], n_ic=3, n_steps=200, window=50)
    assert L.shape == (2, 2, 3, 50) and spread.shape == (2, 2) and cmax.shape == (2, 2, 2)
    assert (cmax[..., 1] >= cmax[..., 0]).all()
    assert spread.max() < 1e-6      # small random weights: a contraction


def test_bifurcation_logits_match_torch_lstm_run_on_a_constant_token():
    """The last window's logits against nn.LSTM (float64) fed the token's embedding for every step from the
    same initial states."""
    m = lm.new_model(CFG, 1)
    with torch.no_grad():
        m.rnn.weight_hh_l0.mul_(40)                            # strong recurrence and input ...
        m.enc.weight.mul_(10)
        m.dec.bias.normal_()
    th = flat(m)[None].double()
    tok, n_ic, n_steps, window = 3, 2, 15, 10     # ... and the transient kept
    L, _, _ = li.bifurcation(m, th, [tok], n_ic=n_ic, n_steps=n_steps, window=window, seed=5)
    g = torch.Generator().manual_seed(5)
    h0 = torch.randn(1, n_ic, 8, generator=g, dtype=torch.float64)
    c0 = torch.randn(1, n_ic, 8, generator=g, dtype=torch.float64)
    rnn = torch.nn.LSTM(8, 8).double()
    rnn.load_state_dict({k.removeprefix("rnn."): v.double() for k, v in m.state_dict().items() if k.startswith("rnn.")})
    x = m.enc.weight[tok].double().expand(n_steps, n_ic, 8)
    with torch.no_grad():
        hs, _ = rnn(x, (h0, c0))
        ref = hs[-window:] @ m.enc.weight[tok].double() + m.dec.bias[tok].double()     # (window, n_ic)
    assert np.abs(L[0, 0] - ref.T.numpy()).max() < 1e-12
    assert np.ptp(L[0, 0]) > 0.1                               # the logits move: the check is not vacuous


def test_set_flat_copies():
    m = lm.new_model(CFG, 0)
    th = flat(m).clone()
    keep = th.clone()
    set_flat(m, th)
    lm.train(m, _ids(), _ids(200, 1), CFG, max_updates=2, record_norm=False)   # training writes into the parameters ...
    assert torch.equal(th, keep)              # ... never into the vector they came from
