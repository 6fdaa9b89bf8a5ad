"""Sensitivity runs: a numerical helper perturbed by a factor must fail at least one paper claim.

A chapter lists the numerical helpers its claims rest on (``Chapter.helpers``, ``"module:function"``).
:func:`sensitivity_run` executes the chapter with one of them wrapped so that every floating-point
number it returns is multiplied by ``factor`` (1.1 or 0.9: a 10 % error). The wrapping is installed by
:func:`apply_from_env` (called by :func:`rnnrepro.book.session.start`) from ``$RNNREPRO_PERTURB``; in
such a run the ledger collects failing rows instead of stopping at the first
(:meth:`rnnrepro.book.ledger.Ledger._fail`), so one run tells which paper claims noticed.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from rnnrepro.errors import ConfigError, RnnreproError
from rnnrepro.book.ledger import PERTURB_ENV

FACTORS = (0.9, 1.1)


def scale(value: Any, factor: float) -> Any:
    """``value`` with every floating-point number in it multiplied by ``factor``.

    Floats, float numpy arrays and float torch tensors are scaled; ints, bools and strings are kept;
    tuples (named ones too), lists and dicts are scaled item by item; anything else is returned as is.
    """
    if isinstance(value, bool) or isinstance(value, (int, str)) or value is None:
        return value
    if isinstance(value, (float, np.floating)):
        return type(value)(value * factor)
    if isinstance(value, np.ndarray):
        return value * factor if np.issubdtype(value.dtype, np.floating) else value
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        if isinstance(value, torch.Tensor):
            return value * factor if value.is_floating_point() else value
    if isinstance(value, tuple):
        items = [scale(v, factor) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, list):
        return [scale(v, factor) for v in value]
    if isinstance(value, dict):
        return {k: scale(v, factor) for k, v in value.items()}
    return value


def resolve(target: str) -> tuple[Any, str, Callable]:
    """``"package.module:name"`` or ``"package.module:Class.method"`` → (owner, attribute, function)."""
    module_name, _, qualname = target.partition(":")
    if not qualname:
        raise ConfigError(f"helper {target!r}: write it as package.module:function")
    try:
        owner = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"helper {target!r}: cannot import {module_name} ({exc})") from None
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part)
    if not callable(getattr(owner, name, None)):
        raise ConfigError(f"helper {target!r}: {qualname} is not a function of {module_name}")
    return owner, name, getattr(owner, name)


def perturb(target: str, factor: float) -> Callable:
    """Replace the helper ``target`` by a wrapper returning its output scaled by ``factor``.

    The replacement is made in the defining module (or class) and in every loaded module that
    imported the function by name; modules imported later get it from the defining module. Returns
    the original function.
    """
    owner, name, original = resolve(target)

    def wrapped(*args, **kwargs):
        return scale(original(*args, **kwargs), factor)

    wrapped.__wrapped__ = original
    wrapped.__name__ = getattr(original, "__name__", name)
    if isinstance(owner, type) and isinstance(owner.__dict__.get(name), staticmethod):
        wrapped = staticmethod(wrapped)
    setattr(owner, name, wrapped)
    for module in list(sys.modules.values()):
        for attr, obj in list(getattr(module, "__dict__", {}).items()):
            if obj is original and module is not owner:
                setattr(module, attr, wrapped)
    return original


def parse_env(text: str) -> list[tuple[str, float]]:
    """``"pkg.mod:f*1.1,pkg.mod:g*0.9"`` → [(target, factor), ...]."""
    pairs = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        target, sep, factor = item.rpartition("*")
        if not sep:
            raise ConfigError(f"${PERTURB_ENV}: {item!r} is not TARGET*FACTOR")
        pairs.append((target, float(factor)))
    return pairs


def apply_from_env() -> list[tuple[str, float]]:
    """Install the perturbations named in ``$RNNREPRO_PERTURB`` (none when it is unset)."""
    pairs = parse_env(os.environ.get(PERTURB_ENV, ""))
    for target, factor in pairs:
        perturb(target, factor)
    return pairs


@dataclass
class SensitivityResult:
    """What one perturbed run broke: failing rows by kind, or the error that stopped it."""

    chapter: str
    helper: str
    factor: float
    failed: dict[str, list[str]] = field(default_factory=dict)   # kind → claim ids
    error: str = ""

    @property
    def detected(self) -> bool:
        """A paper claim failed (a crash of the chapter is reported, but does not count)."""
        return bool(self.failed.get("paper"))

    def line(self) -> str:
        paper = self.failed.get("paper", [])
        other = sum(len(v) for k, v in self.failed.items() if k != "paper")
        what = (f"{len(paper)} paper claims fail (e.g. {paper[0]})" if paper else
                f"NO paper claim fails ({other} other rows)" if not self.error else f"crashed: {self.error}")
        return f"{self.chapter:9s} {self.helper} ×{self.factor:g}: {what}"


def sensitivity_run(chapter: str, helper: str, factor: float, *, out: Path,
                    profile: str = "fast") -> SensitivityResult:
    """Run ``chapter`` with ``helper`` scaled by ``factor``; return which rows failed."""
    import papermill

    from rnnrepro.book.runner import run_chapter

    resolve(helper)   # a bad name fails here, not after minutes
    result = SensitivityResult(chapter, helper, factor)
    previous = os.environ.get(PERTURB_ENV)
    os.environ[PERTURB_ENV] = f"{helper}*{factor!r}"
    ledger_path = Path(out) / f"{chapter}.ledger.json"
    try:
        run_chapter(chapter, profile, out=Path(out), progress=False)
    except papermill.PapermillExecutionError as exc:
        if not ledger_path.is_file():
            result.error = f"{exc.ename}: {(exc.evalue or '').splitlines()[0] if exc.evalue else ''}"[:200]
    finally:
        if previous is None:
            os.environ.pop(PERTURB_ENV, None)
        else:
            os.environ[PERTURB_ENV] = previous
    if ledger_path.is_file():
        for kind, claim_id, _ in json.loads(ledger_path.read_text()).get("failures", []):
            ids = result.failed.setdefault(kind, [])
            if claim_id not in ids:       # a row whose criterion fails and whose control passes fails twice
                ids.append(claim_id)
    return result


def source_commit(root: Path | None = None) -> str:
    """The commit the code of a run comes from: ``git rev-parse HEAD``, ``-dirty`` appended when the
    tree has uncommitted changes, ``unknown`` outside a git checkout. Read it before the runs."""
    from rnnrepro.book.full import git_state
    from rnnrepro.book.paths import REPO

    try:
        head, dirty = git_state(Path(root or REPO))
    except RnnreproError:
        return "unknown"
    return head + ("-dirty" if dirty else "")


def record_results(key: str, results: list[SensitivityResult], *, commit: str, root: Path | None = None,
                   date: str | None = None) -> Path:
    """Record perturbed runs of chapter ``key``, made from ``commit`` (:func:`source_commit`, read
    before they ran), in ``results/sensitivity/<key>.json`` (what the sensitivity page is generated
    from, :mod:`rnnrepro.book.chapter_lists`); return the file.

    Each run replaces the recorded one of the same helper and factor; runs of helpers the registry
    entry no longer lists are dropped. Every failing id is recorded, with the counts per kind."""
    import datetime as _dt

    from rnnrepro.book.chapter_lists import SENSITIVITY_DIR
    from rnnrepro.book.chapters import get_chapter
    from rnnrepro.book.paths import REPO

    root = Path(root or REPO)
    date = date or _dt.date.today().isoformat()
    path = root / SENSITIVITY_DIR / f"{key}.json"
    record = json.loads(path.read_text()) if path.is_file() else {"chapter": key, "runs": []}
    new = {(r.helper, float(r.factor)): {"helper": r.helper, "factor": r.factor, "profile": "fast", "date": date,
                                          "commit": commit, "error": r.error, "failed": r.failed,
                                          "n_failed": {kind: len(ids) for kind, ids in r.failed.items()}}
           for r in results}
    helpers = get_chapter(key).helpers
    kept = [run for run in record["runs"] if (run["helper"], float(run["factor"])) not in new
            and run["helper"] in helpers]
    order = {h: i for i, h in enumerate(helpers)}
    record["runs"] = sorted(kept + list(new.values()), key=lambda r: (order.get(r["helper"], len(order)), r["factor"]))
    if not any(run.get("transcribed") for run in record["runs"]):
        record.pop("note", None)     # the note says where transcribed runs came from
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return path
