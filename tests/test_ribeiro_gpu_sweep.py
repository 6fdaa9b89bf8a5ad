"""The GPU population sweep's path, checked on the CPU: the batched trainer against the fused one over 50 epochs,
the time-limited sessions against one uninterrupted run, the refusal without CUDA, and a smoke run shipped and
installed like ``wss_paper``."""
import gzip
import json

import numpy as np
import pytest
import torch

from rnnrepro.book.artifacts import load_artifact
from rnnrepro.book.paths import REPO
from rnnrepro.ribeiro import gpu_sweep
from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.batched_training import BatchedTrainer
from rnnrepro.ribeiro.fused_lstm import FusedTrainer
from rnnrepro.ribeiro.paper_sweep import gap_in_roundoff_units
from rnnrepro.ribeiro.sweep_runner import move_by_ulps

TINY = dict(T=52, n=20, hidden=5, checkpoint_every=2, eval_every=1, snapshots=(4,), snapshot_seeds=1)


def _trained(cls, data, *, ulps=0, lr=1e-3):
    bt = cls([0, 1], data, hidden=10, batch=10, lr=lr, milestones=(25, 40), reduction="sum")
    move_by_ulps(bt.params, ulps)
    bt.run(50, eval_every=10)
    return bt


def test_batched_trainer_follows_the_fused_trainer_over_50_epochs_within_round_off():
    """The device path (BatchedTrainer, eager here; on CUDA each step is a replay of the same arithmetic) against
    the fused CPU trainer: 2 seeds × 50 epochs (300 clipped Adam steps of the summed loss, both lr drops), same
    seeds, same data. Tolerance: 10 × the floor measured here, how far the fused trainer moves when every initial
    weight is moved by one ulp (the last-bit twin): two float32 computations of the same training cannot be
    expected to agree more closely than one rounding of the start lets them (for a loss history, at least one
    rounding of the largest loss). Measured when written (AVX-512 CPU): weights gap/floor 0.87 and 0.30 (gap
    3.1e-7, 5.3 roundings of the largest weight), loss histories 1.0 (train) and 2.0 (val); final accuracies
    equal. Control: the fused trainer at a learning rate 10 % off lands about 1e5 floors away (asserted ≥ 100)."""
    torch.set_default_dtype(torch.float32)          # the sweep's dtype (conftest restores float64)
    data = (*to.make_data(60, 52, 1), *to.make_data(30, 52, 2))
    batched, fused = _trained(BatchedTrainer, data), _trained(FusedTrainer, data)
    twin, off = _trained(FusedTrainer, data, ulps=1), _trained(FusedTrainer, data, lr=1.1e-3)
    for k in range(2):
        gap = float((batched.theta(k) - fused.theta(k)).abs().max())
        floor = float((twin.theta(k) - fused.theta(k)).abs().max())
        control = float((off.theta(k) - fused.theta(k)).abs().max())
        assert 0 < floor and gap <= 10 * floor, (k, gap, floor, gap_in_roundoff_units(batched.theta(k)[None],
                                                                                      fused.theta(k)[None]))
        assert control >= 100 * floor, (k, control, floor)
    for key in ("train_loss", "val_loss"):
        ref = np.array(fused.history[key])
        gap = np.abs(np.array(batched.history[key]) - ref).max()
        floor = max(np.abs(np.array(twin.history[key]) - ref).max(), np.spacing(np.abs(ref).max()))
        assert gap <= 10 * floor, (key, gap, floor)
    for key in ("train_acc", "val_acc"):                 # at most one sequence classified otherwise
        n = len(data[1]) if key == "train_acc" else len(data[3])
        assert np.abs(batched.history[key][-1] - fused.history[key][-1]).max() <= 1 / n + 1e-7, key


def test_next_stop_fits_whole_checkpoint_intervals_into_the_time_left():
    assert gpu_sweep.next_stop(0, 3000, 100, None, 0.0) == 100            # the first interval always runs
    assert gpu_sweep.next_stop(100, 3000, 100, 0.1, 95.0) == 1000         # 900 epochs × 0.1 s fit in 95 s
    assert gpu_sweep.next_stop(100, 3000, 100, 0.1, 9.0) == 100           # not one interval: stop here
    assert gpu_sweep.next_stop(2950, 3000, 100, 0.1, 6.0) == 3000         # the end of the run is a stop too
    assert gpu_sweep.next_stop(3000, 3000, 100, 0.1, 1e9) == 3000
    assert gpu_sweep.next_stop(150, 3000, 100, 1.0, 60.0) == 200          # back onto the checkpoint grid
    with pytest.raises(ValueError):
        gpu_sweep.next_stop(3001, 3000, 100, 0.1, 1.0)


