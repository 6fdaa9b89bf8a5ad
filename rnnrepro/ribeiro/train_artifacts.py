"""Train the shipped language model of the Ribeiro chapter (the temporal-order sweep: :mod:`sweep_runner`).

    python -m rnnrepro.ribeiro.train_artifacts lm --seed 0         # the reduced WikiText-2 language model
    python -m rnnrepro.ribeiro.train_artifacts lm_init             # its initial weights (checked against lm)

Writes ``book/artifacts/ribeiro/<name>.npz/.json`` (rnnrepro.book.artifacts) and updates MANIFEST.json
(command, seed, sha256 of every file). Float32 training, one thread, deterministic. The temporal-order runs
(the paper-configuration sweep ``wss_paper``) are trained by ``python -m rnnrepro.ribeiro.sweep_runner``.
"""

from __future__ import annotations

import argparse
import sys

from rnnrepro.book.artifacts import load_artifact, save_artifact, update_manifest
from rnnrepro.book.paths import REPO

ART_DIR = REPO / "book" / "artifacts" / "ribeiro"


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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("lm", "lm_init"))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    command = f"python -m rnnrepro.ribeiro.train_artifacts {args.what} --seed {args.seed}"
    if args.what == "lm_init":
        save_lm_init(command)
        update_manifest(ART_DIR, ["lm_init"], chapter="ribeiro", command=command,
                        seed=load_artifact(ART_DIR, "lm").config["seed"])
    else:
        from rnnrepro.ribeiro import language_model as lm
        lm.train_and_save(ART_DIR, args.seed, command)
        update_manifest(ART_DIR, ["lm"], chapter="ribeiro", command=command, seed=args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
