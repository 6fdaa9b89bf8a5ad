import torch

from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro import train_artifacts as ta


def test_wss_data_uses_seed_and_seed_plus_one():
    cfg = dict(T=55, n_train=10, n_val=12)
    Xtr, ytr, Xva, yva = ta.wss_data(cfg, 3)
    assert Xtr.shape == (10, 55) and Xva.shape == (12, 55)
    assert torch.equal(Xva, to.make_data(12, 55, 4)[0])


def test_train_wss_and_replay_are_consistent(monkeypatch):
    torch.set_default_dtype(torch.float32)
    try:
        tiny = dict(T=50, n_train=100, n_val=100, hidden=4, epochs=4, log_every=1, stop_after_solved=None,
                    milestones=[500])
        monkeypatch.setitem(ta.WSS_RUNS, "tiny", tiny)
        r = ta.train_wss("tiny", 0, verbose=False)
        assert r["history"]["epoch"] == [0, 1, 2, 3, 4]
        assert r["checkpoint"] is None          # never reaches 0.9
        # resume from a state after epoch 2 reproduces epochs 3-4
        model = to.new_model(4, 0)
        tr = to.Trainer(model, ta.wss_data(r["config"], 0), milestones=[500])
        tr.run(2)
        h = ta.replay(r["config"], tr.state(), 2)
        assert h["val_loss"][1:] == r["history"]["val_loss"][3:]
    finally:
        torch.set_default_dtype(torch.float64)


def test_sweep_outcome():
    h = dict(epoch=list(range(12)), train_acc=[0.3] * 12, val_acc=[0.2, 0.95] + [0.91] * 10)
    o = ta.sweep_outcome(h)
    assert o["first_solved"] == 1 and o["settled"] and o["val_acc"] == 0.91
    h["val_acc"][-1] = 0.5
    assert not ta.sweep_outcome(h)["settled"]


def test_sweep_save_load_roundtrip_and_replay_keeps_checkpoint(monkeypatch, tmp_path):
    monkeypatch.setattr(ta, "ART_DIR", tmp_path)
    monkeypatch.setattr(ta, "PAPER_WSS", dict(T=50, n_train=100, n_val=100, hidden=4))
    torch.set_default_dtype(torch.float32)
    try:
        res = ta.paper_sweep([0, 1], 2, verbose=False)
        ta.save_sweep(res, 2, "cmd")
        sw = ta.load_sweep()
        assert sw["seeds"] == [0, 1] and sw["epochs"] == 2
        assert torch.equal(sw["theta_final"], ta.sweep_summary(res)["theta_final"])
        assert sw["val_acc"][1] == res[1]["history"]["val_acc"]
        assert ta.reverify_sweep(sw) == (0.0, 0)          # same machine, same run: exact
        cfg = dict(ta.PAPER_WSS, seed=0, milestones=[500])
        model = to.new_model(4, 0)
        tr = to.Trainer(model, ta.wss_data(cfg, 0), milestones=[500])
        tr.run(1)
        st = tr.state()
        before = st["theta"].clone()
        h, th = ta.replay_with_weights(cfg, st, 2)
        assert torch.equal(st["theta"], before)
        assert h["epoch"] == [1, 2, 3] and th.shape == before.shape
    finally:
        torch.set_default_dtype(torch.float64)
