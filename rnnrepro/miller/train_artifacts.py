"""Train the shipped WikiText-2 runs of the Miller chapter (§7.2).

    python -m rnnrepro.miller.train_artifacts wt2 --seeds 0-3     # stable vs unconstrained RNN (4 seeds)
    python -m rnnrepro.miller.train_artifacts fig2 --seed 0       # input-gradient profiles, RNN and LSTM
    python -m rnnrepro.miller.train_artifacts fig3 --seed 0       # k-sweeps (sliding window; TBPTT variant)
    python -m rnnrepro.miller.train_artifacts all --size full --device cuda   # the paper's sizes, on a GPU

Writes ``book/artifacts/miller/<what>.npz/.json`` (``<what>_full`` with ``--size full``; histories and
summaries only, no weights) and updates MANIFEST.json (command, seed, sha256, bytes). The small size is
float32 on one CPU thread and deterministic; the chapter replays its first updates to re-verify it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace

import torch

from rnnrepro.book.artifacts import parse_seeds, save_artifact, sha256_file
from rnnrepro.book.paths import REPO
from rnnrepro.miller import lm_experiments as lx

ART_DIR = REPO / "book" / "artifacts" / "miller"
CONTROL_SEEDS = [0]


def _update_manifest(name: str, command: str, seed) -> None:
    path = ART_DIR / "MANIFEST.json"
    man = json.loads(path.read_text()) if path.is_file() else {"chapter": "miller", "files": {}}
    for ext in ("npz", "json"):
        f = ART_DIR / f"{name}.{ext}"
        man["files"][f.name] = {"command": command, "seed": seed, "sha256": sha256_file(f), "bytes": f.stat().st_size}
    path.write_text(json.dumps(man, indent=1, sort_keys=True) + "\n")


def train_one(what: str, size: str, seeds: list[int], device: str, command: str, verbose: bool = True,
              epochs: int | None = None, updates: int | None = None) -> str:
    """Run one experiment and save it as an artefact; returns its name. ``epochs`` overrides the
    epochs of every configuration of the size, ``updates`` the number of Fig. 3 updates."""
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
                            verbose)
    elif what == "fig2":
        arrays = lx.run_fig2(size, seeds[0], corpus, device, verbose)
    else:
        arrays = lx.run_fig3(size, seeds[0], corpus, device)
    name = what if size == "small" else f"{what}_{size}"
    cfgs = {k: v.to_dict() for k, v in lx.SIZES[size].items() if hasattr(v, "to_dict")}
    other = {k: v for k, v in lx.SIZES[size].items() if not hasattr(v, "to_dict") and k != "vocab"}
    config = dict(size=size, seeds=seeds, control_seeds=CONTROL_SEEDS, device=device, vocab=len(corpus.vocab),
                  train_tokens=int(corpus.train.numel()), configs=cfgs, **other, ks=lx.KS, k_ref=lx.K_REF,
                  wall_s=time.time() - t0, cpu_s=time.process_time() - c0, torch=torch.__version__,
                  vocab_head=corpus.vocab.itos[:20])
    save_artifact(ART_DIR, name, {k: torch.as_tensor(v).to(torch.float64) for k, v in arrays.items()},
                  config=config, command=command)
    _update_manifest(name, command, seeds if len(seeds) > 1 else seeds[0])
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
    args = ap.parse_args(argv)
    if (args.epochs is not None and args.epochs < 1) or (args.updates is not None and args.updates < 1):
        ap.error("--epochs and --updates must be at least 1")
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        ap.error("--device cuda: no CUDA device is available")
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as e:
        ap.error(str(e))
    for what in (("wt2", "fig2", "fig3") if args.what == "all" else (args.what,)):
        s = seeds if what == "wt2" else [args.seed]
        command = (f"python -m rnnrepro.miller.train_artifacts {what} --size {args.size} --device {args.device} "
                   + (f"--seeds {args.seeds}" if what == "wt2" else f"--seed {args.seed}")
                   + (f" --epochs {args.epochs}" if args.epochs is not None and what != "fig3" else "")
                   + (f" --updates {args.updates}" if args.updates is not None and what == "fig3" else ""))
        train_one(what, args.size, s, args.device, command, epochs=args.epochs, updates=args.updates)
    return 0


if __name__ == "__main__":
    sys.exit(main())
