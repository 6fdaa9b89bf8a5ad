"""Train the shipped WikiText-2 runs of the Miller chapter (§7.2).

    python -m rnnrepro.miller.train_artifacts wt2 --seeds 0-3     # stable vs unconstrained RNN (4 seeds)
    python -m rnnrepro.miller.train_artifacts fig2 --seed 0       # input-gradient profiles, RNN and LSTM
    python -m rnnrepro.miller.train_artifacts fig3 --seed 0       # k-sweeps (sliding window; TBPTT variant)
    python -m rnnrepro.miller.train_artifacts all --size full --device cuda   # the paper's sizes, on a GPU
    python -m rnnrepro.miller.train_artifacts wt2 --size full --seeds 0 --device cuda --data-root DATA \
        --checkpoint-dir CK --checkpoint-every 1000 --stop-after 540   # §7.2 pair, in resumable pieces

Writes ``book/artifacts/miller/<what>.npz/.json`` (``<what>_full`` with ``--size full``; histories and
summaries only, no weights) and updates MANIFEST.json (command, seed, sha256, bytes). The small size is
float32 on one CPU thread and deterministic; the chapter replays its first updates to re-verify it.

Long runs: ``--checkpoint-dir DIR`` saves every model's (or sweep's) whole training state there after
every epoch (Fig. 3: every log) and every ``--checkpoint-every`` updates, atomically; the same command
run again resumes from the last checkpoint bit for bit (same machine and device). ``--stop-after S``
stops cleanly at a checkpoint once S seconds have passed (exit code 75: run the same command again).
``--data-root DIR`` is the folder that holds ``wikitext-2/`` (else ``$RNNREPRO_DATA``); with
``wikitext-2/train.txt`` there the full size trains on the official training split.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

from rnnrepro.book.artifacts import parse_seeds, save_artifact, update_manifest
from rnnrepro.book.paths import REPO
from rnnrepro.core import language_model as lm
from rnnrepro.miller import lm_experiments as lx

ART_DIR = REPO / "book" / "artifacts" / "miller"
CONTROL_SEEDS = [0]
#: Exit code of a run stopped by ``--stop-after`` at a checkpoint (EX_TEMPFAIL: run it again to resume).
EXIT_RESUME = 75


def train_one(what: str, size: str, seeds: list[int], *, device: str, command: str, verbose: bool = True,
              epochs: int | None = None, updates: int | None = None,
              resume: lx.Resume | None = None) -> str:
    """Run one experiment and save it as an artefact; returns its name. ``epochs`` overrides the
    epochs of every configuration of the size, ``updates`` the number of Fig. 3 updates; ``resume``:
    checkpoint (and resume) every run (:class:`~rnnrepro.miller.lm_experiments.Resume`)."""
    if device == "cpu":
        torch.set_num_threads(1)
    if epochs is not None or updates is not None:
        S = dict(lx.SIZES[size])
        for k, v in S.items():
            if hasattr(v, "to_dict") and epochs is not None:
                S[k] = replace(v, epochs=epochs)
        if updates is not None:
            S["fig3_updates"] = updates
            S["tbptt_tokens"] = updates * S["fig3_L"] * S["fig3_rnn"].batch
        lx.SIZES[size] = S
    corpus = lx.load_corpus(size)
    t0, c0 = time.time(), time.process_time()
    if what == "wt2":
        arrays = lx.run_wt2(size, seeds, [s for s in CONTROL_SEEDS if s in seeds] or seeds[:1], corpus, device,
                            verbose, resume=resume)
    elif what == "fig2":
        arrays = lx.run_fig2(size, seeds[0], corpus, device, verbose, resume=resume)
    else:
        arrays = lx.run_fig3(size, seeds[0], corpus, device=device, resume=resume)
    name = what if size == "small" else f"{what}_{size}"
    cfgs = {k: v.to_dict() for k, v in lx.SIZES[size].items() if hasattr(v, "to_dict")}
    other = {k: v for k, v in lx.SIZES[size].items() if not hasattr(v, "to_dict") and k != "vocab"}
    config = dict(size=size, seeds=seeds, control_seeds=CONTROL_SEEDS, device=device, vocab=len(corpus.vocab),
                  train_tokens=int(corpus.train.numel()), configs=cfgs, **other, ks=lx.KS, k_ref=lx.K_REF,
                  wall_s=time.time() - t0, cpu_s=time.process_time() - c0, torch=torch.__version__,
                  vocab_head=corpus.vocab.itos[:20])
    save_artifact(ART_DIR, name, {k: torch.as_tensor(v).to(torch.float64) for k, v in arrays.items()},
                  config=config, command=command)
    update_manifest(ART_DIR, [name], chapter="miller", command=command, seed=seeds if len(seeds) > 1 else seeds[0])
    if verbose:
        print(f"{name}: {config['wall_s']:.0f} s", flush=True)
    return name


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("wt2", "fig2", "fig3", "all"))
    ap.add_argument("--size", choices=tuple(lx.SIZES), default="small")
    ap.add_argument("--device", default="cpu", help="cpu or cuda")
    ap.add_argument("--seed", type=int, default=0, help="fig2, fig3: the seed")
    ap.add_argument("--seeds", default="0-3", help="wt2: seeds, e.g. 0-3 or 1,3")
    ap.add_argument("--epochs", type=int, default=None, help="override the epochs of wt2 and fig2")
    ap.add_argument("--updates", type=int, default=None, help="override the updates of fig3")
    ap.add_argument("--checkpoint-dir", default=None,
                    help="save every run's training state here (every epoch, atomically) and resume from it")
    ap.add_argument("--checkpoint-every", type=int, default=None, help="also checkpoint every N updates")
    ap.add_argument("--stop-after", type=float, default=None,
                    help=f"stop at a checkpoint after this many seconds (exit code {EXIT_RESUME}: run again)")
    ap.add_argument("--data-root", default=None, help="folder holding wikitext-2/ (default: $RNNREPRO_DATA)")
    args = ap.parse_args(argv)
    if (args.epochs is not None and args.epochs < 1) or (args.updates is not None and args.updates < 1):
        ap.error("--epochs and --updates must be at least 1")
    if (args.checkpoint_every is not None and args.checkpoint_every < 1) or (
            args.stop_after is not None and args.stop_after <= 0):
        ap.error("--checkpoint-every must be at least 1 and --stop-after positive")
    if args.stop_after is not None and args.checkpoint_dir is None:
        ap.error("--stop-after needs --checkpoint-dir (where the run resumes from)")
    if args.data_root is not None:
        if not (Path(args.data_root) / "wikitext-2").is_dir():
            ap.error(f"--data-root {args.data_root}: no wikitext-2/ folder in it")
        os.environ["RNNREPRO_DATA"] = str(Path(args.data_root).resolve())
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        ap.error("--device cuda: no CUDA device is available")
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as e:
        ap.error(str(e))
    resume = None
    if args.checkpoint_dir is not None:
        deadline = time.monotonic() + args.stop_after if args.stop_after is not None else None
        resume = lx.Resume(Path(args.checkpoint_dir), args.checkpoint_every,
                           (lambda: time.monotonic() > deadline) if deadline is not None else None)
    for what in (("wt2", "fig2", "fig3") if args.what == "all" else (args.what,)):
        s = seeds if what == "wt2" else [args.seed]
        command = (f"python -m rnnrepro.miller.train_artifacts {what} --size {args.size} --device {args.device} "
                   + (f"--seeds {args.seeds}" if what == "wt2" else f"--seed {args.seed}")
                   + (f" --epochs {args.epochs}" if args.epochs is not None and what != "fig3" else "")
                   + (f" --updates {args.updates}" if args.updates is not None and what == "fig3" else ""))
        try:
            train_one(what, args.size, s, device=args.device, command=command, epochs=args.epochs,
                      updates=args.updates, resume=resume)
        except lm.TrainingInterrupted as e:
            print(f"{what}: {e}\nnot finished: run the same command again to resume from {args.checkpoint_dir}",
                  flush=True)
            return EXIT_RESUME
    return 0


if __name__ == "__main__":
    sys.exit(main())
