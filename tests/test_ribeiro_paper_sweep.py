import numpy as np
import torch

from rnnrepro.ribeiro import paper_sweep as ps
from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.batched_training import BatchedTrainer


def test_unflatten_and_evaluate_match_the_module_classifier():
    torch.set_num_threads(1)
    models = [to.new_model(6, s) for s in (0, 1)]
    theta = torch.stack([to.flat(m) for m in models])
    X, y = to.make_data(30, 52, 3)
    loss, acc = ps.evaluate_flat(theta, X, y, hidden=6, batch=7)
    for k, m in enumerate(models):
        l_ref, a_ref = to.evaluate(m, X, y, batch=7)
        assert abs(loss[k] - l_ref) < 1e-5 and acc[k] == a_ref
    assert [tuple(t.shape) for t in ps.unflatten(theta, 6)][:2] == [(2, 24, 6), (2, 24, 6)]


def test_outcome_labels_and_first_of():
    lab = ps.outcome_labels([0.99, 0.85, 0.85, 0.3], [0.97, 0.26, 0.6, 0.25], n_val=1000)
    assert list(lab) == ["solved", "memorised", "other", "other"]
    assert ps.first_of(lab, "memorised") == 1
    assert abs(ps.chance_sd(1000) - np.sqrt(0.1875 / 1000)) < 1e-15


def test_gap_in_roundoff_units():
    b = torch.tensor([[2.0, -1.0]])
    a = b + torch.tensor([[0.0, 2.0 * np.finfo(np.float32).eps]])
    assert abs(ps.gap_in_roundoff_units(a, b) - 1.0) < 1e-6


class _Art:
    """A stand-in for a shipped sweep artefact (config + params with one snapshot)."""

    def __init__(self, bt, cfg):
        flat = lambda ts: torch.cat([t.reshape(t.shape[0], -1) for t in ts], 1).numpy()
        st = bt.optimiser_state()
        self.config = dict(cfg, snapshots={str(st["epoch"]): st["step"]})
        self.params = {f"snap{st['epoch']}_theta": flat(st["params"]), f"snap{st['epoch']}_m": flat(st["m"]),
                       f"snap{st['epoch']}_v": flat(st["v"])}


def test_replay_from_snapshot_equals_training_on():
    torch.set_num_threads(1)
    data = (*to.make_data(20, 52, 1), *to.make_data(10, 52, 2))
    cfg = dict(seeds=[0, 1, 2], hidden=4, lr=1e-2, milestones=[2], gamma=0.1, clip=0.25, batch=10, reduction="sum")
    kw = {k: cfg[k] for k in ("hidden", "lr", "milestones", "gamma", "clip", "batch", "reduction")}
    bt = BatchedTrainer(cfg["seeds"], data, **kw)
    bt.run(1)
    art = _Art(bt, cfg)
    bt.run(1)
    th, loss = ps.replay(art, [2, 0], data, snapshot=1)
    assert torch.equal(th[0], bt.theta(2)) and torch.equal(th[1], bt.theta(0))
    assert np.allclose(loss, np.asarray(bt.history["train_loss"][-1])[[2, 0]], rtol=0, atol=0)
    wrong, _ = ps.replay(art, [2, 0], data, snapshot=1, epoch=5)       # another learning rate
    assert not torch.equal(wrong, th)


def test_max_gain_per_seed():
    acc = np.array([[0.25, 0.25], [0.3, 0.9], [0.35, 0.9]])
    assert np.allclose(ps.max_gain_per_seed([1, 2, 3], acc, 1), [0.05, 0.65])


def test_trainer_class_is_fused_on_cpu_and_batched_on_gpu():
    import pytest

    from rnnrepro.ribeiro.fused_lstm import FusedTrainer

    assert ps.trainer_class("auto", "cpu") is FusedTrainer
    assert ps.trainer_class("auto", "cuda") is BatchedTrainer
    assert ps.trainer_class("batched", "cpu") is BatchedTrainer
    assert ps.trainer_class("fused", "cuda") is FusedTrainer
    with pytest.raises(ValueError, match="unknown trainer"):
        ps.trainer_class("fast", "cpu")
