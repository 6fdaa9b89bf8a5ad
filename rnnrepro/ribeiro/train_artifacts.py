"""Train the shipped temporal-order runs (and the language model) of the Ribeiro chapter.

    python -m rnnrepro.ribeiro.train_artifacts wss_good --seed 0   # the good temporal-order run
    python -m rnnrepro.ribeiro.train_artifacts wss_bad --seed 0    # the bad temporal-order run
    python -m rnnrepro.ribeiro.train_artifacts lm --seed 0      # the reduced WikiText-2 language model

Writes ``book/artifacts/ribeiro/<name>.npz/.json`` (rnnrepro.artifacts) and updates MANIFEST.json
(command, seed, sha256 of every file). Float32 training, one thread, deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import torch

from ..artifacts import save_artifact, sha256_file
from ..paths import REPO
from . import temporal_order as to

ART_DIR = REPO / "book" / "artifacts" / "ribeiro"

#: The two shipped runs. The paper uses one configuration (T = 150, 1000 sequences) and different
#: initial weights; on a CPU budget the good run uses T = 100 and the bad run 100 training sequences.
#: The paper divides the learning rate by 10 at epochs 500, 1000, 2000 of 10 batches each, i.e. after
#: 5000, 10000, 20000 optimiser steps; ``milestones`` are those steps converted to each run's epochs.
WSS_RUNS = {
    "wss_good": dict(T=100, n_train=1000, n_val=1000, hidden=50, epochs=120, log_every=1, stop_after_solved=10,
                     max_seeds=5, milestones=[500, 1000, 2000]),
    "wss_bad": dict(T=150, n_train=100, n_val=1000, hidden=50, epochs=3000, log_every=25, stop_after_solved=None,
                    milestones=[5000, 10000, 20000]),
}
REPLAY_EPOCHS = 8


def wss_data(cfg: dict, seed: int):
    """(Xtr, ytr, Xva, yva) for a run config: training data from seed, validation from seed + 1."""
    Xtr, ytr = to.make_data(cfg["n_train"], cfg["T"], seed)
    Xva, yva = to.make_data(cfg["n_val"], cfg["T"], seed + 1)
    return Xtr, ytr, Xva, yva


def train_wss(name: str, seed: int, epochs: int | None = None, verbose: bool = True) -> dict:
    """Train one temporal-order run; returns dict(theta_init, theta_final, history, checkpoint, config).

    ``checkpoint`` is the full training state REPLAY_EPOCHS//2 + 2 epochs before validation accuracy first
    reaches 0.9 (None if it never does), so the jump can be replayed bit for bit."""
    cfg = dict(WSS_RUNS[name], seed=seed)
    if epochs is not None:
        cfg["epochs"] = epochs
    torch.set_num_threads(1)
    model = to.new_model(cfg["hidden"], seed)
    trainer = to.Trainer(model, wss_data(cfg, seed), milestones=cfg["milestones"])
    theta_init = to.flat(model)
    states = []
    solved_at = []

    def keep(tr):
        states.append(tr.state())
        if tr.history["val_acc"] and tr.history["epoch"][-1] == tr.epoch and tr.history["val_acc"][-1] >= 0.98:
            solved_at.append(tr.epoch)
        if verbose and tr.epoch % max(cfg["log_every"], 10) == 0:
            h = tr.history
            print(f"{name} epoch {tr.epoch}: train {h['train_acc'][-1]:.3f} val {h['val_acc'][-1]:.3f}", flush=True)

    t0 = time.process_time()
    trainer.run(0, cfg["log_every"])
    for _ in range(cfg["epochs"]):
        trainer.run(1, cfg["log_every"], callback=keep)
        if cfg["stop_after_solved"] and solved_at and trainer.epoch - solved_at[0] >= cfg["stop_after_solved"]:
            break
    h = trainer.history
    cfg["cpu_s"] = time.process_time() - t0
    checkpoint = None
    hit = [e for e, a in zip(h["epoch"], h["val_acc"]) if a >= 0.9]
    if hit and cfg["log_every"] == 1:
        start = max(0, hit[0] - (REPLAY_EPOCHS // 2 + 2))
        checkpoint = states[start - 1] if start > 0 else None
    return dict(theta_init=theta_init, theta_final=to.flat(model), history=h, checkpoint=checkpoint, config=cfg)


def replay(cfg: dict, checkpoint: dict, n_epochs: int = REPLAY_EPOCHS) -> dict:
    """Resume a run from a shipped checkpoint for n_epochs; returns its history (one log per epoch)."""
    torch.set_num_threads(1)
    model = to.new_model(cfg["hidden"], cfg["seed"])
    trainer = to.Trainer(model, wss_data(cfg, cfg["seed"]), milestones=cfg.get("milestones", (500, 1000, 2000)))
    trainer.load_state(checkpoint)
    return trainer.run(n_epochs, 1)


#: The paper's configuration (A.2): T = 150, 1000 + 1000 sequences, 50 units, Adam 1e-3 divided by 10 at
#: epochs 500, 1000, 2000, clip 0.25, batch 100. The number of epochs is not stated (≥ 2000 implied).
PAPER_WSS = dict(T=150, n_train=1000, n_val=1000, hidden=50)


def paper_sweep(seeds, epochs: int, log_every: int = 50, verbose: bool = True) -> list[dict]:
    """Train the paper's configuration for each seed (hours on a CPU). Returns per seed
    dict(seed, final train/val accuracy, history)."""
    out = []
    for seed in seeds:
        cfg = dict(PAPER_WSS, seed=seed)
        model = to.new_model(cfg["hidden"], seed)
        tr = to.Trainer(model, wss_data(cfg, seed))
        h = tr.run(epochs, log_every)
        out.append(dict(seed=seed, train_acc=h["train_acc"][-1], val_acc=h["val_acc"][-1], history=h))
        if verbose:
            print(f"seed {seed}: train {h['train_acc'][-1]:.3f} val {h['val_acc'][-1]:.3f}", flush=True)
    return out


def _update_manifest(names, command: str, seed: int):
    path = ART_DIR / "MANIFEST.json"
    man = json.loads(path.read_text()) if path.is_file() else {"chapter": "ribeiro", "files": {}}
    for name in names:
        for ext in ("npz", "json"):
            f = ART_DIR / f"{name}.{ext}"
            man["files"][f.name] = {"command": command, "seed": seed, "sha256": sha256_file(f),
                                    "bytes": f.stat().st_size}
    path.write_text(json.dumps(man, indent=1, sort_keys=True) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("wss_good", "wss_bad", "lm"))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    command = f"python -m rnnrepro.ribeiro.train_artifacts {args.what} --seed {args.seed}"
    if args.what in WSS_RUNS:
        name = args.what
        tried = []
        for seed in range(args.seed, args.seed + WSS_RUNS[name].get("max_seeds", 1)):
            r = train_wss(name, seed)
            tried.append({"seed": seed, "val_acc": r["history"]["val_acc"][-1], "epochs": r["history"]["epoch"][-1]})
            if r["checkpoint"] is not None or name != "wss_good":
                break
        r["config"]["seeds_tried"] = tried
        params = {"theta_init": r["theta_init"], "theta_final": r["theta_final"]}
        if r["checkpoint"] is not None:
            ck = r["checkpoint"]
            params.update(ckpt_theta=ck["theta"], ckpt_adam_m=ck["adam_m"], ckpt_adam_v=ck["adam_v"])
            r["config"].update(ckpt_step=ck["step"], ckpt_epoch=ck["epoch"])
        save_artifact(ART_DIR, name, params, history=r["history"], config=r["config"], command=command)
        _update_manifest([name], command, args.seed)
    else:
        from . import language_model as lm
        lm.train_and_save(ART_DIR, args.seed, command)
        _update_manifest(["lm"], command, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
