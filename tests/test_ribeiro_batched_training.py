import numpy as np
import pytest
import torch

from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.batched_training import BatchedTrainer


def test_batched_matches_single_seed_trainers():
    torch.set_num_threads(1)
    data = (*to.make_data(40, 55, 1), *to.make_data(20, 55, 2))
    seeds = [0, 3, 7]
    bt = BatchedTrainer(seeds, data, hidden=8, batch=10, milestones=(2,), lr=1e-2, clip=0.25)
    bt.run(3, eval_every=1)
    for s_idx, seed in enumerate(seeds):
        tr = to.Trainer(to.new_model(8, seed), data, batch=10, milestones=(2,), lr=1e-2, clip=0.25)
        tr.run(3)
        err = (bt.theta(s_idx) - to.flat(tr.model)).abs().max()
        assert err < 1e-5, err
        assert abs(bt.history["val_loss"][-1][s_idx] - tr.history["val_loss"][-1]) < 1e-5


@pytest.mark.parametrize("trainer", ["BatchedTrainer", "FusedTrainer"])
def test_stop_and_resume_equals_uninterrupted(tmp_path, trainer):
    from rnnrepro.ribeiro.fused_lstm import FusedTrainer
    Trainer = {"BatchedTrainer": BatchedTrainer, "FusedTrainer": FusedTrainer}[trainer]
    torch.set_num_threads(1)
    data = (*to.make_data(20, 52, 1), *to.make_data(10, 52, 2))
    kw = dict(hidden=6, batch=10, milestones=(2,), reduction="sum")
    full = Trainer([0, 1], data, **kw)
    full.run(4, eval_every=2)
    first = Trainer([0, 1], data, **kw)
    first.run(2, eval_every=2)
    first.save(tmp_path / "ck.pt")
    resumed = Trainer([0, 1], data, **kw)
    resumed.load(tmp_path / "ck.pt")
    resumed.run(2, eval_every=2)
    for a, b in zip(full.params + full.m + full.v, resumed.params + resumed.m + resumed.v):
        assert torch.equal(a, b)
    for k in full.history:
        assert np.array_equal(np.array(full.history[k]), np.array(resumed.history[k]))
    assert resumed.config()["trainer"] == trainer


def test_load_flat_snapshot_resumes_like_the_uninterrupted_run():
    torch.set_num_threads(1)
    data = (*to.make_data(20, 52, 1), *to.make_data(10, 52, 2))
    kw = dict(hidden=5, batch=10, milestones=(2,), reduction="sum")
    full = BatchedTrainer([0, 2], data, **kw)
    full.run(1)
    st = full.optimiser_state()
    flat = lambda ts: torch.cat([t.reshape(t.shape[0], -1) for t in ts], 1).numpy()
    full.run(2)
    resumed = BatchedTrainer([0, 2], data, **kw)
    resumed.load_flat_snapshot(flat(st["params"]), flat(st["m"]), flat(st["v"]), step=st["step"], epoch=st["epoch"])
    assert resumed.lr() == full.lr0 and resumed.step_count == 2
    resumed.run(2)
    for a, b in zip(full.params + full.m + full.v, resumed.params + resumed.m + resumed.v):
        assert torch.equal(a, b)
    try:
        resumed.load_flat_snapshot(flat(st["params"])[:1], flat(st["m"]), flat(st["v"]), step=1, epoch=1)
    except ValueError:
        pass
    else:
        raise AssertionError("a wrong shape must raise")


def test_flat_per_seed_is_each_models_flat_vector_and_split_inverts_it():
    import pytest

    from rnnrepro.ribeiro.batched_training import flat_per_seed, split_per_seed, stacked_init
    params = stacked_init(6, [0, 4])
    theta = flat_per_seed(params)
    for k, seed in enumerate([0, 4]):
        assert torch.equal(theta[k], to.flat(to.new_model(6, seed)))
    back = split_per_seed(theta, [p.shape[1:] for p in params])
    assert all(torch.equal(a, b) for a, b in zip(back, params))
    with pytest.raises(ValueError):
        split_per_seed(theta[:, :-1], [p.shape[1:] for p in params])
