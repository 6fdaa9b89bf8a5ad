"""Seconds per seed-epoch: the single-seed Trainer and the BatchedTrainer side by side in one run.

    python -m rnnrepro.ribeiro.benchmark [--seeds 10] [--T 150] [--n 1000] [--epochs 1] [--threads 1]
                                         [--device cpu]
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import torch

from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.batched_training import BatchedTrainer


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--T", type=int, default=150)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="cpu")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    data = (*to.make_data(a.n, a.T, 1), *to.make_data(a.n, a.T, 2))
    tr = to.Trainer(to.new_model(50, 0), data)
    tr.train_epoch()                                   # one untimed epoch each (on CUDA: the graph capture)
    t0 = time.perf_counter()
    for _ in range(a.epochs):
        tr.train_epoch()
    single = (time.perf_counter() - t0) / a.epochs
    bt = BatchedTrainer(range(a.seeds), data, reduction="sum", device=a.device)
    bt.run(1, eval_every=10 ** 9)
    if a.device != "cpu":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    bt.run(a.epochs, eval_every=10 ** 9)
    if a.device != "cpu":
        torch.cuda.synchronize()
    batched = (time.perf_counter() - t0) / a.epochs / a.seeds
    print(f"threads={a.threads} device={a.device} T={a.T} n={a.n} seeds={a.seeds}")
    print(f"single-seed trainer (cpu, training only): {single:.3f} s per seed-epoch")
    print(f"batched trainer ({a.device}):              {batched:.3f} s per seed-epoch")


if __name__ == "__main__":
    main()
