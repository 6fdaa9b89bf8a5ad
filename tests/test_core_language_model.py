import numpy as np
import pytest
import torch

from rnnrepro.core import language_model as lm

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


def _shrink(model):
    """A hook: W_hh scaled to spectral norm 1 when it is larger (an independent stand-in for a projection)."""
    with torch.no_grad():
        n = torch.linalg.matrix_norm(model.w_hh.double(), ord=2).item()
        if n > 1:
            model.w_hh.mul_(1 / n)


def test_train_learns_is_deterministic_and_records_norms():
    h1 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, hook=_shrink)
    h2 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, hook=_shrink)
    assert h1 == h2
    assert h1["val_loss"][-1] < h1["val_loss"][0]
    assert len(h1["norm"]) == len(h1["train_loss"]) and max(h1["norm"]) <= 1 + 1e-6
    h3 = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, hook=_shrink, max_updates=4)
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
    hook = _shrink
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


# --- the options the two chapters need (tied weights, Adam, last weights), against independent references ---

TIED = lm.LMConfig(cell="lstm", vocab=30, emb=6, hidden=6, dropout=0.0, lr=1e-2, bptt=5, batch=4, epochs=2,
                   anneal=1.0, tied=True, optimizer="adam", keep_best=False)


def test_config_rejects_bad_options():
    with pytest.raises(ValueError, match="tied"):
        lm.LMConfig(emb=8, hidden=6, tied=True)
    with pytest.raises(ValueError, match="optimizer"):
        lm.LMConfig(optimizer="rmsprop")


def _reference_logits(m: lm.WordLM, x: torch.Tensor) -> torch.Tensor:
    """The forward pass written out in float64, one step at a time from a zero state: logits (L, B, V)."""
    sd = {k: v.double() for k, v in m.state_dict().items()}
    E, Wi, Wh, bi, bh = (sd[k] for k in ("enc.weight", "rnn.weight_ih_l0", "rnn.weight_hh_l0", "rnn.bias_ih_l0",
                                          "rnn.bias_hh_l0"))
    Wd = sd["enc.weight"] if "dec.weight" not in sd else sd["dec.weight"]
    H = Wh.shape[1]
    h = c = torch.zeros(x.shape[1], H, dtype=torch.float64)
    out = []
    for t in range(x.shape[0]):
        z = E[x[t]] @ Wi.T + bi + h @ Wh.T + bh
        if m.cell == "rnn":
            h = torch.tanh(z)
        else:                                  # gates in PyTorch's order: input, forget, cell, output
            i, f, g, o = z[:, :H].sigmoid(), z[:, H:2 * H].sigmoid(), z[:, 2 * H:3 * H].tanh(), z[:, 3 * H:].sigmoid()
            c = f * c + i * g
            h = o * torch.tanh(c)
        out.append(h @ Wd.T + sd["dec.bias"])
    return torch.stack(out)


@pytest.mark.parametrize("cell,tied", [("rnn", False), ("lstm", False), ("lstm", True), ("rnn", True)])
def test_forward_matches_a_hand_written_forward_pass(cell, tied):
    cfg = lm.LMConfig(**{**TIED.to_dict(), "cell": cell, "tied": tied, "dropout": 0.5})
    m = lm.new_model(cfg, 1)
    with torch.no_grad():
        m.dec.bias.normal_()                  # a non-zero bias, so the reference's bias term is exercised
    m.eval()
    x = _ids(24).view(6, 4)
    logits, _ = m(x)
    assert (logits.double() - _reference_logits(m, x)).abs().max() < 1e-5


def test_tied_model_shares_one_matrix_in_the_documented_parameter_order():
    m = lm.new_model(TIED, 0)
    assert m.dec.weight is m.enc.weight
    shapes = [tuple(q.shape) for q in m.parameters()]
    assert shapes == [(30, 6), (24, 6), (24, 6), (24,), (24,), (30,)]
    assert m.enc.weight.abs().max() <= 0.1 and torch.count_nonzero(m.dec.bias) == 0
    untied = lm.new_model(lm.LMConfig(**{**TIED.to_dict(), "tied": False}), 0)
    assert [tuple(q.shape) for q in untied.parameters()][5] == (30, 6)


