"""The paper-scale ``full`` results, shipped: ``book/artifacts/<key>/full/``.

``python -m rnnrepro ship-full KEY`` executes the chapter's ``full`` profile (hours of CPU for some
chapters, so not in CI), and copies its ledger and figure data into the chapter's artefact folder
with a ``MANIFEST.json`` (command, commit, machine, wall time, sha256 of every file; with
``--lower-isa`` also the result and wall time of a second run with torch's kernels forced one
instruction set lower, side by side with the first when the machine has two cores: chapters run on one
thread). The book build reads them back (:func:`shipped_full`) to show every claim's
``full`` verdict beside its ``fast`` one; each chapter's ``fast`` run re-verifies a piece of it.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rnnrepro.errors import RnnreproError
from rnnrepro.book.paths import REPO, code_sha256
from rnnrepro.data import sha256_file

MANIFEST = "MANIFEST.json"


def full_dir(key: str) -> Path:
    """Where chapter ``key``'s shipped full results are: ``book/artifacts/<key>/full``."""
    return REPO / "book" / "artifacts" / key / "full"


def shipped_full(key: str) -> dict | None:
    """The shipped full-profile ledger of chapter ``key`` (ledger JSON schema), or None if none is shipped.

    Adds ``"manifest"`` (the MANIFEST.json record) and ``"stale"`` (True when the chapter's code
    changed since: :func:`~rnnrepro.book.paths.code_sha256` of the notebook differs from the one the
    ledger was written from; for a ledger older than that field, any change of the notebook). Raises
    :class:`RnnreproError` when a shipped file is missing or differs from its recorded sha256.
    """
    folder = full_dir(key)
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        return None
    manifest = json.loads(manifest_path.read_text())
    for name, digest in manifest["files"].items():
        path = folder / name
        if not path.is_file() or sha256_file(path) != digest:
            raise RnnreproError(f"shipped full result {path} is missing or corrupted (sha256 differs from "
                                f"{manifest_path}): restore it with git, or re-create it with "
                                f"`python -m rnnrepro ship-full {key}`")
    ledger = json.loads((folder / f"{key}.ledger.json").read_text())
    from rnnrepro.book.chapters import get_chapter

    notebook = REPO / get_chapter(key).notebook
    ledger["manifest"] = manifest
    if ledger.get("code_sha256"):
        ledger["stale"] = ledger["code_sha256"] != code_sha256(notebook)
    else:
        ledger["stale"] = ledger.get("source_sha256") != sha256_file(notebook)
    return ledger


def full_claim(key: str, claim_id: str) -> dict | None:
    """The row ``claim_id`` of the shipped full ledger of ``key`` (None if not shipped or absent)."""
    ledger = shipped_full(key)
    if ledger is None:
        return None
    return next((c for c in ledger["claims"] if c["id"] == claim_id), None)


def git_state(repo: Path = REPO) -> tuple[str, list[str]]:
    """(commit, uncommitted paths) of the checkout ``repo``: ``git rev-parse HEAD`` and every path
    ``git status --porcelain`` lists (changed, staged or untracked and not ignored). Raises
    RnnreproError when ``repo`` is not a git checkout or git cannot be run."""
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True)
        status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True,
                                check=True)
    except (OSError, subprocess.CalledProcessError):
        raise RnnreproError(f"{repo} is not a git checkout with a commit (or git cannot be run): a shipped "
                            f"result records the commit it was made from, so ship from a clone") from None
    return rev.stdout.strip(), [line[3:] for line in status.stdout.splitlines() if line.strip()]


def _git_commit() -> str:
    """The commit to record; RnnreproError (one line, naming the fix) when the tree has uncommitted
    changes, so that the commit names exactly the code the result came from."""
    commit, dirty = git_state(REPO)
    if dirty:
        shown = ", ".join(dirty[:3]) + (f" and {len(dirty) - 3} more" if len(dirty) > 3 else "")
        raise RnnreproError(f"the working tree has uncommitted changes ({shown}): commit them (or ship from a "
                            f"clean clone) first; a shipped result records the commit it was made from")
    return commit


def _run_full(key: str, out: Path, env: dict | None = None) -> tuple[int, float, str]:
    """``python -m rnnrepro run KEY --profile full --out OUT`` in a subprocess: (exit code, wall s, tail)."""
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "rnnrepro", "run", key, "--profile", "full", "--out", str(out)],
                         cwd=REPO, env=dict(os.environ, **(env or {})), capture_output=True, text=True)
    return res.returncode, time.perf_counter() - t0, (res.stdout + res.stderr)[-2000:]


def ship_full(key: str, *, lower_isa: bool = False, log=print) -> dict:
    """Run chapter ``key`` at ``full`` and ship its ledger and figure data with a manifest.

    With ``lower_isa`` the full profile also runs with torch's kernels forced one instruction set
    lower (:func:`rnnrepro.book.machine.lower_isa_env`); both must pass. Returns the manifest.
    Raises :class:`RnnreproError` (nothing run, nothing shipped) when the working tree has
    uncommitted changes, and (nothing shipped) when a run fails.
    """
    from rnnrepro.book.chapters import get_chapter
    from rnnrepro.book.machine import cpu_info, lower_isa_env, usable_cores

    get_chapter(key)
    commit = _git_commit()   # refuses an uncommitted tree in a second, before anything runs or is written
    with tempfile.TemporaryDirectory(prefix=f"rnnrepro-full-{key}-") as tmp:
        plans = [("native", None)] + ([("lower_isa", lower_isa_env())] if lower_isa else [])
        for name, env in plans:
            log(f"[ship-full] {key}: full profile ({name}{', ' + str(env) if env else ''}) ...")
        # A chapter runs on one thread (seed_everything), so the two legs run side by side where there are
        # two cores: the wall time of a --lower-isa ship is about one run's.
        with ThreadPoolExecutor(max_workers=min(len(plans), usable_cores())) as pool:
            done = list(pool.map(lambda plan: _run_full(key, Path(tmp) / plan[0], plan[1]), plans))
        runs = {}
        for (name, env), (code, wall, tail) in zip(plans, done):
            if code != 0:
                raise RnnreproError(f"{key} full ({name}) failed after {wall:.0f} s; nothing shipped:\n{tail}")
            ledger = json.loads((Path(tmp) / name / f"{key}.ledger.json").read_text())
            runs[name] = {"wall_time_s": round(wall, 1), "env": env or {},
                          "cpu": ledger["environment"]["cpu"], "counts": ledger["counts"]}
            log(f"[ship-full] {key}: {name} passed in {wall:.0f} s")
        folder = full_dir(key)
        if folder.exists():
            shutil.rmtree(folder)
        (folder / f"{key}.figures").mkdir(parents=True)
        native = Path(tmp) / "native"
        shutil.copy2(native / f"{key}.ledger.json", folder / f"{key}.ledger.json")
        for npz in sorted((native / f"{key}.figures").glob("*.npz")):
            shutil.copy2(npz, folder / f"{key}.figures" / npz.name)
    files = {str(p.relative_to(folder)): sha256_file(p) for p in sorted(folder.rglob("*")) if p.is_file()}
    manifest = {"chapter": key, "profile": "full", "command": f"python -m rnnrepro ship-full {key}"
                + (" --lower-isa" if lower_isa else ""), "commit": commit,
                "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                "machine": cpu_info(), "runs": runs, "files": files}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest
