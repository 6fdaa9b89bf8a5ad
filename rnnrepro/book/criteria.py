"""Criteria that a measured value must meet for a ledger claim to hold.

Each criterion is a small immutable object with ``holds(x) -> bool`` and ``describe() -> str``
(the text shown in the claims table, e.g. ``"≤ 0.5"``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def num(x: float) -> str:
    """``x`` to 6 significant digits, unless that rounds it to a rounder number than it is: then with as
    many more digits as it takes (``1 + 1e-6`` → ``1.000001``, not ``1``; ``0.1 + 0.2`` → ``0.3``)."""
    text = format(x, ".6g")
    if not math.isfinite(x) or len(text.split("e")[0].lstrip("-0.").replace(".", "")) >= 6:
        return text
    for digits in range(7, 13):
        if math.isclose(float(text), x, rel_tol=1e-12, abs_tol=0.0):
            break
        text = format(x, f".{digits}g")
    return text


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


@dataclass(frozen=True)
class AtMost:
    """x ≤ bound."""

    bound: float

    def holds(self, x) -> bool:
        return _finite(x) and x <= self.bound

    def describe(self) -> str:
        return f"≤ {num(self.bound)}"


@dataclass(frozen=True)
class AtLeast:
    """x ≥ bound."""

    bound: float

    def holds(self, x) -> bool:
        return _finite(x) and x >= self.bound

    def describe(self) -> str:
        return f"≥ {num(self.bound)}"


@dataclass(frozen=True)
class Below:
    """x < bound (strict)."""

    bound: float

    def holds(self, x) -> bool:
        return _finite(x) and x < self.bound

    def describe(self) -> str:
        return f"< {num(self.bound)}"


@dataclass(frozen=True)
class Above:
    """x > bound (strict)."""

    bound: float

    def holds(self, x) -> bool:
        return _finite(x) and x > self.bound

    def describe(self) -> str:
        return f"> {num(self.bound)}"


@dataclass(frozen=True)
class Between:
    """lo ≤ x ≤ hi."""

    lo: float
    hi: float

    def __post_init__(self):
        if not self.lo <= self.hi:
            raise ValueError(f"Between needs lo <= hi, got lo={self.lo!r}, hi={self.hi!r}")

    def holds(self, x) -> bool:
        return _finite(x) and self.lo <= x <= self.hi

    def describe(self) -> str:
        return f"∈ [{num(self.lo)}, {num(self.hi)}]"


@dataclass(frozen=True)
class Within:
    """|x − target| ≤ atol + rtol·|target| (give atol, rtol or both)."""

    target: float
    atol: float = 0.0
    rtol: float = 0.0

    def __post_init__(self):
        if self.atol < 0 or self.rtol < 0 or (self.atol == 0 and self.rtol == 0):
            raise ValueError("Within needs a positive atol or rtol")

    def holds(self, x) -> bool:
        return _finite(x) and abs(x - self.target) <= self.atol + self.rtol * abs(self.target)

    def describe(self) -> str:
        parts = [f"{num(self.atol)}"] if self.atol else []
        if self.rtol:
            parts.append(f"{num(self.rtol)}·|{num(self.target)}|")
        return f"= {num(self.target)} ± {' + '.join(parts)}"


@dataclass(frozen=True)
class IsTrue:
    """x is the boolean True (a structural statement checked by the computation)."""

    def holds(self, x) -> bool:
        return x is True

    def describe(self) -> str:
        return "holds"


Criterion = AtMost | AtLeast | Below | Above | Between | Within | IsTrue
