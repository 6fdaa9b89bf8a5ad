import numpy as np
import pytest
import torch

from rnnrepro.miller import language_model as lm

CFG = lm.LMConfig(cell="rnn", vocab=30, emb=8, hidden=6, dropout=0.0, lr=1.0, bptt=5, batch=4, epochs=2)


def _ids(n=600, seed=0):
    """A learnable stream: a repeating 7-token pattern shifted by seed."""
    return torch.as_tensor((np.arange(n) + seed) % 7 * 3)


def test_config_rejects_bad_values():
    with pytest.raises(ValueError, match="cell"):
        lm.LMConfig(cell="gru")
    with pytest.raises(ValueError, match="dropout"):
        lm.LMConfig(dropout=1.0)
    with pytest.raises(ValueError, match="hidden"):
        lm.LMConfig(hidden=0)


@pytest.mark.parametrize("cell,rows", [("rnn", 6), ("lstm", 24)])
def test_model_shapes_and_w_hh(cell, rows):
    m = lm.new_model(lm.LMConfig(**{**CFG.to_dict(), "cell": cell}), 0)
    logits, _ = m(_ids(20).view(5, 4))
    assert logits.shape == (5, 4, 30)
    assert m.w_hh.shape == (rows, 6)
    assert torch.equal(m.dec.bias, torch.zeros(30)) and m.enc.weight.abs().max() <= 0.1


def test_projection_hook_bounds_the_norm_and_radius_zero_removes_recurrence():
    m = lm.new_model(CFG, 0)
    with torch.no_grad():
        m.w_hh.mul_(5)
    lm.spectral_projection(0.7)(m)
    assert lm.spectral_norm(m.w_hh) <= 0.7 + 1e-6
    lm.spectral_projection(0.0)(m)
    assert torch.count_nonzero(m.w_hh) == 0
    with pytest.raises(ValueError):
        lm.spectral_projection(-1.0)


def test_train_learns_is_deterministic_and_records_norms():
    h1 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, hook=lm.spectral_projection(1.0))
    h2 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, hook=lm.spectral_projection(1.0))
    assert h1 == h2
    assert h1["val_loss"][-1] < h1["val_loss"][0]
    assert len(h1["norm"]) == len(h1["train_loss"]) and max(h1["norm"]) <= 1 + 1e-6
    h3 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, hook=lm.spectral_projection(1.0), max_updates=4)
    assert h3["train_loss"] == h1["train_loss"][:4]


def test_train_keeps_best_validation_weights_and_anneals():
    cfg = lm.LMConfig(**{**CFG.to_dict(), "lr": 50.0, "epochs": 3})
    m = lm.new_model(cfg, 0)
    h = lm.train(m, _ids(), _ids(200, 1), cfg)
    best = int(np.argmin(h["val_loss"]))
    assert h["best_epoch"] == best
    assert abs(lm.evaluate(m, _ids(200, 1), cfg.bptt) - h["val_loss"][best]) < 1e-5
    for e in range(1, len(h["lr"])):       # the step is divided whenever validation does not improve
        improved = h["val_loss"][e] < min(h["val_loss"][:e])
        assert h["lr"][e] == pytest.approx(h["lr"][e - 1] / (1 if improved else cfg.anneal))


def test_on_epoch_called_at_init_and_each_epoch():
    seen = []
    lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, on_epoch=lambda m, e: seen.append(e))
    assert seen == [0, 1, 2]


def test_evaluate_matches_manual_cross_entropy_and_perplexity():
    m = lm.new_model(CFG, 0)
    ids = _ids(101)
    loss = lm.evaluate(m, ids, bptt=1000, batch=1)
    with torch.no_grad():
        logits, _ = m(ids[:-1, None])
        ref = torch.nn.functional.cross_entropy(logits[:, 0], ids[1:]).item()
    assert abs(loss - ref) < 1e-5
    assert lm.perplexity(0.0) == 1.0 and abs(lm.perplexity(np.log(50.0)) - 50.0) < 1e-9


def test_spectral_norm_is_the_largest_singular_value():
    W = torch.diag(torch.tensor([3.0, -4.0, 1.0]))
    assert abs(lm.spectral_norm(W) - 4.0) < 1e-12


