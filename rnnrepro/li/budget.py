"""Iteration bounds: a runaway loop of the li code fails with a message naming what ran away.

Every iterative computation of ``rnnrepro.li`` whose number of passes is not fixed in advance (the
adaptive flow solver, GD and momentum iterated until they escape, bisections) counts its passes
against a bound far above what the chapter needs, and raises :class:`RunawayError` when it is reached.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rnnrepro.errors import RnnreproError


class RunawayError(RnnreproError, RuntimeError):
    """An iterative computation reached its iteration bound (the message names it and the bound)."""


def passes(limit: int, what: str) -> Iterator[int]:
    """Yield 1, 2, ..., ``limit``; asking for one more raises RunawayError naming ``what``.

    Use as ``for k in passes(limit, what): ... return`` in a loop that must end by itself."""
    yield from range(1, int(limit) + 1)
    raise RunawayError(f"{what}: no result after {int(limit)} iterations (the bound); it ran away")


class CountedCalls:
    """``fun`` wrapped to count its calls; call number ``limit`` + 1 raises RunawayError naming ``what``.

    For loops that live inside a library routine (e.g. the right-hand side of ``solve_ivp``)."""

    def __init__(self, fun: Callable[..., Any], limit: int, what: str) -> None:
        self.fun, self.limit, self.what, self.calls = fun, int(limit), what, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls > self.limit:
            raise RunawayError(f"{self.what}: more than {self.limit} evaluations (the bound); it ran away")
        return self.fun(*args, **kwargs)
