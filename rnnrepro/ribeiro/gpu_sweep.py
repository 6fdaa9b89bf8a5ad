"""The temporal-order sweep of a whole seed population on one GPU, shipped like ``wss_paper`` (issue 38).

On the device machine (one command, run tool's timeout_s 590; exit 75 means "stopped at a checkpoint: run the same
command again to resume")::

    set -o pipefail; PYTHONUNBUFFERED=1 python3 -m rnnrepro.ribeiro.gpu_sweep --out /tmp/rnnrepro-gpu-sweep \
        --ship "$OUT" --time-limit 500 2>&1 | tee "$OUT/log.txt"
    # defaults: --seeds 100 --epochs 3000 --snapshots 2999 --snapshot-seeds 10 --name wss_paper100 --device cuda
    # on a fresh machine after exit 75: the returned resume.pt.gz.part* and run.json in an ignored, carried folder,
    # and --resume-from FOLDER

Here, afterwards: ``python -m rnnrepro.ribeiro.gpu_sweep --install DIR [--name wss_paper100]`` checks the shipped
npz against the sha256 its JSON records and copies both into ``book/artifacts/ribeiro`` (MANIFEST.json updated).

All seeds train as one batch (:class:`~rnnrepro.ribeiro.batched_training.BatchedTrainer`'s seed dimension, each
step one replay of a captured CUDA graph, float32, TF32 off) through :func:`sweep_runner.run_task` at the paper's
configuration (T = 150, 1000 + 1000 sequences, batch 100, 50 units, the authors' summed loss, clip 0.25, Adam 1e-3,
lr ÷10 at epochs 500, 1000, 2000), checkpointed every ``--checkpoint-every`` epochs in ``--out``.

``--time-limit S``: the run trains in whole checkpoint intervals; before each piece it checks, at the rate of the
piece before, whether the piece ends within S seconds of the start, and stops at the checkpoint when none fits
(the first interval always runs). It then packs the checkpoint into ``--ship`` (gzip, parts ≤ 15 MiB, as the
device tool returns files) and exits 75: the same command resumes from ``--out`` on the same machine, or with
``--resume-from`` a folder holding the shipped parts on a fresh one. The limit decides where a session stops,
never what is computed: a resumed run equals an uninterrupted one bit for bit (tested on the CPU).
When the last epoch is done, the sweep is exported (:func:`sweep_runner.export`) into ``--ship`` as
``NAME.npz`` and ``NAME.json.gz`` (gzip: the JSON of 100 seeds' histories is near the 16 MiB a returned file may
have). Its config is the checkpoint's, plus ``ran_on`` (device, torch and CUDA versions, TF32 state, seeds ×
epochs and wall time), ``device`` (the same, as fields), ``sessions`` (per session: command, epochs, wall
seconds from its start to its last checkpoint, and :func:`code_sha256`) and ``wall_s`` (their sum); its JSON holds
the npz's sha256 and the commands.

Without a CUDA device the command refuses in one line, unless ``--device cpu`` asks for a smoke run of at most
:data:`CPU_SMOKE_SEED_EPOCHS` seed-epochs (CPU sweeps are ``sweep_runner``'s job).
"""
from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import platform
import shlex
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import torch

from rnnrepro.ribeiro.sweep_runner import add_schedule_args

EXIT_RESUME = 75                 #: stopped at a checkpoint by --time-limit (EX_TEMPFAIL): run again to resume
PART_BYTES = 15 * 2 ** 20        #: largest part of a packed checkpoint (the device tool returns files ≤ 16 MiB)
CPU_SMOKE_SEED_EPOCHS = 100      #: largest seeds × epochs a --device cpu smoke run accepts
RESUME_STEM = "resume.pt.gz"     #: packed checkpoint parts: resume.pt.gz.part00, .part01, …
RUN_RECORD = "run.json"          #: the shipped record of a run's sessions (command, epochs, wall time, device)


