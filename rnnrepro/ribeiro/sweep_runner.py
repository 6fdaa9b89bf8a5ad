"""The temporal-order sweep as independent seed-batch tasks, checkpointed and resumable.

    python -m rnnrepro.ribeiro.sweep_runner --out DIR [--seeds 10] [--batch-seeds 10] [--epochs 3000]
        [--T 150] [--n 1000] [--checkpoint-every 100] [--eval-every 10] [--device cpu]
        [--workers 1] [--scheduler ADDRESS] [--snapshots 1,1000,1001,2999]
    python -m rnnrepro.ribeiro.sweep_runner --export DIR/task-0-4.pt DIR/task-5-9.pt --name NAME --ran-on "..."
        [--keep-snapshots 499] [--snapshot-seeds K] [--command "how the checkpoints were trained"]

Each task trains one batch of seeds with the fastest correct trainer for the device (``--trainer auto``:
:class:`FusedTrainer` on a CPU, :class:`BatchedTrainer` with CUDA graphs on a GPU; the authors' summed loss, clip 0.25,
Adam 1e-3, lr ÷10 at epochs 500, 1000, 2000) and writes ``DIR/task-<first>-<last>.pt``, resuming from it
when it exists. Tasks run in local processes (``--workers``), or on a dask.distributed cluster when
``--scheduler`` is given (dask is optional and imported only then).
"""
from __future__ import annotations

import argparse
import os
from concurrent.futures import ProcessPoolExecutor
from collections.abc import Collection, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import torch

from rnnrepro.ribeiro.paper_sweep import DATA_SEEDS, TRAINERS, paper_data, trainer_class
from rnnrepro.ribeiro.batched_training import flat_per_seed


def move_by_ulps(params: Sequence[torch.Tensor], ulps: int) -> None:
    """Move every entry of the float tensors ``params`` by ``ulps`` units in the last place (towards +inf for
    ulps > 0), in place: the last-bit twin of an initial condition."""
    with torch.no_grad():
        for p in params:
            direction = torch.full_like(p, float("inf") if ulps > 0 else float("-inf"))
            for _ in range(abs(ulps)):
                p.copy_(torch.nextafter(p, direction))


def task_path(out: str, seeds: Sequence[int], init_ulps: int = 0) -> str:
    """The checkpoint of one seed batch: ``out/task-<first>-<last>[-ulp<k>].pt``."""
    return os.path.join(out, f"task-{seeds[0]}-{seeds[-1]}" + (f"-ulp{init_ulps}" if init_ulps else "") + ".pt")


def run_task(seeds: Sequence[int], *, out: str, epochs: int, T: int, n: int, hidden: int = 50,
             checkpoint_every: int = 100, eval_every: int = 10, device: str = "cpu", threads: int = 1,
             snapshots: Sequence[int] = (), trainer: str = "auto", init_ulps: int = 0) -> str:
    """Train one seed batch to ``epochs`` (resuming from its checkpoint) and return the checkpoint path.

    The optimiser state is kept at every epoch in ``snapshots`` (and at epoch 0): a replay of the epochs
    that follow one of them, on another machine, re-verifies the shipped sweep. ``init_ulps`` moves every
    initial weight by that many ulps (:func:`move_by_ulps`) before training; ``trainer`` as
    :func:`trainer_class`."""
    torch.set_num_threads(threads)
    dtype = torch.get_default_dtype()
    torch.set_default_dtype(torch.float32)   # the initial weights are drawn under it, in any calling process
    try:
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        data = paper_data(n, T)
        bt = trainer_class(trainer, device)(seeds, data, hidden=hidden, reduction="sum", device=device,
                                            data_seeds=DATA_SEEDS)
        move_by_ulps(bt.params, init_ulps)
        bt.init_ulps = init_ulps
        path = task_path(out, seeds, init_ulps)
        if os.path.exists(path):
            bt.load(path)
        stops = sorted({e for e in snapshots if 0 < e <= epochs} | {epochs}
                       | set(range(checkpoint_every, epochs, checkpoint_every)))
        if bt.epoch == 0 and 0 not in bt.snapshots:
            bt.snapshot()
        for stop in (e for e in stops if e > bt.epoch):
            bt.run(stop - bt.epoch, eval_every=eval_every)
            if bt.epoch in snapshots:
                bt.snapshot()
            bt.save(path)
        return path
    finally:
        torch.set_default_dtype(dtype)


