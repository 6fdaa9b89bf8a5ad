"""The exercises at the end of a chapter page, read from its markdown (sphinx-exercise directives).

Everything after ``## Exercises`` is read. Each exercise is a numbered ``{exercise}`` with a ``:label:``
(``ex-<key>-<name>``) followed by its ``{solution}`` (``:class: dropdown``: the expected outcome and why), of one of
three kinds, told apart by the commands in its ``bash`` block:

*predict* (a strict run, of the whole chapter or of the row's section alone with ``--only SECTION``, that stops
at a named row)::

    :::{exercise} A shorter Lyapunov run
    :label: ex-dynamics-lyap-steps
    ...
    ```bash
    python -m rnnrepro run dynamics --only lyapunov -p lyap_steps 100
    ```
    :::

    :::{solution} ex-dynamics-lyap-steps
    :class: dropdown
    The run stops at `dynamics.lyapunov.linear_map` with `ClaimFailed`: ...
    :::

``ClaimFailed``: the row's criterion no longer holds; ``ControlPassed``: its negative control now meets the
criterion too. *derive* (a calculation the reader does, then checks against an exploration run): the block runs
``python -m rnnrepro run KEY --explore [--only SECTION] [-p NAME VALUE ...]`` and the solution says
``python -m rnnrepro value KEY ID` prints NUMBER``, the answer of the calculation (the check passes when the value
the run records rounds to NUMBER as written). *open* (no command: an open problem a reader solves with the
package): the package functions it names in backticks (```rnnrepro.dynamics.simulate.simulate```) must exist.
``tests/test_exercises.py`` runs every predict and derive exercise and imports every name of an open one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADING = "## Exercises"
OUTCOMES = ("ClaimFailed", "ControlPassed")
KINDS = ("predict", "derive", "open")
_EXERCISE = re.compile(r"^:::\{exercise\}[ \t]*([^\n]*)\n:label: (\S+)\n(.*?)^:::[ \t]*$", re.M | re.S)
_SOLUTION = re.compile(r"^:::\{solution\} (\S+)\n((?::\w+:[^\n]*\n)*)(.*?)^:::[ \t]*$", re.M | re.S)
_BASH = re.compile(r"^```bash\n(.*?)^```", re.M | re.S)
_RUN = re.compile(r"^(?:\.venv/bin/)?python -m rnnrepro run ([a-z0-9_]+)((?: --explore| --only [a-z0-9_]+"
                  r"| -p [a-z0-9_]+ \S+)*)[ \t]*$", re.M)
_OUTCOME = re.compile(r"\AThe run stops at `([a-z0-9_.]+)` with `(\w+)`")
_VALUE = re.compile(r"`(?:\.venv/bin/)?python -m rnnrepro value ([a-z0-9_]+) ([a-z0-9_.]+)` prints "
                    r"(-?[0-9]+(?:\.[0-9]+)?(?:e-?[0-9]+)?)")
_NAME = re.compile(r"`(rnnrepro(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")


@dataclass(frozen=True)
class Exercise:
    """One exercise: its chapter, label and kind; a predict exercise's overrides (as typed), section (or None:
    the whole chapter), the row that stops the run and how; a derive exercise's overrides, section, the id it
    reads back and the number its solution expects (as typed); an open problem's package names."""

    key: str
    label: str
    kind: str
    overrides: tuple[tuple[str, str], ...] = ()
    claim: str = ""
    outcome: str = ""
    only: str | None = None
    value_id: str = ""
    expected: str = ""
    names: tuple[str, ...] = ()

    @property
    def command(self) -> str:
        """The run command of a predict or derive exercise, as the page types it (without ``.venv/bin/``)."""
        return (f"python -m rnnrepro run {self.key}" + (" --explore" if self.kind == "derive" else "")
                + (f" --only {self.only}" if self.only else "")
                + "".join(f" -p {n} {v}" for n, v in self.overrides))

    def tolerance(self) -> float:
        """Half a unit of the last digit of :attr:`expected` (``"539"`` → 0.5, ``"0.36"`` → 0.005)."""
        mantissa, _, exponent = self.expected.lower().partition("e")
        decimals = len(mantissa.partition(".")[2])
        return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def read_exercises(markdown: str) -> list[Exercise]:
    """The exercises of a chapter page's markdown (empty when it has no ``## Exercises`` section).

    Raises ValueError when an exercise has no solution (or a solution no exercise), a solution is not a dropdown,
    a predict exercise's solution does not start 'The run stops at `<row id>` with `<ClaimFailed|ControlPassed>`',
    or a derive exercise's solution does not say '`python -m rnnrepro value KEY ID` prints NUMBER'."""
    if HEADING not in markdown:
        return []
    section = markdown[markdown.index(HEADING):]
    solutions = {}
    for label, options, body in _SOLUTION.findall(section):
        if ":class: dropdown" not in options:
            raise ValueError(f"solution {label}: add ':class: dropdown' so that its answer is folded")
        solutions[label] = body.strip()
    exercises = []
    for title, label, body in _EXERCISE.findall(section):
        if label not in solutions:
            raise ValueError(f"exercise {label} ({title}) has no solution: add ':::{{solution}} {label}'")
        exercises.append(_exercise(label, body, solutions.pop(label)))
    if solutions:
        raise ValueError(f"solutions without an exercise: {', '.join(solutions)}")
    return exercises


def _exercise(label: str, body: str, solution: str) -> Exercise:
    runs = [m for block in _BASH.findall(body) for m in _RUN.finditer(block)]
    if len(runs) > 1:
        raise ValueError(f"exercise {label}: one run command per exercise, found {len(runs)}")
    if not runs:
        return Exercise(key=label.split("-")[1], label=label, kind="open", names=tuple(_NAME.findall(body)))
    key, flags = runs[0].groups()
    overrides = tuple(tuple(pair) for pair in re.findall(r"-p ([a-z0-9_]+) (\S+)", flags))
    only = re.search(r"--only ([a-z0-9_]+)", flags)
    only = only and only[1]
    if "--explore" in flags:
        value = _VALUE.search(solution)
        if value is None or value[1] != key:
            raise ValueError(f"exercise {label}: its solution must say '`python -m rnnrepro value {key} ID` prints "
                             f"NUMBER' (the answer the reader derives)")
        return Exercise(key=key, label=label, kind="derive", overrides=overrides, only=only,
                        value_id=value[2], expected=value[3])
    outcome = _OUTCOME.match(solution)
    if outcome is None:
        raise ValueError(f"exercise {label}: its solution must start 'The run stops at `<row id>` with "
                         f"`<{'|'.join(OUTCOMES)}>`'")
    if outcome[2] not in OUTCOMES:
        raise ValueError(f"exercise {label}: outcome {outcome[2]!r} is not one of {', '.join(OUTCOMES)}")
    return Exercise(key=key, label=label, kind="predict", overrides=overrides, claim=outcome[1], outcome=outcome[2],
                    only=only)