def test_adam_training_matches_a_hand_written_adam_with_clipping():
    cfg = lm.LMConfig(**{**TIED.to_dict(), "clip": 0.05})
    m = lm.new_model(cfg, 2)
    ref = lm.new_model(cfg, 2)
    n_up = 7
    h = lm.train(m, _ids(), _ids(200, 1), cfg, max_updates=n_up, record_norm=False)
    params = list(ref.parameters())
    mom = [torch.zeros_like(q, dtype=torch.float64) for q in params]
    sq = [torch.zeros_like(q, dtype=torch.float64) for q in params]
    data = _ids()[: 600 // cfg.batch * cfg.batch].view(cfg.batch, -1).T   # column j = ids[j·n : (j+1)·n]
    state, losses = None, []
    for t in range(1, n_up + 1):
        x, y = data[(t - 1) * cfg.bptt:t * cfg.bptt], data[(t - 1) * cfg.bptt + 1:t * cfg.bptt + 1]
        state = None if state is None else tuple(s.detach() for s in state)
        logits, state = ref(x, state)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, cfg.vocab), y.reshape(-1))
        ref.zero_grad()
        loss.backward()
        grads = [q.grad.double() for q in params]
        norm = torch.sqrt(sum((g ** 2).sum() for g in grads))
        scale = min(1.0, cfg.clip / (float(norm) + 1e-6))
        with torch.no_grad():
            for q, g, a, b in zip(params, grads, mom, sq):
                g = g * scale
                a.mul_(0.9).add_(0.1 * g)
                b.mul_(0.999).add_(0.001 * g * g)
                step = cfg.lr * (a / (1 - 0.9 ** t)) / ((b / (1 - 0.999 ** t)).sqrt() + 1e-8)
                q.sub_(step.to(q.dtype))
        losses.append(float(loss.detach()))
    assert np.allclose(h["train_loss"], losses, rtol=1e-5, atol=0)
    for q, r in zip(m.parameters(), params):
        assert (q - r).abs().max() <= 1e-5 * r.abs().max()


def test_last_weights_kept_and_constant_step_without_annealing():
    cfg = lm.LMConfig(**{**TIED.to_dict(), "epochs": 3})
    noise = torch.randint(0, 30, (200,), generator=torch.Generator().manual_seed(0))   # validation gets worse
    best = lm.LMConfig(**{**cfg.to_dict(), "keep_best": True})
    hb = lm.train(mb := lm.new_model(best, 0), _ids(), noise, best, record_norm=False)
    assert hb["best_epoch"] == 0 and torch.equal(mb.enc.weight, lm.new_model(best, 0).enc.weight)
    m = lm.new_model(cfg, 0)
    h = lm.train(m, _ids(), noise, cfg, record_norm=False)
    assert h["lr"] == [cfg.lr] * 4 and h["best_epoch"] == 0
    last = lm.new_model(cfg, 0)                              # the same run stopped right after its last update
    lm.train(last, _ids(), noise, cfg, record_norm=False, max_updates=len(h["train_loss"]))
    assert all(torch.equal(a, b) for a, b in zip(m.state_dict().values(), last.state_dict().values()))


def test_adam_stopped_and_resumed_equals_one_uninterrupted_run(tmp_path):
    cfg = lm.LMConfig(**{**TIED.to_dict(), "dropout": 0.3, "epochs": 3})
    m0 = lm.new_model(cfg, 0)
    h0 = lm.train(m0, _ids(), _ids(200, 1), cfg, record_norm=False)
    ck = tmp_path / "run.pt"
    with pytest.raises(lm.TrainingInterrupted):
        lm.train(lm.new_model(cfg, 0), _ids(), _ids(200, 1), cfg, record_norm=False, checkpoint=ck,
                 stop=_stop_after(40))
    m1 = lm.new_model(cfg, 4)
    assert lm.train(m1, _ids(), _ids(200, 1), cfg, record_norm=False, checkpoint=ck) == h0
    assert all(torch.equal(a, b) for a, b in zip(m0.state_dict().values(), m1.state_dict().values()))


def test_a_checkpoint_written_before_the_merged_options_still_resumes(tmp_path):
    ck = tmp_path / "old.pt"
    m0 = lm.new_model(CFG, 0)
    h0 = lm.train(m0, _ids(), _ids(200, 1), CFG, checkpoint=ck)
    saved = lm.load_checkpoint(ck)
    saved["cfg"] = {k: v for k, v in saved["cfg"].items() if k not in ("tied", "optimizer", "keep_best")}
    lm.save_checkpoint(ck, saved)
    assert lm.train(lm.new_model(CFG, 1), _ids(), _ids(200, 1), CFG, checkpoint=ck) == h0


