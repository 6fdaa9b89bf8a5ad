import json

import numpy as np
import pytest
import torch

from rnnrepro.book.paths import REPO
from rnnrepro.ribeiro.sweep_runner import run_sweep


def test_process_pool_equals_serial_and_resume(tmp_path):
    kw = dict(epochs=2, T=52, n=20, hidden=5, checkpoint_every=1, eval_every=1)
    serial = run_sweep([[0], [1, 2]], workers=1, out=str(tmp_path / "a"), **kw)
    pooled = run_sweep([[0], [1, 2]], workers=2, out=str(tmp_path / "b"), **kw)
    again = run_sweep([[0], [1, 2]], workers=1, out=str(tmp_path / "a"), **kw)   # resumes: nothing to do
    for p, q, r in zip(serial, pooled, again):
        a, b, c = (torch.load(x, weights_only=False) for x in (p, q, r))
        assert a["epoch"] == b["epoch"] == c["epoch"] == 2
        for x, y in zip(a["params"], b["params"]):
            assert torch.equal(x, y)


def test_dask_local_cluster_equals_serial(tmp_path):
    distributed = pytest.importorskip("distributed")
    kw = dict(epochs=2, T=52, n=20, hidden=5, checkpoint_every=1, eval_every=1)
    serial = run_sweep([[0], [1, 2]], workers=1, out=str(tmp_path / "a"), **kw)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        on_dask = run_sweep([[0], [1, 2]], scheduler=cluster.scheduler_address, out=str(tmp_path / "b"), **kw)
    for p, q in zip(serial, on_dask):
        a, b = (torch.load(x, weights_only=False) for x in (p, q))
        assert a["epoch"] == b["epoch"] == 2
        assert all(torch.equal(x, y) for x, y in zip(a["params"] + a["m"] + a["v"], b["params"] + b["m"] + b["v"]))


def test_snapshots_are_kept_and_exported(tmp_path, monkeypatch):
    from rnnrepro.book.artifacts import load_artifact
    from rnnrepro.ribeiro import sweep_runner, train_artifacts
    from rnnrepro.ribeiro.batched_training import BatchedTrainer
    from rnnrepro.ribeiro import temporal_order as to

    kw = dict(epochs=3, T=52, n=20, hidden=5, checkpoint_every=2, eval_every=1)
    (path,) = run_sweep([[0, 1]], out=str(tmp_path / "a"), snapshots=(1, 2), **kw)
    state = torch.load(path, weights_only=False)
    assert sorted(state["snapshots"]) == [0, 1, 2] and state["snapshots"][2]["step"] == 2   # one batch of 20 per epoch
    monkeypatch.setattr(train_artifacts, "ART_DIR", tmp_path / "art")
    sweep_runner.export(path, name="sweep_test", ran_on="test", command="test")
    art = load_artifact(tmp_path / "art", "sweep_test")
    # the config is the checkpoint's own (this tiny run's sizes), with the keys the shipped sweep records
    assert {k: art.config[k] for k in ("T", "n_train", "n_val", "hidden", "batch", "reduction", "data_seeds")} == \
        dict(T=52, n_train=20, n_val=20, hidden=5, batch=100, reduction="sum", data_seeds=[1, 2])
    shipped = json.loads((REPO / "book" / "artifacts" / "ribeiro" / "wss_paper.json").read_text())
    assert set(shipped["config"]) <= set(art.config)      # newer checkpoints add trainer and init_ulps
    assert art.params["theta_init"].shape == art.params["theta_final"].shape == (2, art.params["snap1_theta"].shape[1])
    assert art.config["snapshots"] == {"0": 0, "1": 1, "2": 2} and (tmp_path / "art" / "MANIFEST.json").is_file()
    sweep_runner.export(path, name="sweep_small", ran_on="test", command="test", keep={2})
    small = load_artifact(tmp_path / "art", "sweep_small")
    assert small.config["snapshots"] == {"0": 0, "2": 2} and "snap1_theta" not in small.params
    assert np.array_equal(small.params["snap2_m"], art.params["snap2_m"])
    # the exported initial weights are each seed's own initialisation, and the final ones the trainer's
    torch.set_default_dtype(torch.float32)   # as run_task draws them (conftest's default is float64)
    fresh = BatchedTrainer([0, 1], (*to.make_data(20, 52, 1), *to.make_data(20, 52, 2)), hidden=5)
    for s in range(2):
        assert np.array_equal(art.params["theta_init"][s], fresh.theta(s).numpy())
    assert np.array_equal(art.params["theta_final"][1], torch.cat([p[1].reshape(-1) for p in state["params"]]).numpy())


