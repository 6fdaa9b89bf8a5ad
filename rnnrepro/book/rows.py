"""The vocabulary of a ledger row, shared by the ledger and what renders it: kinds, statuses, cells."""

from __future__ import annotations

from typing import Any

STATUSES = ("reproduced", "partial", "not reproduced", "erratum")   # a paper claim's statuses
KINDS = ("paper", "finding", "integrity")
KIND_TITLES = {"paper": "Paper claims", "finding": "Our own findings", "integrity": "Integrity checks"}
VERIFIED = "verified"     # the status of every integrity check that holds
OBSERVED = "observed"     # the status of every finding of ours that holds


def show(value: Any, fmt: str) -> str:
    """A table cell: a number in format ``fmt``; booleans and text as they are; None as "—"."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return "—" if value is None else str(value)
    return format(value, fmt)
