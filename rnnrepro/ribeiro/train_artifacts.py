"""Train the shipped language model of the Ribeiro chapter (the temporal-order sweep: :mod:`sweep_runner`).

    python -m rnnrepro.ribeiro.train_artifacts lm --seed 0         # the reduced WikiText-2 language model
    python -m rnnrepro.ribeiro.train_artifacts lm_init             # its initial weights (checked against lm)
    python -m rnnrepro.ribeiro.train_artifacts lm --checkpoint CK --stop-after 600   # in resumable pieces

Writes ``book/artifacts/ribeiro/<name>.npz/.json`` (rnnrepro.book.artifacts) and updates MANIFEST.json
(command, seed, sha256 of every file). Float32 training, one thread, deterministic. The temporal-order runs
(the paper-configuration sweep ``wss_paper``) are trained by ``python -m rnnrepro.ribeiro.sweep_runner``.

The model is the book's word language model (:mod:`rnnrepro.core.language_model`) as Fig. 6 uses it: a
tied LSTM trained with Adam at a constant step, ending with the last epoch's weights, validated on the
first ``n_val_tokens`` tokens of the official valid split. Its configuration is the dict :data:`LM_CONFIG`
(stored with the artefact); :func:`model_config` maps it to the model's
:class:`~rnnrepro.core.language_model.LMConfig`.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import torch

from rnnrepro.book.artifacts import load_artifact, save_artifact, update_manifest
from rnnrepro.book.paths import REPO
from rnnrepro.core import language_model as lm
from rnnrepro.ribeiro.temporal_order import flat

ART_DIR = REPO / "book" / "artifacts" / "ribeiro"
#: Exit code of a run stopped by ``--stop-after`` at a checkpoint (EX_TEMPFAIL: run it again to resume).
EXIT_RESUME = 75

#: Reduced configuration (the paper: vocabulary 33,278, embedding = hidden = 800, dropout 0.5, BPTT 80,
#: batch 100, Adam with plateau schedule, ≤ 100 epochs, trained on the 2.1M-token training split).
LM_CONFIG = dict(vocab=2500, hidden=64, dropout=0.2, bptt=35, batch=32, lr=1e-3, clip=0.25, epochs=6,
                 n_val_tokens=40_000, log_every=20)

#: The paper's configuration (A.3), for a user with the full dataset ($RNNREPRO_DATA/wikitext-2/train.txt).
LM_PAPER_CONFIG = dict(vocab=None, hidden=800, dropout=0.5, bptt=80, batch=100, lr=1e-3, clip=0.25, epochs=100,
                       n_val_tokens=None, log_every=100)


def model_config(cfg: dict) -> lm.LMConfig:
    """The model and trainer of a configuration dict (:data:`LM_CONFIG`, or a shipped artefact's config): a
    tied LSTM (embedding = hidden), Adam at a constant step, the last epoch's weights kept."""
    if cfg["vocab"] is None:
        raise ValueError("the vocabulary size is set by load_corpus (vocab=None: every training token)")
    return lm.LMConfig(cell="lstm", tied=True, optimizer="adam", anneal=1.0, keep_best=False,
                       vocab=cfg["vocab"], emb=cfg["hidden"], hidden=cfg["hidden"], dropout=cfg["dropout"],
                       lr=cfg["lr"], clip=cfg["clip"], bptt=cfg["bptt"], batch=cfg["batch"], epochs=cfg["epochs"])


def load_corpus(cfg: dict, *, train_split: bool = False) -> lm.Corpus:
    """The corpus of a configuration dict: trained on the official *test* split (``train.txt`` when
    ``train_split``), validated on the first ``cfg["n_val_tokens"]`` tokens of the official valid split.
    A vocabulary size of None (every training token) is written back into ``cfg``."""
    c = lm.corpus(cfg["vocab"], train_split=train_split, valid_tokens=cfg["n_val_tokens"])
    if cfg["vocab"] is None:
        cfg["vocab"] = len(c.vocab)
    return c


def theta_sha256(theta: torch.Tensor) -> str:
    """sha256 of a float32 parameter vector's bytes (θ_init is regenerated from the seed, not shipped)."""
    return hashlib.sha256(theta.detach().to(torch.float32).contiguous().numpy().tobytes()).hexdigest()


def train_and_save(directory, seed: int, command: str, *, cfg: dict | None = None,
                   checkpoint: str | Path | None = None, checkpoint_every: int | None = None, stop=None) -> None:
    """Train the reduced model (``cfg``: :data:`LM_CONFIG`) on one thread; save theta_final and the history
    (per update 'update', 'train_loss'; per epoch 'epoch', 'val_loss') as artefact 'lm' (θ_init is
    regenerated from the seed by :func:`~rnnrepro.core.language_model.new_model`; its sha256 is stored in the
    config). ``checkpoint``, ``checkpoint_every``, ``stop``: as in :func:`~rnnrepro.core.language_model.train`
    (which raises :class:`~rnnrepro.core.language_model.TrainingInterrupted` when ``stop()`` says so)."""
    torch.set_num_threads(1)
    cfg = dict(cfg or LM_CONFIG, seed=seed)
    data = load_corpus(cfg)
    model = lm.new_model(model_config(cfg), seed)
    theta_init = flat(model)
    t0 = time.process_time()
    h = lm.train(model, data.train, data.valid, model_config(cfg), record_norm=False, verbose=True,
                 checkpoint=checkpoint, checkpoint_every=checkpoint_every, stop=stop)
    hist = lm_history(h)
    cfg["cpu_s"] = time.process_time() - t0
    cfg["vocab_head"] = data.vocab.itos[:20]
    cfg["theta_init_sha256"] = theta_sha256(theta_init)
    save_artifact(directory, "lm", {"theta_final": flat(model)}, history=hist, config=cfg, command=command)


def lm_history(h: dict) -> dict:
    """The chapter's record of a :func:`~rnnrepro.core.language_model.train` history: per update 'update'
    (1, 2, …) and 'train_loss', per epoch 'epoch' and 'val_loss' (epoch 0 = initialisation)."""
    return {"update": list(range(1, len(h["train_loss"]) + 1)), "train_loss": h["train_loss"],
            "epoch": h["epoch"], "val_loss": h["val_loss"]}


def save_lm_init(command: str) -> None:
    """Ship the language model's initial weights (artefact ``lm_init``): regenerated from the shipped model's
    seed, and saved only if their sha256 is the one recorded at training time (the last bit of the uniform
    initialisation differs between CPUs, so regenerating them elsewhere is not exact)."""
    cfg = load_artifact(ART_DIR, "lm").config
    theta = flat(lm.new_model(model_config(cfg), cfg["seed"]))
    if theta_sha256(theta) != cfg["theta_init_sha256"]:
        raise SystemExit("lm_init: the regenerated initial weights differ from those recorded at training time "
                         "(another CPU instruction set?); run this on the machine that trained lm")
    save_artifact(ART_DIR, "lm_init", {"theta_init": theta}, config={"seed": cfg["seed"]}, command=command)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("lm", "lm_init"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--checkpoint", default=None,
                    help="lm: save the whole training state in this file (every epoch, atomically) and resume from it")
    ap.add_argument("--checkpoint-every", type=int, default=None, help="lm: also checkpoint every N updates")
    ap.add_argument("--stop-after", type=float, default=None,
                    help=f"lm: stop at a checkpoint after this many seconds (exit code {EXIT_RESUME}: run again)")
    args = ap.parse_args(argv)
    if (args.checkpoint_every is not None and args.checkpoint_every < 1) or (
            args.stop_after is not None and args.stop_after <= 0):
        ap.error("--checkpoint-every must be at least 1 and --stop-after positive")
    if (args.stop_after is not None or args.checkpoint_every is not None) and args.checkpoint is None:
        ap.error("--stop-after and --checkpoint-every need --checkpoint (where the run resumes from)")
    command = f"python -m rnnrepro.ribeiro.train_artifacts {args.what} --seed {args.seed}"
    if args.what == "lm_init":
        save_lm_init(command)
        update_manifest(ART_DIR, ["lm_init"], chapter="ribeiro", command=command,
                        seed=load_artifact(ART_DIR, "lm").config["seed"])
        return 0
    deadline = time.monotonic() + args.stop_after if args.stop_after is not None else None
    try:
        train_and_save(ART_DIR, args.seed, command, checkpoint=args.checkpoint, checkpoint_every=args.checkpoint_every,
                       stop=(lambda: time.monotonic() > deadline) if deadline is not None else None)
    except lm.TrainingInterrupted as e:
        print(f"lm: {e}\nnot finished: run the same command again to resume from {args.checkpoint}", flush=True)
        return EXIT_RESUME
    update_manifest(ART_DIR, ["lm"], chapter="ribeiro", command=command, seed=args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
