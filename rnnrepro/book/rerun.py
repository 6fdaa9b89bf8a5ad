"""Two executions of one chapter compared: the book build's, and a re-run with torch's and numpy's
kernels forced one instruction set lower (:func:`rnnrepro.book.machine.lower_isa_env`).

One re-run checks two things that used to take two: that the chapter is deterministic (the same code
and seeds give the same rows) and that no row depends on the last bits of the machine's arithmetic
(every claim still holds where float32 results differ in their last bits). What must be equal is
equal: each row's id, kind, status, whether it holds and whether its control holds, every string and
boolean. Numbers may differ by what changing the instruction set can do to them:

- a float within ``rtol`` of the other (relative to the larger magnitude), or both below ``atol``
  (values at round-off level, such as a measured float64 difference of 4e-16, are noise in every digit);
- an integer (a count of seeds, a window length) exactly;
- a glued timing of the run itself (``<key>.meta.cpu_s``) not at all.

A statistic of a chaotic orbit is the exception: a last bit changes the orbit itself, and the statistic
moves within its sampling spread. Those values are named in :data:`ISA_SENSITIVE`, each with its own
tolerance and the reason. A chapter made of such values throughout is named in :data:`ISA_CHAOTIC`:
there only the rows and their verdicts (id, kind, status, holds, whether the control holds) are compared,
and the chapter's own replay rows check its determinism within a run. A difference beyond the
tolerance (an unseeded draw, an order that depends on the process, a row that a last bit decides) is
reported with both values.
"""

from __future__ import annotations

import math
import re
from typing import Any

#: Relative difference a changed instruction set may make to a recorded float (see the module).
RTOL = 1e-3
#: Below this magnitude two floats are both round-off and compare equal.
ATOL = 1e-9
#: Values (a row's id: its measured value, its control and a glued value of that name) that a last bit
#: moves by more than :data:`RTOL`: id → (relative tolerance, why), or (None, why) for a value that is
#: round-off itself (a replay's distance, a gap at the float's resolution): its row's verdict is compared,
#: its number is not. Measured AVX-512 against AVX2.
ISA_SENSITIVE: dict[str, tuple[float | None, str]] = {
    # Each tolerance is about three times the difference measured between AVX-512 and AVX2 on the build
    # machine (Intel Xeon, 2026-12-06); the value's row keeps its verdict, which is compared exactly.
    "dynamics.attractor.chaos": (0.05, "a finite-time Lyapunov exponent on a chaotic attractor: a last bit changes "
                                       "the orbit; 0.0048 apart"),
    "dynamics.attractor.fixed_point_exponent": (0.05, "its control is the chaotic map's finite-time exponent: "
                                                      "0.0018 apart"),
    "cayci.cutoff.above_degrades": (0.25, "the smallest loss of gradient descent above the cutoff (alpha = 1.5), "
                                          "where gradients grow with T and a last bit moves the path: 0.071 apart"),
    "cayci.cutoff.below_insensitive": (0.25, "its control is the same loss above the cutoff: 0.071 apart"),
    "cayci.cutoff.incr_ratio": (0.25, "a ratio of log-increments of that loss: 0.071 apart"),
    "li.fig4.jump_big_lr": (0.5, "the largest one-step loss ratio of gradient descent at five times the step, "
                                 "which oscillates: 0.12 apart"),
    "li.fig4.jump_lr": (0.05, "the largest one-step loss ratio at the profile's step: 0.010 apart"),
    # miller: replays of shipped float32 training are bit for bit on the instruction set that made them
    # (0) and a few roundings apart on another; gaps measured at lambda^k reach the float's resolution.
    "miller.wt2.replay": (None, "a float32 replay of shipped training: 0 natively, 0.019 of its tolerance on AVX2"),
    "miller.fig2.replay": (None, "a float32 replay of shipped training: 0 natively, 0.12 of its tolerance on AVX2"),
    "miller.fig2.profile_replay": (None, "a float32 replay of shipped training: 0 natively, 6e-8 on AVX2"),
    "miller.fig3.replay": (None, "a float32 replay of shipped training: 0 natively, 0.067 of its tolerance on AVX2"),
    "miller.fig2.replay_span": (None, "the epochs a float32 replay spans within its tolerance: 28 then 30"),
    "miller.fig2.contraction_attained": (None, "a contraction gap at round-off: 3.8e-9 then 1.7e-10"),
    "miller.fig1a.rnn_scaling": (None, "a truncation gap at lambda^k near the float64 resolution: 1.4e-8 then 1.2e-8"),
    "miller.lemma1.tanh_faster": (None, "its control is a decay slope read at round-off: 1.4e-3 then 7.2e-4"),
    "miller.prop2.k_sweep": (None, "its control is a slope of distances at round-off: 2.2e-4 then 2.5e-3"),
}
#: Chapters whose numbers a last bit moves throughout (chapter key → why): only their rows and verdicts
#: are compared (:func:`compare_ledgers`). Measured AVX-512 against AVX2 on the build machine.
ISA_CHAOTIC: dict[str, str] = {
    "ribeiro": "its sections integrate chaotic orbits (Lyapunov exponents 1-4 % apart, minima of a chaotic "
               "landscape counted 527 then 536, gradients that grow like e^{lambda T} a factor 7 apart at T = 150) "
               "and train float32 networks, whose replays differ by a few float32 roundings; every verdict agrees, "
               "and its replay rows (fig3.replay_last_epoch, fig6.live_replay) check its trainer's determinism "
               "within a run",
}
#: Row fields compared exactly in a chapter of :data:`ISA_CHAOTIC`.
VERDICT_FIELDS = ("kind", "type", "status", "holds", "control_holds")
#: Glued values that are the run's own timings (``<key>.meta.cpu_s``, ``<key>.meta.wall_s``), which no two runs share.
TIMING = re.compile(r"^[a-z0-9_]+\.meta\.(cpu|wall)_s$")
#: Row fields that must be equal between the two runs.
EXACT_FIELDS = ("kind", "type", "status", "holds", "control_holds", "criterion")


