"""Chapters, their parameters and the two profiles ``fast`` (CI) and ``full`` (paper scale).

A chapter declares its parameters once (:class:`Param`), with a value for each profile; a run picks
a profile and may override single parameters. Every value is checked here, so that a bad one fails
with a one-line :class:`~rnnrepro.errors.ConfigError` that lists the valid choices.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Mapping

from rnnrepro.errors import ConfigError, did_you_mean

PROFILES = ("fast", "full")
_TYPES = (int, float, bool, str)


@dataclass(frozen=True)
class Param:
    """One chapter parameter: its type, its value in each profile and its valid range.

    ``low``/``high`` bound numbers (inclusive); ``choices`` lists the valid values.
    """

    name: str
    type: type
    fast: Any
    full: Any
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None

    def __post_init__(self):
        if self.type not in _TYPES:
            raise TypeError(f"Param {self.name}: type must be one of int, float, bool, str")
        for profile in PROFILES:
            self.check(getattr(self, profile))

    def describe(self) -> str:
        """Short text of the valid values, e.g. ``int in [1, 100]``."""
        if self.choices is not None:
            return "one of " + ", ".join(map(repr, self.choices))
        lo = "-inf" if self.low is None else f"{self.low:g}"
        hi = "inf" if self.high is None else f"{self.high:g}"
        bounds = f" in [{lo}, {hi}]" if (self.low, self.high) != (None, None) else ""
        return self.type.__name__ + bounds

    def check(self, value: Any) -> Any:
        """Return ``value`` converted to the parameter's type, or raise ConfigError."""
        value = self._coerce(value)
        if self.choices is not None and value not in self.choices:
            raise ConfigError(f"parameter {self.name}={value!r} is invalid: expected {self.describe()}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise ConfigError(f"parameter {self.name}={value!r} is out of range: expected {self.describe()}")
        return value

    def parse(self, text: str) -> Any:
        """Parse a command-line string into a checked value."""
        if self.type is bool:
            lowered = text.strip().lower()
            if lowered not in ("true", "false", "1", "0"):
                raise ConfigError(f"parameter {self.name}={text!r} is not a bool: use true or false")
            return self.check(lowered in ("true", "1"))
        try:
            return self.check(self.type(text))
        except ValueError as exc:
            if isinstance(exc, ConfigError):
                raise
            raise ConfigError(f"parameter {self.name}={text!r} is not a valid {self.type.__name__}: "
                              f"expected {self.describe()}") from None

    def _coerce(self, value: Any) -> Any:
        ok = isinstance(value, self.type) and not (self.type is not bool and isinstance(value, bool))
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if not ok:
            raise ConfigError(f"parameter {self.name}={value!r} has the wrong type: expected {self.describe()}")
        return value


@dataclass(frozen=True)
class Chapter:
    """A chapter of the book: its key, title, paper, notebook path, parameters, the bibliography
    keys (``book/references.bib``) of the paper(s) it replicates, and the numerical helpers its
    claims rest on (``"package.module:function"``; each perturbed by 10 % must fail a paper claim:
    :mod:`rnnrepro.book.sensitivity`), and the data files it reads (paths under the data root,
    e.g. ``"wikitext-2/valid.txt"``: checked before anything runs, :func:`rnnrepro.data.check_files`).

    ``texts`` names the paper's text file(s) under the papers folder (:func:`rnnrepro.book.paths.papers_root`)
    in which every paper claim's ``quote`` is found (``tests/test_quotes.py``).

    ``question`` (one phrase: what the chapter asks) is the intro's chapter table's last column;
    ``note`` (optional) follows the chapter's verdicts in the README (what ran at reduced scale or
    was trained once and shipped); ``renamed`` maps claim ids of earlier versions of the page to the
    row that holds that claim now (``(("<key>.old.id", "<key>.new.id"), ...)``: a merged duplicate, a
    row that changed kind), so that a cited anchor ``<page>#<old id>`` still lands on it; ``gaps`` gives, for each helper whose 10 % error fails no paper
    claim, the reason (``(("pkg.mod:function", "why"), ...)``), shown on the sensitivity page.
    The entry is checked when the registry loads it (:func:`rnnrepro.book.chapters.entry_problems`)."""

    key: str
    title: str
    paper: str
    notebook: str
    texts: tuple[str, ...] = ()
    params: tuple[Param, ...] = field(default_factory=tuple)
    cites: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()
    data: tuple[str, ...] = ()
    question: str = ""
    note: str = ""
    gaps: tuple[tuple[str, str], ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()

    def __post_init__(self):
        if not isinstance(self.params, (tuple, list)) or not all(isinstance(p, Param) for p in self.params):
            return   # the registry names the entry and the fix when it loads it
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"chapter {self.key}: duplicate parameter names {names}")
        if "profile" in names:
            raise ValueError(f"chapter {self.key}: 'profile' is reserved")

    def param(self, name: str) -> Param:
        """The parameter called ``name``, or a ConfigError listing the valid names."""
        for p in self.params:
            if p.name == name:
                return p
        valid = ", ".join(p.name for p in self.params) or "(none)"
        raise ConfigError(f"chapter {self.key} has no parameter {name!r}: "
                          f"{did_you_mean(name, [p.name for p in self.params])}valid parameters are {valid}")

    def resolve(self, profile: str, overrides: Mapping[str, Any] | None = None) -> SimpleNamespace:
        """The parameter values of ``profile`` with ``overrides`` applied, all checked.

        Returns a namespace ``p`` with ``p.profile`` and one attribute per parameter.
        """
        check_profile(profile)
        values = {p.name: getattr(p, profile) for p in self.params}
        for name, value in dict(overrides or {}).items():
            values[name] = self.param(name).check(value)
        return SimpleNamespace(profile=profile, **values)


def check_profile(profile: str) -> str:
    """Return ``profile`` if it is known, else raise ConfigError listing the profiles."""
    if profile not in PROFILES:
        raise ConfigError(f"unknown profile {profile!r}: choose one of {', '.join(PROFILES)}")
    return profile


def as_dict(p: SimpleNamespace) -> dict:
    """The resolved parameters as a plain dict (for the ledger JSON)."""
    return dict(vars(p))