def run_sweep(seed_batches: Sequence[Sequence[int]], *, workers: int = 1, scheduler: str | None = None,
              **task_kw: Any) -> list[str]:
    """Run every seed batch as an independent task; return the checkpoint paths in batch order."""
    os.makedirs(task_kw["out"], exist_ok=True)
    if scheduler is not None:
        from dask.distributed import Client
        with Client(scheduler) as client:
            futs = [client.submit(run_task, list(b), pure=False, **task_kw) for b in seed_batches]
            return client.gather(futs)
    if workers <= 1:
        return [run_task(list(b), **task_kw) for b in seed_batches]
    with ProcessPoolExecutor(workers) as ex:
        return list(ex.map(partial(run_task, **task_kw), [list(b) for b in seed_batches]))


def export(checkpoints: str | Sequence[str], *, name: str, ran_on: str, command: str,
           keep: Collection[int] | None = None, snapshot_seeds: int | None = None, directory: Path | None = None,
           extra_config: dict | None = None, manifest: bool = True) -> Path:
    """Ship finished task checkpoints (one, or several of one sweep: their seeds are concatenated in the order
    given) as artefact ``<directory>/<name>.npz/.json`` (default directory: ``book/artifacts/ribeiro``), with
    ``extra_config`` added to the recorded config and, with ``manifest``, the folder's MANIFEST.json updated.
    Returns the JSON's path.

    Arrays (S seeds, D = 11804 parameters in nn.Module order): ``theta_init`` and ``theta_final`` (S, D);
    for every snapshot epoch e in ``keep`` (default: all), ``snap<e>_theta``, ``snap<e>_m``, ``snap<e>_v``
    (S, D) (Adam's moments); with ``snapshot_seeds`` = K, only the first K seeds' snapshots (K, D), which keeps
    a large sweep's artefact small (recorded as config ``snapshot_seeds``).
    History: ``epoch``, ``train_loss``, ``train_acc`` (E, S), ``val_epoch``, ``val_loss``, ``val_acc``.
    The config (data sizes and seeds, width, batch, optimiser, trainer) is the one the checkpoints record
    (:meth:`BatchedTrainer.config`); ValueError for a checkpoint that records none, or for checkpoints whose
    configs, epochs or snapshot epochs differ."""
    import numpy as np

    from rnnrepro.book.artifacts import save_artifact, update_manifest
    from rnnrepro.ribeiro.train_artifacts import ART_DIR

    paths = [checkpoints] if isinstance(checkpoints, str) else list(checkpoints)
    states = [torch.load(p, weights_only=False) for p in paths]
    for path, state in zip(paths, states):
        if "config" not in state:
            raise ValueError(f"{path} records no training config (a checkpoint written before checkpoints "
                             "carried one): its data sizes, width and optimiser settings are not known")
        same = ("config", "epoch", "step")
        if any(state[k] != states[0][k] for k in same) or sorted(state["snapshots"]) != sorted(states[0]["snapshots"]):
            raise ValueError(f"{path} differs from {paths[0]} in its config, epoch or snapshot epochs")
    cat = lambda get: torch.cat([flat_per_seed(get(st)) for st in states])
    params = {"theta_init": cat(lambda st: st["snapshots"][0]["params"]), "theta_final": cat(lambda st: st["params"])}
    kept = [e for e in sorted(states[0]["snapshots"]) if e and (keep is None or e in keep)]
    for e in kept:
        for key, part in (("theta", "params"), ("m", "m"), ("v", "v")):
            params[f"snap{e}_{key}"] = cat(lambda st, e=e, part=part: st["snapshots"][e][part])[:snapshot_seeds]
    history = {k: np.concatenate([np.asarray(st["history"][k]).reshape(len(st["history"][k]), -1) for st in states],
                                 axis=1).tolist() if k not in ("epoch", "val_epoch")
               else np.asarray(states[0]["history"][k]).tolist() for k in states[0]["history"]}
    first = states[0]
    config = dict(seeds=[int(s) for st in states for s in st["seeds"]], epochs=int(first["epoch"]),
                  steps=int(first["step"]),
                  snapshots={str(e): int(first["snapshots"][e]["step"]) for e in sorted(first["snapshots"])
                             if e == 0 or e in kept},
                  **first["config"], ran_on=ran_on)
    if snapshot_seeds is not None:
        config["snapshot_seeds"] = int(snapshot_seeds)
    directory = Path(directory or ART_DIR)
    js = save_artifact(directory, name, params, history=history, config=dict(config, **(extra_config or {})),
                       command=command)
    if manifest:
        update_manifest(directory, [name], chapter="ribeiro", command=command, seed=config["seeds"])
    return js