def close(a: Any, b: Any, rtol: float = RTOL, atol: float = ATOL) -> bool:
    """Whether ``a`` and ``b`` (numbers, strings, booleans, None, lists or dicts of them) agree: floats
    within ``rtol`` relative or both within ``atol`` of zero, everything else exactly (an int against an
    int is exact; an int against a float compares as floats)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= rtol * max(abs(a), abs(b)) or max(abs(a), abs(b)) <= atol
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(close(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], rtol, atol) for k in a)
    return a == b


def largest_relative_difference(a: Any, b: Any, atol: float = ATOL) -> float:
    """The largest relative difference between the floats of ``a`` and ``b`` (same structure), ignoring
    pairs both within ``atol`` of zero; 0.0 when none differ (what the README's table reports)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return 0.0
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if not (math.isfinite(a) and math.isfinite(b)) or max(abs(a), abs(b)) <= atol or a == b:
            return 0.0
        return abs(a - b) / max(abs(a), abs(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        return max((largest_relative_difference(x, y, atol) for x, y in zip(a, b)), default=0.0)
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return max((largest_relative_difference(a[k], b[k], atol) for k in a), default=0.0)
    return 0.0


def tolerance(name: str, rtol: float = RTOL, sensitive: dict | None = None) -> float | None:
    """The relative tolerance for the values of ``name`` (a row id or a glued value): its entry in
    :data:`ISA_SENSITIVE` (None: not compared), else ``rtol``."""
    entry = (ISA_SENSITIVE if sensitive is None else sensitive).get(name)
    if entry is None:
        return rtol
    return None if entry[0] is None else max(rtol, entry[0])


def compare_ledgers(first: dict, second: dict, rtol: float = RTOL, atol: float = ATOL) -> list[str]:
    """What differs between two ledgers of one chapter beyond what a changed instruction set allows:
    one line per difference (empty when they agree). Rows are matched by id, in order."""
    problems = []
    ids = [[c["id"] for c in led["claims"]] for led in (first, second)]
    if ids[0] != ids[1]:
        return [f"the rows differ: only in the first {sorted(set(ids[0]) - set(ids[1]))}, only in the second "
                f"{sorted(set(ids[1]) - set(ids[0]))}" if set(ids[0]) != set(ids[1]) else "the rows come in another order"]
    chaotic = first.get("chapter") in ISA_CHAOTIC
    for a, b in zip(first["claims"], second["claims"]):
        for field in (VERDICT_FIELDS if chaotic else EXACT_FIELDS):
            if a.get(field) != b.get(field):
                problems.append(f"{a['id']}: {field} {a.get(field)!r} then {b.get(field)!r}")
        tol = tolerance(a["id"], rtol)
        for field in () if chaotic or tol is None else ("measured", "control"):
            if not close(a.get(field), b.get(field), tol, atol):
                problems.append(f"{a['id']}: {field} {a.get(field)!r} then {b.get(field)!r}")
    values = [led.get("values", {}) for led in (first, second)]
    if chaotic:
        values = [{name: None for name in v} for v in values]      # the names only
    if values[0].keys() != values[1].keys():
        problems.append(f"glued values differ: {sorted(set(values[0]) ^ set(values[1]))}")
    for name in sorted(values[0].keys() & values[1].keys()):
        tol = tolerance(name, rtol)
        if TIMING.match(name) or tol is None:
            continue
        if not close(values[0][name], values[1][name], tol, atol):
            problems.append(f"glued {name}: {values[0][name]!r} then {values[1][name]!r}")
    return problems


def largest_difference(first: dict, second: dict, atol: float = ATOL) -> tuple[float, str]:
    """(the largest relative difference between the two ledgers' measured values, controls and glued
    values, where it is), for the report."""
    best = (0.0, "")
    pairs = [(f"{a['id']} {f}", a.get(f), b.get(f)) for a, b in zip(first["claims"], second["claims"])
             for f in ("measured", "control")]
    pairs += [(f"glued {n}", first["values"][n], second["values"][n])
              for n in first.get("values", {}).keys() & second.get("values", {}).keys() if not TIMING.match(n)]
    for where, a, b in pairs:
        diff = largest_relative_difference(a, b, atol)
        if diff > best[0]:
            best = (diff, where)
    return best