def test_export_refuses_a_checkpoint_without_config(tmp_path, monkeypatch):
    from rnnrepro.ribeiro import sweep_runner, train_artifacts

    (path,) = run_sweep([[0]], out=str(tmp_path / "a"), epochs=1, T=52, n=20, hidden=5, eval_every=1)
    state = torch.load(path, weights_only=False)
    del state["config"]
    torch.save(state, tmp_path / "old.pt")
    monkeypatch.setattr(train_artifacts, "ART_DIR", tmp_path / "art")
    with pytest.raises(ValueError, match="records no training config"):
        sweep_runner.export(str(tmp_path / "old.pt"), name="old", ran_on="test", command="test")


def test_a_paper_configuration_trainer_records_the_shipped_config():
    # what run_task's trainer at the paper's sizes writes into its checkpoint is what wss_paper.json ships
    from rnnrepro.ribeiro.batched_training import BatchedTrainer
    from rnnrepro.ribeiro.paper_sweep import DATA_SEEDS, paper_data

    shipped = json.loads((REPO / "book" / "artifacts" / "ribeiro" / "wss_paper.json").read_text())["config"]
    bt = BatchedTrainer([0], paper_data(shipped["n_train"], shipped["T"]), hidden=50, reduction="sum",
                        data_seeds=DATA_SEEDS)
    per_run = ("seeds", "epochs", "steps", "snapshots", "ran_on")
    recorded = bt.config()
    assert (recorded.pop("trainer"), recorded.pop("init_ulps")) == ("BatchedTrainer", 0)   # newer than wss_paper
    assert recorded == {k: v for k, v in shipped.items() if k not in per_run}


def test_several_task_checkpoints_export_as_one_sweep(tmp_path, monkeypatch):
    from rnnrepro.book.artifacts import load_artifact
    from rnnrepro.ribeiro import sweep_runner, train_artifacts

    kw = dict(epochs=2, T=52, n=20, hidden=5, checkpoint_every=1, eval_every=1, snapshots=(1,))
    one = run_sweep([[0, 1, 2]], out=str(tmp_path / "one"), **kw)
    two = run_sweep([[0, 1], [2]], out=str(tmp_path / "two"), workers=2, **kw)
    monkeypatch.setattr(train_artifacts, "ART_DIR", tmp_path / "art")
    sweep_runner.export(one, name="whole", ran_on="test", command="test")
    sweep_runner.export(two, name="parts", ran_on="test", command="test")
    whole, parts = (load_artifact(tmp_path / "art", n) for n in ("whole", "parts"))
    assert parts.config["seeds"] == [0, 1, 2] and parts.config == whole.config
    for key in whole.params:
        assert np.array_equal(whole.params[key], parts.params[key]), key
    for key in whole.history:
        assert np.array_equal(np.asarray(whole.history[key]), np.asarray(parts.history[key])), key
    other = run_sweep([[3]], out=str(tmp_path / "three"), **dict(kw, epochs=1))
    with pytest.raises(ValueError, match="differs"):
        sweep_runner.export(two + other, name="bad", ran_on="test", command="test")


def test_a_sweep_can_ship_the_snapshots_of_its_first_seeds_only(tmp_path, monkeypatch):
    from rnnrepro.book.artifacts import load_artifact
    from rnnrepro.ribeiro import paper_sweep, sweep_runner, train_artifacts
    from rnnrepro.ribeiro import temporal_order as to

    kw = dict(epochs=2, T=52, n=20, hidden=5, checkpoint_every=1, eval_every=1, snapshots=(1,))
    paths = run_sweep([[0, 1, 2]], out=str(tmp_path / "s"), **kw)
    monkeypatch.setattr(train_artifacts, "ART_DIR", tmp_path / "art")
    sweep_runner.export(paths, name="all", ran_on="test", command="test")
    sweep_runner.export(paths, name="two", ran_on="test", command="test", snapshot_seeds=2)
    every, two = (load_artifact(tmp_path / "art", n) for n in ("all", "two"))
    assert two.params["snap1_m"].shape[0] == 2 and two.config["snapshot_seeds"] == 2
    assert np.array_equal(two.params["snap1_v"], every.params["snap1_v"][:2])
    data = (*to.make_data(20, 52, 1), *to.make_data(20, 52, 2))
    a, _ = paper_sweep.replay(every, [1, 0], data, snapshot=1)
    b, _ = paper_sweep.replay(two, [1, 0], data, snapshot=1)
    assert torch.equal(a, b)
    with pytest.raises(ValueError, match="first 2 seeds only"):
        paper_sweep.replay(two, [2], data, snapshot=1)
