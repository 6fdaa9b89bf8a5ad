import numpy as np
import pytest
import torch

from rnnrepro.book.artifacts import load_artifact
from rnnrepro.core import language_model as lm
from rnnrepro.ribeiro import train_artifacts as ta
from rnnrepro.ribeiro.temporal_order import flat, set_flat

TINY = dict(ta.LM_CONFIG, vocab=19, hidden=6, bptt=5, batch=4, epochs=2, n_val_tokens=None)


def test_cli_offers_only_the_language_model():
    with pytest.raises(SystemExit):
        ta.main(["wss_good"])


def test_cli_refuses_bad_checkpoint_options(tmp_path):
    with pytest.raises(SystemExit):
        ta.main(["lm", "--stop-after", "10"])                        # nowhere to resume from
    with pytest.raises(SystemExit):
        ta.main(["lm", "--checkpoint", str(tmp_path / "ck.pt"), "--checkpoint-every", "0"])


def test_model_config_is_the_tied_adam_lstm_of_the_shipped_config():
    cfg = load_artifact(ta.ART_DIR, "lm").config
    mc = ta.model_config(cfg)
    assert (mc.cell, mc.tied, mc.optimizer, mc.keep_best, mc.anneal) == ("lstm", True, "adam", False, 1.0)
    assert (mc.vocab, mc.emb, mc.hidden, mc.bptt, mc.lr) == (cfg["vocab"], cfg["hidden"], cfg["hidden"], cfg["bptt"],
                                                             cfg["lr"])
    m = lm.new_model(mc, cfg["seed"])                                # the shipped weights load as they are
    theta = torch.as_tensor(load_artifact(ta.ART_DIR, "lm").params["theta_final"])
    set_flat(m, theta)
    assert torch.equal(flat(m), theta)
    with pytest.raises(ValueError, match="vocabulary"):
        ta.model_config(dict(cfg, vocab=None))


def _stop_after(n):
    calls = []
    return lambda: calls.append(1) or len(calls) == n


def test_train_and_save_writes_the_artefact_and_resumes_to_the_same_one(tmp_path, monkeypatch):
    monkeypatch.setattr(ta, "load_corpus", lambda cfg, **kw: lm.synthetic_corpus(2000))
    ta.train_and_save(tmp_path / "once", 0, "cmd", cfg=TINY)
    a = load_artifact(tmp_path / "once", "lm")
    assert set(a.history) == {"update", "train_loss", "epoch", "val_loss"}
    assert a.history["update"] == list(range(1, len(a.history["train_loss"]) + 1)) and a.history["epoch"] == [0, 1, 2]
    theta_init = flat(lm.new_model(ta.model_config(TINY), 0))
    assert a.config["theta_init_sha256"] == ta.theta_sha256(theta_init)
    assert not np.array_equal(a.params["theta_final"], theta_init.numpy())
    ck = tmp_path / "ck.pt"
    with pytest.raises(lm.TrainingInterrupted):
        ta.train_and_save(tmp_path / "resumed", 0, "cmd", cfg=TINY, checkpoint=ck, stop=_stop_after(100))
    ta.train_and_save(tmp_path / "resumed", 0, "cmd", cfg=TINY, checkpoint=ck)
    b = load_artifact(tmp_path / "resumed", "lm")
    assert np.array_equal(a.params["theta_final"], b.params["theta_final"])
    assert a.history == b.history


def test_lm_history_is_the_record_the_chapter_reads_in_both_modes():
    """The chapter's `train` mode (the full profile) and the shipped artefact give lm_history's keys: a
    history straight from core.language_model.train lacks 'update' (the full run failed on that)."""
    data = lm.synthetic_corpus(2000)
    h = lm.train(lm.new_model(ta.model_config(TINY), 0), data.train, data.valid, ta.model_config(TINY),
                 record_norm=False)
    assert "update" not in h
    rec = ta.lm_history(h)
    assert set(rec) == {"update", "train_loss", "epoch", "val_loss"}
    assert rec["update"] == list(range(1, len(h["train_loss"]) + 1)) and rec["val_loss"] == h["val_loss"]
