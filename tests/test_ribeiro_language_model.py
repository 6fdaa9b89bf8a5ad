import numpy as np
import torch

from rnnrepro.ribeiro import language_model as lm

CFG = dict(lm.LM_CONFIG, vocab=50, hidden=8, bptt=5, batch=4, epochs=2, lr=1e-2)


def _ids(n=400, seed=0):
    """A learnable stream: a repeating 7-token pattern shifted by seed."""
    return torch.as_tensor((np.arange(n) + seed) % 7 * 3)


def test_tied_weights_and_flat_roundtrip():
    m = lm.new_model(CFG, 0)
    assert m.dec.weight is m.emb.weight
    th = lm.flat(m)
    assert th.numel() == sum(q.numel() for q in m.parameters())
    lm.set_flat(m, th * 2)
    assert torch.equal(lm.flat(m), th * 2)


def test_train_decreases_and_is_deterministic():
    h1 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG)
    h2 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG)
    assert h1 == h2
    assert h1["val_loss"][-1] < h1["val_loss"][0]
    h3 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, max_updates=5)
    assert h3["train_loss"] == h1["train_loss"][:5]


def test_line_cost_and_bifurcation_shapes():
    m = lm.new_model(CFG, 0)
    th = lm.flat(m)
    V = lm.line_cost(m, torch.stack([th, 0.5 * th]), _ids(100), CFG)
    assert V.shape == (2,) and abs(V[0] - lm.evaluate(m, _ids(100), CFG)) < 1e-12
    L, spread, cmax = lm.bifurcation(m, torch.stack([th, 0.5 * th]).double(), [1, 2], n_ic=3, n_steps=200, window=50)
    assert L.shape == (2, 2, 3, 50) and spread.shape == (2, 2) and cmax.shape == (2, 2, 2)
    assert (cmax[..., 1] >= cmax[..., 0]).all()
    assert spread.max() < 1e-6      # small random weights: a contraction


def test_set_flat_copies():
    m = lm.new_model(CFG, 0)
    th = lm.flat(m).clone()
    keep = th.clone()
    lm.set_flat(m, th)
    lm.train(m, _ids(), _ids(200, 1), CFG, max_updates=2)     # training writes into the parameters ...
    assert torch.equal(th, keep)                               # ... never into the vector they came from