def test_new_model_is_float32_and_independent_of_the_default_dtype():
    prev = torch.get_default_dtype()
    try:
        torch.set_default_dtype(torch.float64)
        a = lm.new_model(CFG, 3)
        torch.set_default_dtype(torch.float32)
        b = lm.new_model(CFG, 3)
    finally:
        torch.set_default_dtype(prev)
    assert all(p.dtype == torch.float32 for p in a.parameters())
    assert all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters()))


def test_synthetic_corpus_splits():
    c = lm.synthetic_corpus(700)
    assert (c.train.numel(), c.valid.numel(), c.test.numel()) == (500, 100, 100)
    assert len(c.vocab) == 19          # 17 word types + <eos>, <unk>


def _stop_after(n):
    """A stop() that says stop on its n-th call (after the n-th update)."""
    calls = []
    return lambda: calls.append(1) or len(calls) == n


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_train_stopped_and_resumed_equals_one_uninterrupted_run(tmp_path, cell):
    cfg = lm.LMConfig(**{**CFG.to_dict(), "cell": cell, "dropout": 0.3, "epochs": 3})
    hook = lm.spectral_projection(1.0)
    m0 = lm.new_model(cfg, 0)
    h0 = lm.train(m0, _ids(), _ids(200, 1), cfg, hook=hook)
    ck = tmp_path / "run.pt"
    torch.manual_seed(123)                                   # the resumed run restores the generator itself
    m1 = lm.new_model(cfg, 0)
    with pytest.raises(lm.TrainingInterrupted):              # mid-epoch 2 (29 updates per epoch)
        lm.train(m1, _ids(), _ids(200, 1), cfg, hook=hook, checkpoint=ck, stop=_stop_after(40))
    torch.manual_seed(999)
    m2 = lm.new_model(cfg, 5)                                # other weights: all come from the checkpoint
    h2 = lm.train(m2, _ids(), _ids(200, 1), cfg, hook=hook, checkpoint=ck, checkpoint_every=7)
    assert h2 == h0
    assert all(torch.equal(a, b) for a, b in zip(m0.state_dict().values(), m2.state_dict().values()))
    m3 = lm.new_model(cfg, 7)                                # a finished run returns at once
    assert lm.train(m3, _ids(), _ids(200, 1), cfg, checkpoint=ck) == h2
    assert all(torch.equal(a, b) for a, b in zip(m0.state_dict().values(), m3.state_dict().values()))
    with pytest.raises(ValueError, match="another configuration"):
        lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, checkpoint=ck)


def test_on_epoch_results_are_kept_and_checkpoints_are_atomic(tmp_path):
    h = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, on_epoch=lambda m, ep: torch.tensor([ep]))
    assert [int(t) for t in h["on_epoch"]] == [0, 1, 2]
    lm.save_checkpoint(tmp_path / "a.pt", {"x": 1})
    assert lm.load_checkpoint(tmp_path / "a.pt") == {"x": 1} and lm.load_checkpoint(tmp_path / "b.pt") is None
    assert [p.name for p in tmp_path.iterdir()] == ["a.pt"]          # no temporary file left behind


def test_a_run_killed_after_an_epoch_resumes_from_the_epoch_checkpoint(tmp_path):
    cfg = lm.LMConfig(**{**CFG.to_dict(), "dropout": 0.3, "epochs": 3})
    m0 = lm.new_model(cfg, 0)
    h0 = lm.train(m0, _ids(), _ids(200, 1), cfg)
    calls = []

    def kill():                                  # a crash 3 updates into epoch 2 (30 updates per epoch)
        calls.append(1)
        if len(calls) == 33:
            raise KeyboardInterrupt
        return False
    ck = tmp_path / "run.pt"
    with pytest.raises(KeyboardInterrupt):
        lm.train(lm.new_model(cfg, 0), _ids(), _ids(200, 1), cfg, checkpoint=ck, stop=kill)
    saved = lm.load_checkpoint(ck)
    assert saved["epoch"] == 2 and saved["window"] == 0 and saved["best_state"] is None   # epoch 1 improved
    m1 = lm.new_model(cfg, 3)
    assert lm.train(m1, _ids(), _ids(200, 1), cfg, checkpoint=ck) == h0
    assert all(torch.equal(a, b) for a, b in zip(m0.state_dict().values(), m1.state_dict().values()))