def test_refuses_in_one_line_without_cuda_and_a_cpu_run_beyond_smoke_size(monkeypatch, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(SystemExit, match=r"^gpu_sweep: no CUDA device here .*--device cpu") as err:
        gpu_sweep.main(["--out", "x", "--ship", "y"])
    assert "\n" not in str(err.value.code)
    with pytest.raises(SystemExit, match="smoke runs of at most 100 seed-epochs"):
        gpu_sweep.main(["--out", "x", "--ship", "y", "--device", "cpu", "--seeds", "100", "--epochs", "3000"])
    with pytest.raises(SystemExit, match="neither cuda nor cpu"):
        gpu_sweep.main(["--out", "x", "--ship", "y", "--device", "gpu"])


def _tiny_run(tmp_path, name, *, time_limit=1e9, out="out", resume_from=None):
    return gpu_sweep.train([0, 1], out=tmp_path / out, ship=tmp_path / name, epochs=5, time_limit=time_limit,
                           command=f"test {name}", device="cpu", resume_from=resume_from, **TINY)


def test_time_limited_sessions_resume_to_the_uninterrupted_run_bit_for_bit(tmp_path):
    assert _tiny_run(tmp_path, "whole", out="whole_ck") == 0
    # a limit no interval fits: each session trains one interval (2 epochs), packs its checkpoint and exits 75
    assert _tiny_run(tmp_path, "s1", time_limit=1e-9) == gpu_sweep.EXIT_RESUME
    parts = sorted((tmp_path / "s1").glob("resume.pt.gz.part*"))
    assert parts and all(p.stat().st_size <= gpu_sweep.PART_BYTES for p in parts)
    # the second session on a "fresh machine" (another checkpoint folder), from the packed parts
    assert _tiny_run(tmp_path, "s2", time_limit=1e-9, out="fresh", resume_from=tmp_path / "s1") == gpu_sweep.EXIT_RESUME
    assert _tiny_run(tmp_path, "s3", time_limit=1e-9, out="fresh") == 0
    for name in ("whole", "s3"):
        gpu_sweep.install(tmp_path / name, "wss_paper100", tmp_path / f"art_{name}")
    whole, pieces = (load_artifact(tmp_path / f"art_{n}", "wss_paper100") for n in ("whole", "s3"))
    assert whole.meta["sha256"] == pieces.meta["sha256"]                  # the same npz bytes
    assert all(np.array_equal(whole.params[k], pieces.params[k]) for k in whole.params)
    assert whole.history == pieces.history
    sessions = pieces.config["sessions"]
    assert [(s["from_epoch"], s["to_epoch"]) for s in sessions] == [(0, 2), (2, 4), (4, 5)]
    assert pieces.config["wall_s"] == pytest.approx(sum(s["wall_s"] for s in sessions))
    assert "over 3 sessions" in pieces.config["ran_on"]
    assert all(s["code_sha256"] == gpu_sweep.code_sha256() for s in sessions)
    # the finished command run again trains nothing, adds no session and ships the same arrays
    assert _tiny_run(tmp_path, "s4", time_limit=1e-9, out="fresh") == 0
    again = load_artifact(gpu_sweep.install(tmp_path / "s4", "wss_paper100", tmp_path / "art_s4").parent,
                          "wss_paper100")
    assert again.meta["sha256"] == whole.meta["sha256"] and len(again.config["sessions"]) == 3


def test_cpu_smoke_run_ships_and_installs_an_artefact_like_wss_paper(tmp_path, capsys):
    argv = ["--out", str(tmp_path / "ck"), "--ship", str(tmp_path / "ship"), "--device", "cpu", "--seeds", "2",
            "--epochs", "5", "--T", "52", "--n", "20", "--hidden", "5", "--checkpoint-every", "2",
            "--eval-every", "1", "--snapshot-seeds", "1"]
    assert gpu_sweep.main(argv) == 0
    assert "final outcomes" in capsys.readouterr().out
    shipped = sorted(p.name for p in (tmp_path / "ship").iterdir())
    assert shipped == ["wss_paper100.json.gz", "wss_paper100.npz"]
    man = json.loads(gpu_sweep.install(tmp_path / "ship", "wss_paper100", tmp_path / "art").read_text())
    art = load_artifact(tmp_path / "art", "wss_paper100")
    paper = json.loads((REPO / "book" / "artifacts" / "ribeiro" / "wss_paper.json").read_text())
    assert set(paper["config"]) <= set(art.config) and set(paper["history"]) == set(art.history)
    # theta_init, theta_final and the optimiser state one epoch before the end (snap2999_* in wss_paper)
    assert {k.replace("snap2999", "snap4") for k in paper["arrays"]} == set(art.params)
    assert art.params["theta_final"].shape[0] == 2 and art.params["snap4_theta"].shape[0] == 1
    assert art.config["seeds"] == [0, 1] and art.config["epochs"] == 5 and art.config["trainer"] == "BatchedTrainer"
    assert art.config["device"]["type"] == "cpu" and art.config["device"]["tf32_off"]
    assert art.config["ran_on"].endswith("2 seeds x 5 epochs in {:.0f} s".format(art.config["wall_s"]))
    assert art.meta["command"].startswith("python3 -m rnnrepro.ribeiro.gpu_sweep --out ")
    assert man["files"]["wss_paper100.npz"]["sha256"] == art.meta["sha256"]
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "wss_paper100.json.gz").write_bytes((tmp_path / "ship" / "wss_paper100.json.gz").read_bytes())
    (bad / "wss_paper100.npz").write_bytes(b"not the shipped npz")
    with pytest.raises(SystemExit, match="does not match the sha256"):
        gpu_sweep.install(bad, "wss_paper100", tmp_path / "art2")
    assert json.loads(gzip.decompress((tmp_path / "ship" / "wss_paper100.json.gz").read_bytes()))["name"] == \
        "wss_paper100"
