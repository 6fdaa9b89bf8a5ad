"""The `fast` profile's time budget, measured and reported, never enforced.

A chapter's `fast` profile is meant to take at most :data:`BUDGET_S` seconds on two idle CPU cores (each
chapter runs on one thread; the book build executes two side by side). Nothing stops a chapter that
takes longer: a slow or busy machine builds the book all the same (the per-cell timeout of
``_config.yml`` is a hang guard of 30 minutes). This reads the ledgers of a build or of ``run``s and
reports each chapter's time and its margin::

    python -m rnnrepro.book.fast_budget                       # the book build's ledgers
    python -m rnnrepro.book.fast_budget _build/runs            # any folder of <key>.ledger.json

It prints one line per chapter and exits 0 whatever the margins are (a benchmark, not a gate). With
``--record`` it also writes the times to :data:`RECORDED` (committed), which the book build reads to start
the longest chapters first on a fresh clone (rnnrepro.site.sphinxext.parallel_execution); a stale record
only changes that order.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rnnrepro.book.paths import REPO

#: The `fast` profile's target wall time per chapter on two idle cores, in seconds.
BUDGET_S = 180.0
BUILD_LEDGERS = REPO / "_build" / "jupyter_execute" / "book" / "chapters"
#: The last recorded `fast` wall time of every chapter, in seconds (``--record``): the build's order.
RECORDED = REPO / "book" / "fast_times.json"


def recorded_seconds(key: str, path: Path | None = None) -> float | None:
    """The recorded `fast` wall time of chapter ``key`` (in ``path``, default :data:`RECORDED`), None when
    there is none."""
    try:
        return float(json.loads(Path(path or RECORDED).read_text())["seconds"][key])
    except (OSError, KeyError, TypeError, ValueError):
        return None


def record(ledgers: dict[str, dict], path: Path | None = None) -> dict:
    """Write the `fast` ledgers' wall times (and the CPU they ran on) to ``path`` (default :data:`RECORDED`);
    return what was written."""
    fast = {k: led for k, led in ledgers.items() if led.get("profile") == "fast"}
    cpus = sorted({led.get("environment", {}).get("cpu", {}).get("model", "?") for led in fast.values()})
    data = {"what": "each chapter's fast-profile wall time in the book build, in seconds: the order in which a "
                    "fresh clone's build starts them (longest first); written by python -m "
                    "rnnrepro.book.fast_budget --record",
            "cpu": ", ".join(cpus),
            "seconds": {k: round(float(led["wall_time_s"]["total"]), 1) for k, led in sorted(fast.items())}}
    Path(path or RECORDED).write_text(json.dumps(data, indent=1) + "\n")
    return data


def margin(wall_s: float, budget_s: float = BUDGET_S) -> float:
    """Seconds left under the budget (negative: over it)."""
    return budget_s - wall_s


def budget_lines(ledgers: dict[str, dict], budget_s: float = BUDGET_S) -> list[str]:
    """One line per `fast` ledger: chapter, wall time, margin, CPU; in the order given."""
    lines = []
    for key, ledger in ledgers.items():
        if ledger.get("profile") != "fast":
            continue
        wall = float(ledger["wall_time_s"]["total"])
        left = margin(wall, budget_s)
        cpu = ledger.get("environment", {}).get("cpu", {})
        lines.append(f"{key:10s} {wall:6.1f} s  margin {left:+6.1f} s of {budget_s:.0f} s"
                     f"{'' if left >= 0 else '  OVER BUDGET'}  ({cpu.get('model', '?')}, {cpu.get('capability', '?')})")
    return lines


def read_ledgers(folder: Path) -> dict[str, dict]:
    """Every ``<key>.ledger.json`` in ``folder`` by chapter key (sorted)."""
    return {path.name.removesuffix(".ledger.json"): json.loads(path.read_text())
            for path in sorted(Path(folder).glob("*.ledger.json"))}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    recording = "--record" in argv
    argv = [a for a in argv if a != "--record"]
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print("usage: python -m rnnrepro.book.fast_budget [--record] [FOLDER of <key>.ledger.json]", file=sys.stderr)
        return 2
    folder = Path(argv[0]) if argv else BUILD_LEDGERS
    ledgers = read_ledgers(folder)
    if not ledgers:
        print(f"no <key>.ledger.json in {folder}: build the book (jupyter-book build --all .) or run a chapter "
              f"(python -m rnnrepro run KEY) first", file=sys.stderr)
        return 2
    print(f"fast-profile budget ({BUDGET_S:.0f} s per chapter on two idle cores), measured, not enforced:")
    print("\n".join(budget_lines(ledgers)))
    if recording:
        record(ledgers)
        print(f"recorded in {RECORDED.relative_to(REPO)} (the order of a fresh clone's build)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