def next_stop(done: int, total: int, every: int, seconds_per_epoch: float | None, seconds_left: float) -> int:
    """The epoch to train to next: the furthest checkpoint (a multiple of ``every``, or ``total``) after ``done``
    that ``seconds_per_epoch`` lets finish within ``seconds_left``; the first one when the rate is not yet known
    (None); ``done`` itself when none fits."""
    if min(done, total - done, every) < 0 or every == 0:
        raise ValueError(f"need 0 <= done <= total and every > 0, got done={done}, total={total}, every={every}")
    stops = [*range((done // every + 1) * every, total, every), total] if done < total else []
    if seconds_per_epoch is None:
        return stops[0] if stops else done
    fit = [e for e in stops if (e - done) * seconds_per_epoch <= seconds_left]
    return fit[-1] if fit else done


def device_record(device: str) -> dict:
    """The machine a run trains on: name, torch and CUDA versions, and whether TF32 is off for matrix products
    and convolutions (read after :func:`sweep_runner.run_task` has turned it off)."""
    dev = torch.device(device)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else (platform.processor() or platform.machine())
    return dict(type=dev.type, name=name, torch=torch.__version__, cuda=torch.version.cuda,
                tf32_off=not torch.backends.cuda.matmul.allow_tf32 and not torch.backends.cudnn.allow_tf32,
                float32_matmul_precision=torch.get_float32_matmul_precision(),
                cuda_graphs=dev.type == "cuda")


#: the modules whose arithmetic a run's numbers come from (their sha256 is recorded per session)
CODE = ("temporal_order.py", "batched_training.py", "paper_sweep.py", "sweep_runner.py", "gpu_sweep.py")


def code_sha256() -> str:
    """One sha256 over the sources of :data:`CODE` (in that order): which code trained a session."""
    import hashlib
    digest = hashlib.sha256()
    for name in CODE:
        digest.update(Path(__file__).with_name(name).read_bytes())
    return digest.hexdigest()


def ran_on(record: dict, n_seeds: int, epochs: int) -> str:
    """The artefact's one-line ``ran_on`` (as wss_paper's: the device first, details in parentheses; the devices
    of all sessions, the software of the last)."""
    dev, wall, k = record["device"], record["wall_s"], len(record["sessions"])
    how = "CUDA graph replay" if dev["cuda_graphs"] else "eager"
    names = " + ".join(dict.fromkeys(s.get("device", dev["name"]) for s in record["sessions"]))
    return (f"{names or dev['name']} ({how}, torch {dev['torch']}" + (f", CUDA {dev['cuda']}" if dev["cuda"] else "")
            + (", TF32 off" if dev["tf32_off"] else ", TF32 ON") + f"), {n_seeds} seeds x {epochs} epochs in "
            f"{wall:.0f} s" + (f" over {k} sessions" if k > 1 else ""))


def pack(path: Path, ship: Path) -> list[Path]:
    """Write the file ``path`` gzipped into ``ship`` as parts of at most :data:`PART_BYTES`; returns them."""
    data = gzip.compress(path.read_bytes(), compresslevel=1, mtime=0)
    for old in ship.glob(f"{RESUME_STEM}.part*"):
        old.unlink()
    parts = []
    for k in range(0, len(data), PART_BYTES):
        parts.append(ship / f"{RESUME_STEM}.part{k // PART_BYTES:02d}")
        parts[-1].write_bytes(data[k:k + PART_BYTES])
    return parts


def unpack(src: Path, path: Path) -> None:
    """Rebuild the file ``path`` (atomically) from the parts :func:`pack` wrote into ``src``."""
    parts = sorted(src.glob(f"{RESUME_STEM}.part*"))
    if not parts:
        raise SystemExit(f"gpu_sweep: no {RESUME_STEM}.part* files in {src} to resume from")
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(gzip.decompress(b"".join(p.read_bytes() for p in parts)))
    os.replace(tmp, path)


def ship_artefact(checkpoint: Path, ship: Path, *, name: str, record: dict, keep: set[int],
                  snapshot_seeds: int | None) -> Path:
    """Export the finished checkpoint as artefact ``name`` into ``ship`` (npz + gzipped JSON) with the run
    record in its config; returns the gzipped JSON's path."""
    from rnnrepro.ribeiro.sweep_runner import export

    state = torch.load(checkpoint, weights_only=False)
    command = "; ".join(s["command"] for s in record["sessions"])
    js = export(str(checkpoint), name=name, command=command, keep=keep, snapshot_seeds=snapshot_seeds,
                ran_on=ran_on(record, len(state["seeds"]), int(state["epoch"])), directory=ship, manifest=False,
                extra_config=dict(device=record["device"], sessions=record["sessions"], wall_s=record["wall_s"]))
    gz = js.with_name(js.name + ".gz")
    gz.write_bytes(gzip.compress(js.read_bytes(), mtime=0))
    js.unlink()
    return gz


def install(src: Path, name: str, art_dir: Path | None = None) -> Path:
    """Copy a shipped ``name.npz`` + ``name.json[.gz]`` from ``src`` into ``art_dir`` (default: the chapter's
    artefact folder) after checking the npz against the sha256 the JSON records; update MANIFEST.json."""
    from rnnrepro.book.artifacts import load_artifact, update_manifest
    from rnnrepro.data import sha256_file
    from rnnrepro.ribeiro.train_artifacts import ART_DIR

    art_dir = Path(art_dir or ART_DIR)
    js, gz, npz = src / f"{name}.json", src / f"{name}.json.gz", src / f"{name}.npz"
    text = js.read_bytes() if js.is_file() else gzip.decompress(gz.read_bytes()) if gz.is_file() else None
    if text is None or not npz.is_file():
        raise SystemExit(f"gpu_sweep: {src} holds no {name}.npz with {name}.json or {name}.json.gz")
    record = json.loads(text)
    if sha256_file(npz) != record["sha256"]:
        raise SystemExit(f"gpu_sweep: {npz} does not match the sha256 in its JSON; fetch the files again")
    art_dir.mkdir(parents=True, exist_ok=True)
    (art_dir / js.name).write_bytes(text)
    shutil.copyfile(npz, art_dir / npz.name)
    load_artifact(art_dir, name)                        # reads back, checks the sha256 again
    return update_manifest(art_dir, [name], chapter="ribeiro", command=record["command"],
                           seed=record["config"]["seeds"])


def refuse_without_cuda(device: str, n_seeds: int, epochs: int) -> None:
    """One line (exit status 1) when a CUDA run finds no CUDA device, or a CPU run is more than a smoke test."""
    kind = device.split(":")[0]
    if kind not in ("cuda", "cpu"):
        raise SystemExit(f"gpu_sweep: device {device!r} is neither cuda nor cpu")
    if kind == "cuda" and not torch.cuda.is_available():
        raise SystemExit("gpu_sweep: no CUDA device here (torch.cuda.is_available() is False); run it on a GPU "
                         "machine, or pass --device cpu for a smoke run of a few seeds and epochs")
    if kind == "cpu" and n_seeds * epochs > CPU_SMOKE_SEED_EPOCHS:
        raise SystemExit(f"gpu_sweep: --device cpu is for smoke runs of at most {CPU_SMOKE_SEED_EPOCHS} seed-epochs "
                         f"(asked {n_seeds} x {epochs}); train CPU sweeps with python -m rnnrepro.ribeiro.sweep_runner")


def train(seeds: Sequence[int], *, out: Path, ship: Path, epochs: int, time_limit: float, command: str,
          name: str = "wss_paper100", T: int = 150, n: int = 1000, hidden: int = 50, checkpoint_every: int = 100,
          eval_every: int = 10, snapshots: Sequence[int] = (), snapshot_seeds: int | None = 10,
          device: str = "cuda", resume_from: Path | None = None, clock=time.monotonic) -> int:
    """Train ``seeds`` as one batch to ``epochs`` (resuming from ``out``, or from ``resume_from``'s packed parts),
    stopping at a checkpoint when the next piece would end after ``time_limit`` seconds; return 0 after shipping
    the artefact into ``ship``, or :data:`EXIT_RESUME` after shipping the packed checkpoint and run record."""
    from rnnrepro.ribeiro.sweep_runner import run_task, task_path

    start = clock()
    seeds = [int(s) for s in seeds]
    out.mkdir(parents=True, exist_ok=True)
    ship.mkdir(parents=True, exist_ok=True)
    checkpoint = Path(task_path(str(out), seeds))
    rec_path = checkpoint.with_suffix(".run.json")          # this seed batch's sessions
    if resume_from is not None and not checkpoint.exists():
        unpack(resume_from, checkpoint)
        if (resume_from / RUN_RECORD).is_file():
            shutil.copyfile(resume_from / RUN_RECORD, rec_path)
    record = json.loads(rec_path.read_text()) if rec_path.is_file() else dict(sessions=[], wall_s=0.0)
    done = int(torch.load(checkpoint, weights_only=False)["epoch"]) if checkpoint.exists() else 0
    first, rate = done, None
    print(f"gpu_sweep: seeds {seeds[0]}..{seeds[-1]} as one batch on {device_record(device)['name']}, "
          f"from epoch {done} to {epochs}, time limit {time_limit:.0f} s", flush=True)
    while done < epochs:
        stop = next_stop(done, epochs, checkpoint_every, rate, time_limit - (clock() - start))
        if stop == done:
            break
        t0 = clock()
        run_task(seeds, out=str(out), epochs=stop, T=T, n=n, hidden=hidden, checkpoint_every=checkpoint_every,
                 eval_every=eval_every, device=device, snapshots=tuple(snapshots), trainer="batched")
        rate, done = (clock() - t0) / (stop - done), stop
        if torch.device(device).type == "cuda":     # the finished piece's trainer and graph: free them now
            gc.collect()
            torch.cuda.empty_cache()
        print(f"gpu_sweep: epoch {done}/{epochs} of {len(seeds)} seeds, {rate:.3f} s per epoch, "
              f"{clock() - start:.0f} s into this session, about {rate * (epochs - done):.0f} s to go", flush=True)
    record["device"] = device_record(device)
    if done > first or not record["sessions"]:     # a re-run of a finished command adds no session
        record["sessions"].append(dict(command=command, from_epoch=first, to_epoch=done, wall_s=clock() - start,
                                       device=record["device"]["name"], code_sha256=code_sha256()))
    record["wall_s"] = sum(s["wall_s"] for s in record["sessions"])
    rec_path.write_text(json.dumps(record, indent=1) + "\n")
    if done < epochs:
        shutil.copyfile(rec_path, ship / RUN_RECORD)
        parts = pack(checkpoint, ship)
        print(f"gpu_sweep: stopped at epoch {done} of {epochs} (time limit {time_limit:.0f} s); checkpoint in {out} "
              f"and packed into {len(parts)} part(s) in {ship}; run the same command again to resume", flush=True)
        return EXIT_RESUME
    gz = ship_artefact(checkpoint, ship, name=name, record=record, keep=set(snapshots), snapshot_seeds=snapshot_seeds)
    _say_outcomes(gz)
    return 0


def _say_outcomes(gz: Path) -> None:
    """Print how many seeds end solved / memorised / other (a look at the run, not a claim)."""
    import numpy as np

    from rnnrepro.ribeiro.paper_sweep import outcome_labels

    rec = json.loads(gzip.decompress(gz.read_bytes()))
    h, cfg = rec["history"], rec["config"]
    labels = outcome_labels(h["train_acc"][-1], h["val_acc"][-1], n_val=cfg["n_val"])
    counts = {str(k): int(v) for k, v in zip(*np.unique(labels, return_counts=True))}
    print(f"gpu_sweep: shipped {gz.name} and {gz.name[:-8]}.npz ({cfg['ran_on']}); final outcomes {counts}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_schedule_args(ap)
    ap.add_argument("--install", metavar="DIR", help="copy a shipped artefact from DIR into book/artifacts/ribeiro")
    ap.add_argument("--name", default="wss_paper100", help="artefact name")
    ap.add_argument("--out", help="checkpoint folder (kept between sessions on one machine)")
    ap.add_argument("--ship", help="where the artefact, or the packed checkpoint, is written (the device's $OUT)")
    ap.add_argument("--resume-from", default=None, help="a folder holding a shipped resume.pt.gz.part* and run.json")
    ap.add_argument("--time-limit", type=float, default=500.0,
                    help="seconds of training per session; stops at a checkpoint before it (exit 75: run again)")
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--hidden", type=int, default=50)
    ap.add_argument("--snapshots", default=None, help="epochs whose optimiser state is shipped (default: epochs - 1)")
    ap.add_argument("--snapshot-seeds", type=int, default=10, help="ship the snapshots of the first K seeds")
    ap.add_argument("--device", default="cuda", help="cuda, or cpu for a smoke run")
    a = ap.parse_args(argv)
    if a.install:
        print(f"gpu_sweep: installed {a.name}; {install(Path(a.install), a.name)} updated")
        return 0
    refuse_without_cuda(a.device, a.seeds, a.epochs)
    if not (a.out and a.ship):
        ap.error("--out DIR and --ship DIR are required to train")
    if a.time_limit <= 0 or a.checkpoint_every < 1 or a.epochs < 1 or a.seeds < 1:
        ap.error("--time-limit, --checkpoint-every, --epochs and --seeds must be positive")
    if not 1 <= a.eval_every <= a.epochs:
        ap.error(f"--eval-every must be between 1 and --epochs ({a.epochs}): the artefact ships validation history")
    snaps = [int(e) for e in a.snapshots.split(",") if e] if a.snapshots is not None else [a.epochs - 1]
    return train(range(a.first_seed, a.first_seed + a.seeds), out=Path(a.out), ship=Path(a.ship), epochs=a.epochs,
                 time_limit=a.time_limit, command=shlex.join(["python3", "-m", "rnnrepro.ribeiro.gpu_sweep", *argv]),
                 name=a.name, T=a.T, n=a.n, hidden=a.hidden, checkpoint_every=a.checkpoint_every,
                 eval_every=a.eval_every, snapshots=[e for e in snaps if 0 < e <= a.epochs],
                 snapshot_seeds=min(a.snapshot_seeds, a.seeds), device=a.device,
                 resume_from=Path(a.resume_from) if a.resume_from else None)


if __name__ == "__main__":
    sys.exit(main())
