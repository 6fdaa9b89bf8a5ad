"""Training throughput (seconds per seed-epoch) of the authors' loop and the project's CPU trainers, in one run.

    python -m rnnrepro.ribeiro.benchmark [--threads 1,2] [--seeds 10] [--repeats 5] [--T 150] [--n 1000]
                                         [--trainers fused] [--device cpu]

For each thread count, one training epoch of each trainer is timed in turn, ``repeats`` times (interleaved,
so that load from other processes falls on all of them alike), after one untimed epoch each. A seed-epoch
is one pass over the n training sequences in batches of 100 by one seed; training steps only. Printed: the
median seconds per seed-epoch of each trainer and its speed-up over the authors' loop (the reference:
``nn.LSTM`` + Adam + summed cross entropy + clip 0.25, :class:`AuthorsLoop`). ``--trainers`` picks from
``fused`` (:class:`FusedTrainer`, the CPU default of the sweep), ``batched`` (:class:`BatchedTrainer`,
autograd) and ``single`` (the single-seed :class:`temporal_order.Trainer`).
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

import torch

from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.authors_loop import AuthorsLoop
from rnnrepro.ribeiro.batched_training import BatchedTrainer

TRAINERS = ("fused", "batched", "single")


def epoch_runners(data, *, seeds: int, trainers: Sequence[str], device: str = "cpu") -> dict[str, tuple[Callable, int]]:
    """name -> (a function training one epoch, seeds it trains): the authors' loop first."""
    out: dict[str, tuple[Callable, int]] = {"authors' loop": (AuthorsLoop(data).train_epoch, 1)}
    for name in trainers:
        if name == "fused":
            from rnnrepro.ribeiro.fused_lstm import FusedTrainer
            out["fused (project default on CPU)"] = (FusedTrainer(range(seeds), data, reduction="sum").train_epoch,
                                                     seeds)
        elif name == "batched":
            out[f"batched, autograd ({device})"] = (
                BatchedTrainer(range(seeds), data, reduction="sum", device=device).train_epoch, seeds)
        elif name == "single":
            out["single-seed Trainer"] = (to.Trainer(to.new_model(50, 0), data).train_epoch, 1)
        else:
            raise SystemExit(f"unknown trainer {name!r}; choose from {', '.join(TRAINERS)}")
    return out


def time_per_seed_epoch(runners: dict[str, tuple[Callable, int]], repeats: int,
                        sync: Callable[[], None] = lambda: None) -> dict[str, float]:
    """Median seconds per seed-epoch of each runner, epochs timed in turn (after one untimed epoch each)."""
    for fn, _ in runners.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(repeats):
        for name, (fn, seeds) in runners.items():
            t0 = time.perf_counter()
            fn()
            sync()
            times[name].append((time.perf_counter() - t0) / seeds)
    return {name: statistics.median(ts) for name, ts in times.items()}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--seeds", type=int, default=10, help="seeds of the multi-seed trainers")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--T", type=int, default=150)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--trainers", default="fused", help=f"comma-separated, from {', '.join(TRAINERS)}")
    ap.add_argument("--device", default="cpu", help="device of the batched trainer")
    a = ap.parse_args(argv)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    data = (*to.make_data(a.n, a.T, 1), *to.make_data(a.n, a.T, 2))
    sync = torch.cuda.synchronize if a.device != "cpu" else (lambda: None)
    for threads in (int(t) for t in a.threads.split(",")):
        torch.set_num_threads(threads)
        runners = epoch_runners(data, seeds=a.seeds, trainers=[t for t in a.trainers.split(",") if t],
                                device=a.device)
        per = time_per_seed_epoch(runners, a.repeats, sync)
        ref = per["authors' loop"]
        print(f"threads={threads} T={a.T} n={a.n} batch=100 hidden=50 seeds={a.seeds} repeats={a.repeats} "
              f"(median seconds per seed-epoch, training steps only)")
        for name, sec in per.items():
            print(f"  {name:34s} {sec:7.3f} s   {ref / sec:5.2f}x the authors' loop")


if __name__ == "__main__":
    main()