def test_evaluate_carries_the_state_across_windows_and_columns():
    m = lm.new_model(TIED, 0)
    ids = _ids(203)
    loss = lm.evaluate(m, ids, bptt=7, batch=3)
    m.eval()
    with torch.no_grad():                    # each column in one pass (no windows), all columns pooled
        cols = ids[:201].view(3, 67)
        logits, _ = m(cols.T[:-1])
        ref = torch.nn.functional.cross_entropy(logits.reshape(-1, 30), cols.T[1:].reshape(-1)).item()
    assert abs(loss - ref) < 1e-5 and m.training is False


def test_corpus_splits_and_valid_tokens(monkeypatch):
    from rnnrepro.data import wikitext
    text = {"test": ["a", "b", "a", "c", "a", "b", "<eos>"] * 3, "valid": [f"v{i}" for i in range(10)] + ["a"] * 10,
            "train": ["b"] * 5}
    monkeypatch.setattr(wikitext, "tokens", lambda split: list(text[split]))
    c = lm.corpus(3)                                   # <eos>, <unk> and the most frequent training word
    assert c.vocab.itos == ["<eos>", "<unk>", "a"]
    assert c.train.numel() == 21 and c.valid.numel() == 10 and c.test.numel() == 10
    assert c.test.tolist() == c.vocab.encode(["a"] * 10).tolist()
    c4 = lm.corpus(None, valid_tokens=4)
    assert c4.valid.tolist() == c4.vocab.encode(text["valid"][:4]).tolist() and c4.test.numel() == 10
    cf = lm.corpus(None, train_split=True, valid_tokens=15)
    assert cf.train.numel() == 5 and cf.valid.numel() == 15 and cf.test.numel() == 21


def test_spectral_norm_against_numpy_singular_values_of_a_full_matrix():
    W = torch.randn(7, 5, generator=torch.Generator().manual_seed(0), dtype=torch.float32)
    assert lm.spectral_norm(W) == pytest.approx(np.linalg.svd(W.double().numpy(), compute_uv=False)[0], rel=1e-12)


def test_perturb_last_bit_moves_every_entry_exactly_one_float_up():
    W = torch.tensor([0.0, 1.0, -1.0, 3.5e-3, -7.25e4, 1e-40], dtype=torch.float32)
    before = W.numpy().copy()
    assert lm.perturb_last_bit(W) is W
    assert np.array_equal(W.numpy(), np.nextafter(before, np.float32(np.inf)))     # numpy as the reference
    assert (W.numpy() > before).all()


def test_sgd_training_matches_a_hand_written_sgd_with_clipping():
    """Plain SGD (the default optimiser): per update, the gradient clipped to norm ``clip`` and a step of
    ``lr`` against a hand-written loop (a 10 % error in the step or a dropped clip fails)."""
    cfg = lm.LMConfig(**{**CFG.to_dict(), "clip": 0.05, "lr": 0.7})
    m, ref = lm.new_model(cfg, 2), lm.new_model(cfg, 2)
    n_up = 6
    h = lm.train(m, _ids(), _ids(200, 1), cfg, max_updates=n_up, record_norm=False)
    params = list(ref.parameters())
    data = _ids()[: 600 // cfg.batch * cfg.batch].view(cfg.batch, -1).T
    state, losses, clipped = None, [], 0
    for t in range(n_up):
        x, y = data[t * cfg.bptt:(t + 1) * cfg.bptt], data[t * cfg.bptt + 1:(t + 1) * cfg.bptt + 1]
        state = None if state is None else state.detach()
        logits, state = ref(x, state)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, cfg.vocab), y.reshape(-1))
        ref.zero_grad()
        loss.backward()
        norm = float(torch.sqrt(sum((q.grad.double() ** 2).sum() for q in params)))
        scale = min(1.0, cfg.clip / (norm + 1e-6))
        clipped += scale < 1
        with torch.no_grad():
            for q in params:
                q.sub_(cfg.lr * scale * q.grad)
        losses.append(float(loss.detach()))
    assert clipped == n_up                                   # the clip acts at every update here
    assert np.allclose(h["train_loss"], losses, rtol=1e-5, atol=0)
    for q, r in zip(m.parameters(), params):
        assert (q - r).abs().max() <= 1e-5 * r.abs().max()
