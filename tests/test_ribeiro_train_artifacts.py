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
