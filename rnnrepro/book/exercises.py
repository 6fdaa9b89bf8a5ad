"""The exercises at the end of a chapter page, read from its markdown.

Each exercise is a command that overrides parameters of the ``fast`` profile and a dropdown with the
expected outcome, whose first sentence names the claim that the override makes fail and how::

    ```bash
    .venv/bin/python -m rnnrepro run dynamics -p lyap_steps 100
    ```

    :::{dropdown} Expected outcome
    The run stops at `dynamics.lyapunov.linear_map` with `ClaimFailed`: ...
    :::

``ClaimFailed``: the claim's criterion no longer holds; ``ControlPassed``: its negative control now
meets the criterion too, so the check can no longer tell the claim from its negation. Everything
after ``## Exercises`` is read; ``tests/test_exercises.py`` runs every exercise and checks that it
stops exactly there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADING = "## Exercises"
OUTCOMES = ("ClaimFailed", "ControlPassed")
_COMMAND = re.compile(r"^```bash\n(?:\.venv/bin/)?python -m rnnrepro run ([a-z0-9_]+)((?: -p [a-z0-9_]+ \S+)+)\n```",
                      re.M)
_OUTCOME = re.compile(r"^:::\{dropdown\} Expected outcome\nThe run stops at `([a-z0-9_.]+)` with `(\w+)`", re.M)


@dataclass(frozen=True)
class Exercise:
    """One exercise: the chapter, its parameter overrides (as typed), the claim that stops the run, and how."""

    key: str
    overrides: tuple[tuple[str, str], ...]
    claim: str
    outcome: str

    @property
    def command(self) -> str:
        return f"python -m rnnrepro run {self.key} " + " ".join(f"-p {n} {v}" for n, v in self.overrides)


def read_exercises(markdown: str) -> list[Exercise]:
    """The exercises of a chapter page's markdown (empty when it has no ``## Exercises`` section).

    Raises ValueError when the commands and the outcomes do not pair up, or an outcome is not one of
    :data:`OUTCOMES`."""
    if HEADING not in markdown:
        return []
    section = markdown[markdown.index(HEADING):]
    commands, outcomes = _COMMAND.findall(section), _OUTCOME.findall(section)
    if len(commands) != len(outcomes):
        raise ValueError(f"{len(commands)} exercise commands but {len(outcomes)} 'Expected outcome' dropdowns "
                         f"that start 'The run stops at `<claim id>` with `<ClaimFailed|ControlPassed>`'")
    exercises = []
    for (key, params), (claim, outcome) in zip(commands, outcomes):
        if outcome not in OUTCOMES:
            raise ValueError(f"exercise `{claim}`: outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
        pairs = tuple(tuple(pair) for pair in re.findall(r"-p ([a-z0-9_]+) (\S+)", params))
        exercises.append(Exercise(key=key, overrides=pairs, claim=claim, outcome=outcome))
    return exercises