def add_schedule_args(ap: argparse.ArgumentParser) -> None:
    """The options of a sweep's data and schedule that every sweep command shares (the paper's defaults)."""
    ap.add_argument("--first-seed", type=int, default=0, help="seeds first-seed … first-seed + seeds − 1")
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--T", type=int, default=150, help="sequence length")
    ap.add_argument("--n", type=int, default=1000, help="training sequences")
    ap.add_argument("--checkpoint-every", type=int, default=100)
    ap.add_argument("--eval-every", type=int, default=10)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    add_schedule_args(ap)
    ap.add_argument("--out")
    ap.add_argument("--export", metavar="CHECKPOINT", nargs="+",
                    help="ship finished checkpoints (the task files of one sweep) as one artefact")
    ap.add_argument("--command", default="", help="the command that trained the checkpoints (recorded)")
    ap.add_argument("--snapshot-seeds", type=int, default=None, help="ship the snapshots of the first K seeds only")
    ap.add_argument("--name", default="wss_paper")
    ap.add_argument("--ran-on", default="", help="the machine the checkpoint was trained on (recorded)")
    ap.add_argument("--keep-snapshots", default="", help="snapshot epochs to ship (default: all)")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--batch-seeds", type=int, default=10)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--snapshots", default="1,1000,1001,2999", help="epochs whose optimiser state is kept")
    ap.add_argument("--seed-list", default="", help="comma-separated seeds (instead of --seeds/--first-seed)")
    ap.add_argument("--trainer", default="auto", choices=TRAINERS,
                    help="auto: the fused trainer on a CPU, the batched one (CUDA graphs) on a GPU")
    ap.add_argument("--init-ulps", type=int, default=0, help="move every initial weight by this many ulps")
    a = ap.parse_args(argv)
    if a.export:
        keep = {int(e) for e in a.keep_snapshots.split(",") if e} or None
        trained = a.command or "python -m rnnrepro.ribeiro.sweep_runner --out DIR --device cuda"
        export(a.export, name=a.name, ran_on=a.ran_on, keep=keep, snapshot_seeds=a.snapshot_seeds,
               command=f"{trained}; python -m rnnrepro.ribeiro.sweep_runner --export "
                       + " ".join(f"DIR/{os.path.basename(p)}" for p in a.export)
                       + f" --name {a.name}" + (f" --keep-snapshots {a.keep_snapshots}" if keep else "")
                       + (f" --snapshot-seeds {a.snapshot_seeds}" if a.snapshot_seeds is not None else ""))
        return
    if not a.out:
        ap.error("--out DIR is required to run a sweep")
    seeds = [int(x) for x in a.seed_list.split(",") if x] or list(range(a.first_seed, a.first_seed + a.seeds))
    batches = [seeds[k:k + a.batch_seeds] for k in range(0, len(seeds), a.batch_seeds)]
    paths = run_sweep(batches, workers=a.workers, scheduler=a.scheduler, out=a.out, epochs=a.epochs,
                      T=a.T, n=a.n, checkpoint_every=a.checkpoint_every, eval_every=a.eval_every,
                      device=a.device, snapshots=tuple(int(e) for e in a.snapshots.split(",") if e),
                      trainer=a.trainer, init_ulps=a.init_ulps)
    print("\n".join(paths))


if __name__ == "__main__":
    main()
