"""Train the shipped temporal-order runs (and the language model) of the Ribeiro chapter.

    python -m rnnrepro.ribeiro.train_artifacts wss_good --seed 1   # the good temporal-order run (shipped)
    python -m rnnrepro.ribeiro.train_artifacts wss_bad --seed 0    # the bad temporal-order run
    python -m rnnrepro.ribeiro.train_artifacts lm --seed 0         # the reduced WikiText-2 language model
    python -m rnnrepro.ribeiro.train_artifacts lm_init             # its initial weights (checked against lm)
    python -m rnnrepro.ribeiro.train_artifacts sweep --seeds 0-5 --epochs 150   # paper configuration, per seed

Writes ``book/artifacts/ribeiro/<name>.npz/.json`` (rnnrepro.book.artifacts) and updates MANIFEST.json
(command, seed, sha256 of every file). Float32 training, one thread, deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import torch

from rnnrepro.book.artifacts import load_artifact, parse_seeds, save_artifact, sha256_file
from rnnrepro.book.paths import REPO
from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.roundoff import flipped_sequences, relative_gap

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
    return replay_with_weights(cfg, checkpoint, n_epochs)[0]


def replay_with_weights(cfg: dict, checkpoint: dict, n_epochs: int = REPLAY_EPOCHS, log_every: int = 1):
    """Resume a run from ``checkpoint`` (a :meth:`Trainer.state`, not modified) for n_epochs.

    Returns (history logged every ``log_every`` epochs and at the checkpoint, final weights (D,))."""
    torch.set_num_threads(1)
    model = to.new_model(cfg["hidden"], cfg["seed"])
    trainer = to.Trainer(model, wss_data(cfg, cfg["seed"]), milestones=cfg.get("milestones", (500, 1000, 2000)))
    trainer.load_state(checkpoint)
    history = trainer.run(n_epochs, log_every)
    return history, to.flat(model)


#: The paper's configuration (A.2): T = 150, 1000 + 1000 sequences, 50 units, Adam 1e-3 divided by 10 at
#: epochs 500, 1000, 2000, clip 0.25, batch 100. The number of epochs is not stated (≥ 2000 implied).
PAPER_WSS = dict(T=150, n_train=1000, n_val=1000, hidden=50)


SOLVED_ACC = 0.9     #: "solved": validation accuracy >= 0.9 ...
SOLVED_WINDOW = 10   #: ... over the last SOLVED_WINDOW logged epochs


def sweep_outcome(history: dict, window: int = SOLVED_WINDOW, level: float = SOLVED_ACC) -> dict:
    """Summary of one run: final train/val accuracy, first epoch with val acc >= level (-1: never) and
    whether val acc stays >= level over the last ``window`` logs ("settled")."""
    va = history["val_acc"]
    first = next((e for e, a in zip(history["epoch"], va) if a >= level), -1)
    return dict(train_acc=history["train_acc"][-1], val_acc=va[-1], first_solved=first,
                settled=bool(len(va) >= window and min(va[-window:]) >= level))


def paper_sweep(seeds, epochs: int, log_every: int = 1, verbose: bool = True, on_seed=None) -> list[dict]:
    """Train the paper's configuration (PAPER_WSS) for each seed: about 1 s of one core per epoch.

    Returns per seed dict(seed, theta_final (D,) float32, history, **sweep_outcome(history));
    ``on_seed(results_so_far)`` is called after every seed (to save partial results)."""
    torch.set_num_threads(1)
    out = []
    for seed in seeds:
        cfg = dict(PAPER_WSS, seed=seed)
        model = to.new_model(cfg["hidden"], seed)
        tr = to.Trainer(model, wss_data(cfg, seed))
        h = tr.run(epochs, log_every)
        out.append(dict(seed=seed, theta_final=to.flat(model), history=h, **sweep_outcome(h)))
        if verbose:
            r = out[-1]
            print(f"seed {seed}: train {r['train_acc']:.3f} val {r['val_acc']:.3f} first >= 0.9 at "
                  f"{r['first_solved']} settled {r['settled']}", flush=True)
        if on_seed is not None:
            on_seed(out)
    return out


def save_sweep(results: list[dict], epochs: int, command: str, name: str = "wss_sweep") -> None:
    """Write the per-seed outcomes of :func:`paper_sweep` as artefact ``name`` (final weights stacked
    (n_seeds, D); per-seed histories of accuracy and loss) and update MANIFEST.json."""
    params = {"theta_final": torch.stack([r["theta_final"] for r in results])}
    keys = ("epoch", "train_loss", "train_acc", "val_loss", "val_acc")
    history = {k: [r["history"][k] for r in results] for k in keys}
    config = dict(PAPER_WSS, epochs=epochs, seeds=[r["seed"] for r in results],
                  milestones=[500, 1000, 2000], solved_acc=SOLVED_ACC, solved_window=SOLVED_WINDOW,
                  outcomes=[{k: r[k] for k in ("seed", "train_acc", "val_acc", "first_solved", "settled")}
                            for r in results])
    save_artifact(ART_DIR, name, params, history=history, config=config, command=command)
    _update_manifest([name], command, results[0]["seed"])


def sweep_summary(results: list[dict], epochs: int | None = None) -> dict:
    """Per-seed outcomes of :func:`paper_sweep` as dict(seeds, epochs, outcomes (list of dicts),
    epoch (E,), val_acc (n_seeds, E), train_acc (n_seeds, E), theta_final (n_seeds, D) or None)."""
    if not results:
        return dict(seeds=[], epochs=epochs or 0, outcomes=[], epoch=[], val_acc=[], train_acc=[], theta_final=None)
    keys = ("seed", "train_acc", "val_acc", "first_solved", "settled")
    return dict(seeds=[r["seed"] for r in results], epochs=results[0]["history"]["epoch"][-1],
                outcomes=[{k: r[k] for k in keys} for r in results], epoch=results[0]["history"]["epoch"],
                val_acc=[r["history"]["val_acc"] for r in results],
                train_acc=[r["history"]["train_acc"] for r in results],
                theta_final=torch.stack([r["theta_final"] for r in results]))


def load_sweep(name: str = "wss_sweep") -> dict:
    """The shipped sweep (see :func:`save_sweep`) in the format of :func:`sweep_summary`."""
    a = load_artifact(ART_DIR, name)
    h = a.history
    return dict(seeds=a.config["seeds"], epochs=a.config["epochs"], outcomes=a.config["outcomes"],
                epoch=h["epoch"][0], val_acc=h["val_acc"], train_acc=h["train_acc"],
                val_loss=h["val_loss"], theta_final=torch.as_tensor(a.params["theta_final"]))


def reverify_sweep(sweep: dict) -> tuple[float, int]:
    """Re-evaluate every seed's shipped final weights (float32) on its regenerated validation data.

    Returns (largest relative difference of the validation loss, largest number of flipped sequences)
    against the shipped values (:func:`load_sweep`)."""
    cfg = dict(PAPER_WSS)
    model = to.new_model(cfg["hidden"], 0)
    gap, flips = 0.0, 0
    for k, seed in enumerate(sweep["seeds"]):
        to.set_flat(model, sweep["theta_final"][k])
        loss, acc = to.evaluate(model, *wss_data(dict(cfg, seed=seed), seed)[2:])
        gap = max(gap, relative_gap([loss], [sweep["val_loss"][k][-1]]))
        flips = max(flips, flipped_sequences([acc], [sweep["val_acc"][k][-1]], cfg["n_val"]))
    return gap, flips


def save_lm_init(command: str) -> None:
    """Ship the language model's initial weights (artefact ``lm_init``): regenerated from the shipped model's
    seed, and saved only if their sha256 is the one recorded at training time (the last bit of the uniform
    initialisation differs between CPUs, so regenerating them elsewhere is not exact)."""
    from rnnrepro.ribeiro import language_model as lm
    cfg = load_artifact(ART_DIR, "lm").config
    theta = lm.flat(lm.new_model(cfg, cfg["seed"]))
    if lm.theta_sha256(theta) != cfg["theta_init_sha256"]:
        raise SystemExit("lm_init: the regenerated initial weights differ from those recorded at training time "
                         "(another CPU instruction set?); run this on the machine that trained lm")
    save_artifact(ART_DIR, "lm_init", {"theta_init": theta}, config={"seed": cfg["seed"]}, command=command)


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
    ap.add_argument("what", choices=("wss_good", "wss_bad", "lm", "lm_init", "sweep"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seeds", default="0-5", help="sweep: seeds, e.g. 0-5 or 1,3,4")
    ap.add_argument("--epochs", type=int, default=150, help="sweep: epochs per seed")
    args = ap.parse_args(argv)
    command = f"python -m rnnrepro.ribeiro.train_artifacts {args.what} --seed {args.seed}"
    if args.what == "sweep":
        if args.epochs < 1:
            ap.error("--epochs must be at least 1")
        try:
            seeds = parse_seeds(args.seeds)
        except ValueError as e:
            ap.error(str(e))
        command = f"python -m rnnrepro.ribeiro.train_artifacts sweep --seeds {args.seeds} --epochs {args.epochs}"
        paper_sweep(seeds, args.epochs, on_seed=lambda res: save_sweep(res, args.epochs, command))
    elif args.what in WSS_RUNS:
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
    elif args.what == "lm_init":
        save_lm_init(command)
        _update_manifest(["lm_init"], command, load_artifact(ART_DIR, "lm").config["seed"])
    else:
        from rnnrepro.ribeiro import language_model as lm
        lm.train_and_save(ART_DIR, args.seed, command)
        _update_manifest(["lm"], command, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
