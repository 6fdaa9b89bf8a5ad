"""Saved runs: ``<name>.npz`` (arrays) + ``<name>.json`` (config, history, sha256 of the npz).

The npz is written byte-for-byte deterministically (sorted keys, fixed zip timestamps), so the same
arrays always give the same sha256.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any, Mapping, NamedTuple

import numpy as np

from rnnrepro.data import sha256_file
from rnnrepro.errors import RnnreproError

FORMAT = 1
_DEFAULT_HINT = "rerun the chapter's full profile (see the MANIFEST.json next to it)"


class ArtifactError(RnnreproError, RuntimeError):
    """A missing or corrupted artefact; the message names the file and how to regenerate it."""


class Artifact(NamedTuple):
    params: dict[str, np.ndarray]
    history: dict[str, list]
    config: dict[str, Any]
    meta: dict[str, Any]  # the whole JSON record (sha256, command, shapes, ...)


def _to_numpy(value) -> np.ndarray:
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    arr = np.asarray(value)
    if arr.dtype == object:
        raise ValueError("artefact arrays must be numeric, got dtype=object")
    return arr


def _write_npz(path: Path, arrays: Mapping[str, np.ndarray]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED) as zf:
        for key in sorted(arrays):
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arrays[key]), allow_pickle=False)
            zf.writestr(zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0)), buf.getvalue())
    os.replace(tmp, path)


def _write_json(path: Path, record: Mapping[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)


def save_artifact(directory: str | os.PathLike, name: str, params: Mapping[str, Any],
                  history: Mapping[str, Any] | Any = None, config: Mapping[str, Any] | None = None,
                  command: str | None = None) -> Path:
    """Write ``<directory>/<name>.npz`` and ``<name>.json``; returns the JSON path.

    params: {key: tensor or array}; history: a dict of lists or an object with ``to_dict()``; config: any
    JSON-serialisable dict; command: how to regenerate the files (shown in load errors).
    """
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"invalid artefact name {name!r}")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    arrays = {str(k): _to_numpy(v) for k, v in params.items()}
    npz = directory / f"{name}.npz"
    _write_npz(npz, arrays)
    hist = history.to_dict() if hasattr(history, "to_dict") else dict(history or {})
    record = {"format": FORMAT, "name": name, "npz": npz.name, "sha256": sha256_file(npz),
              "command": command, "config": dict(config or {}), "history": hist,
              "arrays": {k: {"shape": list(a.shape), "dtype": str(a.dtype)} for k, a in arrays.items()}}
    path = directory / f"{name}.json"
    _write_json(path, record)
    return path


def load_artifact(directory: str | os.PathLike, name: str, *, command: str | None = None) -> Artifact:
    """Read an artefact written by ``save_artifact`` after checking the npz's sha256.

    Raises ``ArtifactError`` (one line: the file, the problem, how to regenerate it) when a file is
    missing, unreadable or does not match its recorded hash. ``command`` overrides the regeneration
    hint stored in the JSON.
    """
    directory = Path(directory)
    js, npz = directory / f"{name}.json", directory / f"{name}.npz"

    def fail(path: Path, problem: str, hint: str | None) -> ArtifactError:
        return ArtifactError(f"{path}: {problem}; regenerate it with: {command or hint or _DEFAULT_HINT}")

    if not js.is_file():
        raise fail(js, "missing", None)
    try:
        meta = json.loads(js.read_text())
    except (OSError, ValueError) as exc:
        raise fail(js, f"unreadable ({type(exc).__name__})", None) from exc
    hint = meta.get("command")
    if not npz.is_file():
        raise fail(npz, "missing", hint)
    actual = sha256_file(npz)
    if actual != meta.get("sha256"):
        raise fail(npz, f"sha256 mismatch (recorded {str(meta.get('sha256'))[:12]}..., found {actual[:12]}...)",
                   hint)
    with np.load(npz, allow_pickle=False) as data:
        params = {k: data[k] for k in data.files}
    return Artifact(params, meta.get("history", {}), meta.get("config", {}), meta)


def update_manifest(directory: str | os.PathLike, names, *, chapter: str, command: str, seed) -> Path:
    """Record artefacts ``names`` (each ``<name>.npz`` + ``<name>.json`` in ``directory``) in
    ``<directory>/MANIFEST.json``: per file the command that made it, its seed(s), sha256 and size.
    Other entries are kept; returns the manifest's path."""
    directory = Path(directory)
    path = directory / "MANIFEST.json"
    man = json.loads(path.read_text()) if path.is_file() else {"chapter": chapter, "files": {}}
    for name in names:
        for ext in ("npz", "json"):
            f = directory / f"{name}.{ext}"
            man["files"][f.name] = {"command": command, "seed": seed, "sha256": sha256_file(f),
                                    "bytes": f.stat().st_size}
    path.write_text(json.dumps(man, indent=1, sort_keys=True) + "\n")
    return path


def parse_seeds(text: str) -> list[int]:
    """Seeds on a training command line: '0-5' -> [0, ..., 5]; '1,3,4' -> [1, 3, 4]. Raises ValueError on anything else."""
    seeds = []
    for part in text.split(","):
        lo, sep, hi = part.strip().partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ValueError(f"seeds must look like '0-5' or '1,3,4', got {text!r}")
        seeds += list(range(int(lo), int(hi) + 1)) if sep else [int(lo)]
    if not seeds:
        raise ValueError(f"no seeds in {text!r}")
    return seeds
