"""The temporal-order sweep as independent seed-batch tasks, checkpointed and resumable.

    python -m rnnrepro.ribeiro.sweep_runner --out DIR [--seeds 10] [--batch-seeds 10] [--epochs 3000]
        [--T 150] [--n 1000] [--checkpoint-every 100] [--eval-every 10] [--device cpu]
        [--workers 1] [--scheduler ADDRESS]

Each task trains one batch of seeds with :class:`BatchedTrainer` (the authors' summed loss, clip 0.25,
Adam 1e-3, lr ÷10 at epochs 500, 1000, 2000) and writes ``DIR/task-<first>-<last>.pt``, resuming from it
when it exists. Tasks run in local processes (``--workers``), or on a dask.distributed cluster when
``--scheduler`` is given (dask is optional and imported only then).
"""
from __future__ import annotations

import argparse
import os
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import torch

from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.batched_training import BatchedTrainer


def run_task(seeds, *, out: str, epochs: int, T: int, n: int, hidden: int = 50, checkpoint_every: int = 100,
             eval_every: int = 10, device: str = "cpu", threads: int = 1, snapshots=()) -> str:
    """Train one seed batch to ``epochs`` (resuming from its checkpoint) and return the checkpoint path.

    The optimiser state is kept at every epoch in ``snapshots`` (and at epoch 0): a replay of the epochs
    that follow one of them, on another machine, re-verifies the shipped sweep."""
    torch.set_num_threads(threads)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    data = (*to.make_data(n, T, 1), *to.make_data(n, T, 2))
    bt = BatchedTrainer(seeds, data, hidden=hidden, reduction="sum", device=device)
    path = os.path.join(out, f"task-{seeds[0]}-{seeds[-1]}.pt")
    if os.path.exists(path):
        bt.load(path)
    stops = sorted({e for e in snapshots if 0 < e <= epochs} | set(range(checkpoint_every, epochs, checkpoint_every))
                   | {epochs})
    if bt.epoch == 0 and 0 not in bt.snapshots:
        bt.snapshot()
    for stop in (e for e in stops if e > bt.epoch):
        bt.run(stop - bt.epoch, eval_every=eval_every)
        if bt.epoch in snapshots:
            bt.snapshot()
        bt.save(path)
    return path


def run_sweep(seed_batches, *, workers: int = 1, scheduler: str | None = None, **task_kw) -> list[str]:
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


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--batch-seeds", type=int, default=10)
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--T", type=int, default=150)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--checkpoint-every", type=int, default=100)
    ap.add_argument("--eval-every", type=int, default=10)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--snapshots", default="1,1000,1001,2999", help="epochs whose optimiser state is kept")
    a = ap.parse_args(argv)
    seeds = list(range(a.seeds))
    batches = [seeds[k:k + a.batch_seeds] for k in range(0, len(seeds), a.batch_seeds)]
    paths = run_sweep(batches, workers=a.workers, scheduler=a.scheduler, out=a.out, epochs=a.epochs,
                      T=a.T, n=a.n, checkpoint_every=a.checkpoint_every, eval_every=a.eval_every,
                      device=a.device, snapshots=tuple(int(e) for e in a.snapshots.split(",") if e))
    print("\n".join(paths))


if __name__ == "__main__":
    main()
