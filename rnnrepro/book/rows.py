"""The vocabulary of a ledger row, shared by the ledger and what renders it: kinds, statuses, cells."""

from __future__ import annotations

import numbers
from typing import Any

#: A paper claim is a *statement* (a printed theorem, lemma, formula or table entry checked on instances
#: meeting its hypotheses) or an *experiment* (the outcome of an experiment or figure); its status says which.
STATEMENT_STATUSES = ("holds", "erratum")
EXPERIMENT_STATUSES = ("reproduced", "partial", "not reproduced")
STATUSES = (*STATEMENT_STATUSES, *EXPERIMENT_STATUSES)   # a paper claim's statuses
CLAIM_TYPES = {"statement": STATEMENT_STATUSES, "experiment": EXPERIMENT_STATUSES}
KINDS = ("paper", "finding", "integrity")
KIND_TITLES = {"paper": "Paper claims", "finding": "Our own findings", "integrity": "Integrity checks"}
VERIFIED = "verified"     # the status of every integrity check that holds
OBSERVED = "observed"     # the status of every finding of ours that holds
#: Significant digits of a non-zero number that its own format would print as zero (``0.00``).
TINY_FORMAT = ".3g"


def claim_type(status: str) -> str:
    """``"statement"`` or ``"experiment"``: the kind of paper claim a status belongs to."""
    for name, statuses in CLAIM_TYPES.items():
        if status in statuses:
            return name
    raise ValueError(f"status {status!r} is not one of {STATUSES}")


def type_counts_text(counts: dict) -> str:
    """``"statements: 10 hold, 1 erratum; experiments: 5 reproduced, 2 partial"`` from paper-claim counts
    per status (a kind with no claims is left out; ``"no paper claims"`` when there are none)."""
    words = {"holds": ("holds", "hold"), "erratum": ("erratum", "errata")}
    parts = []
    for name, statuses in CLAIM_TYPES.items():
        if not any(counts.get(s, 0) for s in statuses):
            continue
        items = []
        for s in statuses:
            n = counts.get(s, 0)
            if n:
                one, many = words.get(s, (s, s))
                items.append(f"{n} {one if n == 1 else many}")
        parts.append(f"{name}s: " + ", ".join(items))
    return "; ".join(parts) or "no paper claims"


def reads_as_zero(text: str) -> bool:
    """Whether a formatted number shows only zeros (``0.00``, ``-0.0%``, ``0``)."""
    digits = [c for c in text.split("e")[0].split("E")[0] if c.isdigit()]
    return bool(digits) and set(digits) == {"0"}


def show(value: Any, fmt: str) -> str:
    """A table cell: a number in format ``fmt``; text as it is; None as "—"; a boolean as "yes"/"no".

    A number never reads as something it is not: exactly zero is ``0``, and a non-zero number that
    ``fmt`` would print as zero (``1.26e-08`` with ``.2f``) is shown with three significant digits.
    """
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Real) and value == 0:
        return "0"
    text = format(value, fmt)
    if isinstance(value, numbers.Real) and reads_as_zero(text):
        return format(value * 100, TINY_FORMAT) + "%" if fmt.endswith("%") else format(value, TINY_FORMAT)
    return text
