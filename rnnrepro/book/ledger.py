"""The claims ledger: every numerically checkable statement of a chapter, checked and recorded.

A claim pairs a statement of the paper with our measured value and a criterion. A failing criterion
raises :class:`ClaimFailed`; a negative control that *passes* the criterion raises
:class:`ControlPassed` (the check could not have failed). A row without a control names why
(``no_control``). Three kinds of rows: *paper claims* (:meth:`Ledger.claim`: each quotes the paper's
sentence, and is a *statement*, status ``holds``/``erratum``, or an *experiment*, status
``reproduced``/``partial``/``not reproduced``; the headline counts, the two apart), *integrity
checks* (:meth:`Ledger.check`: a shipped artefact re-verified, an autograd identity, an exact replay;
status ``verified``) and *our own findings* (:meth:`Ledger.finding`: refinements the paper does not
state, companion controls, tightness of a bound the paper states only as ≤, dataset facts; status
``observed``). Only paper claims make the headline counts. Each measured value is glued under the
claim id for the prose. :meth:`Ledger.finish` writes ``<out>/<key>.ledger.json``, glues the
chapter-top verdict table and shows the claims table. See CONTRIBUTING.md for the notebook-side contract.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import platform
import re
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

import numpy as np

from rnnrepro.data import sha256_file
from rnnrepro.book.machine import cpu_info, fallbacks
from rnnrepro.book.paths import REPO, code_sha256, output_dir
from rnnrepro.book.plotting import (kernel_shell, legibility_problems, make_legible, phone_gid, phone_variants_wanted,
                                    unlabelled_axes, write_phone_variant)
from rnnrepro.book.profiles import Chapter, as_dict
from rnnrepro.book.rows import (CLAIM_TYPES, KIND_TITLES, KINDS, OBSERVED, STATUSES, VERIFIED,  # noqa: F401
                                claim_type, show, type_counts_text)
from rnnrepro.book.quotes import MIN_WORDS

PERTURB_ENV = "RNNREPRO_PERTURB"   # set: a sensitivity run (rnnrepro.book.sensitivity); failures are collected
#: Set (to anything non-empty): an exploration run (``run KEY --explore``,
#: :func:`rnnrepro.book.explore.explore_chapter`): failing rows are collected, not raised, and the ledger is
#: written whatever they say, marked ``"explore": true``.
EXPLORE_ENV = "RNNREPRO_EXPLORE"
#: Set to a section's name while a run executes that section alone (``run KEY --only SECTION``,
#: :func:`rnnrepro.book.explore.select_section`): its ledger says so (``"only"``), as does its execution-log line.
ONLY_ENV = "RNNREPRO_ONLY"
SCHEMA_VERSION = 3
#: What a draft row's statement starts with on the page (:meth:`Ledger.draft`).
DRAFT_PREFIX = "Draft (not reviewed; not in the shipped full result): "
SECTION_LIMIT_ENV = "RNNREPRO_SECTION_LIMIT_S"   # overrides a section's wall-clock bound (seconds)
#: A section that runs longer than this (seconds, per profile) has run away: it fails, naming itself.
SECTION_LIMIT_S = {"fast": 1800.0, "full": 7200.0}   # a hang guard, far above any honest section
EXECUTION_LOG_ENV = "RNNREPRO_EXECUTION_LOG"   # set: each execution appends a line there as it starts and ends
_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9][a-z0-9_]*){2}$")
_PACKAGES = ("rnnrepro", "torch", "numpy", "scipy", "matplotlib", "jupyter-book", "myst-nb", "papermill")


class ClaimFailed(AssertionError):
    """A claim's measured value does not meet its criterion: the replication is broken."""


class ControlPassed(AssertionError):
    """A claim's negative control meets the criterion, so the criterion could not fail."""


class SectionOverrun(RuntimeError):
    """A section of a chapter ran past its wall-clock bound: a loop in it ran away."""


@dataclass
class Claim:
    """One ledger row (see :meth:`Ledger.claim` for the fields)."""

    id: str
    statement: str
    ref: str
    paper: Any
    measured: Any
    criterion: str
    status: str
    holds: bool
    control: Any = None
    control_note: str = ""
    control_holds: bool | None = None
    fmt: str = ".4g"
    section: str = ""
    kind: str = "paper"
    no_control: str = ""
    quote: str = ""
    type: str = ""          # a paper claim's kind: "statement" or "experiment" ("" for other rows)
    quantity: str = ""      # what ``measured`` is, in the terms of the paper's value ("error / $k\\lambda^k$")

    def shown(self, value: Any) -> str:
        """``value`` formatted with the claim's format (see :func:`show`)."""
        return show(value, self.fmt)

    def _ipython_display_(self) -> None:
        """A row displays nothing in a notebook: a cell that ends with ``ledger.claim(...)`` shows no repr
        on the page (the row is shown in the chapter's claims table)."""


def plain(value: Any) -> Any:
    """Numpy/torch scalars → python bool/int/float; other values unchanged."""
    if hasattr(value, "item") and getattr(value, "ndim", 0) == 0:
        value = value.item()
    if isinstance(value, np.generic):
        value = value.item()
    return value


def _default_publish(name: str, value: Any) -> None:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency of the book
        return
    if get_ipython() is not None:
        from myst_nb import glue

        # the prose reads a boolean as yes/no, not as Python's True/False
        glue(name, ("yes" if value else "no") if isinstance(value, bool) else value, display=False)


class Ledger:
    """Claims, glued values, figure data and timings of one chapter run.

    ``publish(name, value)`` glues a value for the prose (default: myst-nb's glue inside a kernel,
    nothing elsewhere); ``out`` is the output folder (default :func:`rnnrepro.book.paths.output_dir` of the notebook).
    """

    def __init__(self, chapter: Chapter, params, *, seeds: dict | None = None,
                 publish: Callable[[str, Any], None] = _default_publish, out: Path | None = None):
        self.chapter = chapter
        self.params = params
        self.seeds = dict(seeds or {})
        self.claims: list[Claim] = []
        self.values: dict[str, Any] = {}
        self.figures: dict[str, dict] = {}
        self.sections: dict[str, float] = {}
        self.failures: list[tuple[str, str, str]] = []   # (kind, id, message), sensitivity runs only
        self.drafts: list[str] = []                          # ids of the draft rows (:meth:`draft`)
        self._publish = publish
        self._out = out
        self._section = ""
        self._t0 = time.perf_counter()
        self._log_execution("started")

    # ------------------------------------------------------------------ recording
    @contextmanager
    def section(self, name: str):
        """Time a section of the chapter; claims made inside are tagged with it. The section being run is
        also written to ``<out>/<key>.section`` (the book build's heartbeat names it; removed by finish).

        An outermost section has a wall-clock bound (:data:`SECTION_LIMIT_S` of the profile, or
        ``$RNNREPRO_SECTION_LIMIT_S``): past it, :class:`SectionOverrun` names the section, so a loop
        that runs away fails instead of hanging the build."""
        previous, self._section = self._section, name
        self._announce(name)
        t0 = time.perf_counter()
        disarm = self._arm_bound(name) if not previous else None
        try:
            yield self
        finally:
            if disarm is not None:
                disarm()
            self.sections[name] = self.sections.get(name, 0.0) + time.perf_counter() - t0
            self._section = previous
            self._announce(previous)

    def section_limit(self) -> float:
        """The wall-clock bound of a section in seconds (:meth:`section`)."""
        return float(os.environ.get(SECTION_LIMIT_ENV) or SECTION_LIMIT_S.get(self.params.profile,
                                                                             SECTION_LIMIT_S["full"]))

    def _arm_bound(self, name: str) -> Callable[[], None] | None:
        """Arm SIGALRM to raise :class:`SectionOverrun` after :meth:`section_limit` seconds; return the
        function that disarms it (None where signals are unavailable: not the main thread, Windows)."""
        if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
            return None
        limit = self.section_limit()

        def overrun(signum, frame):
            raise SectionOverrun(f"section {name!r} of chapter {self.chapter.key} ({self.params.profile}) ran past "
                                 f"its bound of {limit:g} s: a loop in it ran away (set "
                                 f"{SECTION_LIMIT_ENV} to change the bound)")

        old = signal.signal(signal.SIGALRM, overrun)
        signal.setitimer(signal.ITIMER_REAL, limit)

        def disarm() -> None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        return disarm

    def _announce(self, name: str) -> None:
        try:
            (self.out / f"{self.chapter.key}.section").write_text(name)
        except OSError:
            pass                      # only the heartbeat reads it

    def claim(self, id: str, statement: str, *, quote: str, ref: str, measured: Any, criterion, status: str,
              paper: Any = None, control: Any = None, control_note: str = "", no_control: str = "",
              fmt: str = ".4g", quantity: str = "") -> Claim:
        """Check and record a paper claim; raise ClaimFailed / ControlPassed when the check fails.

        ``quote`` is the paper's sentence (equation context, table caption) that the row tests, verbatim
        and at least :data:`~rnnrepro.book.quotes.MIN_WORDS` words (``tests/test_quotes.py`` finds it in
        the paper's text). ``status`` says the kind of claim (:data:`CLAIM_TYPES`): a *statement* (a
        printed theorem, lemma, formula or table entry checked on instances meeting its hypotheses)
        ``holds`` or is an ``erratum``; an *experiment* (an outcome of an experiment or figure) is
        ``reproduced``, ``partial`` or ``not reproduced``.
        ``measured`` and ``control`` are numbers or booleans; ``criterion`` is an object of
        :mod:`rnnrepro.book.criteria`; ``paper`` is the paper's
        value (a number or a short text) or None where the paper gives none. Give either a
        ``control`` (the same system with the hypothesis removed, which must fail the criterion) or
        ``no_control``, the reason there is none (e.g. "upper bound that nothing natural violates"; a row
        whose reason would be "identity" is an integrity check, :meth:`check`).
        ``quantity`` names what ``measured`` is, in the terms of the paper's value (``"error / $k\\lambda^k$"``,
        ``"slope of $\\log \\delta$ in $k$"``): the verdict table shows ``quantity = measured`` beside
        ``paper``. It is presentation, so write it on a line of its own (``quantity="…",``): such a line
        does not count as code for a shipped result (:func:`~rnnrepro.book.paths.code_sha256`).
        """
        if status not in STATUSES:
            raise ValueError(f"claim {id}: status {status!r} is not one of {STATUSES} (a statement holds or is "
                             f"an erratum; an experiment is reproduced, partial or not reproduced)")
        if not isinstance(quote, str) or len(quote.split()) < MIN_WORDS:
            raise ValueError(f"claim {id}: quote= must be the paper's sentence it tests, verbatim, at least "
                             f"{MIN_WORDS} words (no sentence to quote: make it a finding or an integrity check)")
        return self._record("paper", id, statement, ref=ref, measured=measured, criterion=criterion,
                            status=status, paper=paper, control=control, control_note=control_note,
                            no_control=no_control, fmt=fmt, quote=" ".join(quote.split()), quantity=quantity)

    def check(self, id: str, statement: str, *, measured: Any, criterion, ref: str = "(integrity)",
              control: Any = None, control_note: str = "", no_control: str = "", fmt: str = ".4g",
              quantity: str = "") -> Claim:
        """Check and record an integrity check (not a paper claim; status ``verified``).

        For what the book itself guarantees: a shipped artefact re-verified within a stated round-off
        tolerance, an autograd identity, an exact replay within one run. Same arguments and errors as
        :meth:`claim`; integrity checks are kept out of the headline counts.
        """
        return self._record("integrity", id, statement, ref=ref, measured=measured, criterion=criterion,
                            status=VERIFIED, paper=None, control=control, control_note=control_note,
                            no_control=no_control, fmt=fmt, quantity=quantity)

    def finding(self, id: str, statement: str, *, ref: str, measured: Any, criterion, paper: Any = None,
                control: Any = None, control_note: str = "", no_control: str = "", fmt: str = ".4g",
                quantity: str = "") -> Claim:
        """Check and record a finding of ours (status ``observed``): not a statement of the paper.

        For refinements the paper does not state, companion controls, the tightness of a bound the
        paper states only as ≤, facts about a dataset, sensitivity findings. ``ref`` names the paper
        item it belongs to; ``paper`` may give the paper's related value. Same arguments and errors
        as :meth:`claim`; findings are shown apart and kept out of the headline counts.
        """
        return self._record("finding", id, statement, ref=ref, measured=measured, criterion=criterion,
                            status=OBSERVED, paper=paper, control=control, control_note=control_note,
                            no_control=no_control, fmt=fmt, quantity=quantity)

    def draft(self, id: str, statement: str, *, ref: str, measured: Any, criterion, control: Any = None,
              control_note: str = "", no_control: str = "", fmt: str = ".4g", quantity: str = "",
              quote: str = "") -> Claim:
        """Record a draft row (``python -m rnnrepro scaffold-claim``; CONTRIBUTING, *Adding one claim*): a finding of
        ours whose statement the page shows marked draft (:data:`DRAFT_PREFIX`), made in a code cell tagged
        ``draft`` (left out of the code hash of a shipped result, :func:`~rnnrepro.book.paths.code_sha256`, so that
        adding one leaves the shipped ``full`` result current). It never stops the run: a failing criterion or a
        control that meets it is recorded (the row's ``holds`` and ``control_holds``; the ledger's ``drafts``) and
        shown. ``quote``: the paper's sentence the row will test, verbatim (checked against the paper like a claim's,
        ``tests/test_quotes.py``). Ready, it becomes a :meth:`claim` (quoting the paper) or a :meth:`finding` outside
        the draft cell."""
        return self._record("finding", id, DRAFT_PREFIX + statement, ref=ref, measured=measured, criterion=criterion,
                            status=OBSERVED, paper=None, control=control, control_note=control_note,
                            no_control=no_control, fmt=fmt, quantity=quantity, draft=True, quote=quote)

    def _record(self, kind: str, id: str, statement: str, *, ref: str, measured: Any, criterion, status: str,
                paper: Any, control: Any, control_note: str, no_control: str, fmt: str, quote: str = "",
                quantity: str = "", draft: bool = False) -> Claim:
        self._check_id(id)
        measured, control = plain(measured), plain(control)
        if not isinstance(measured, (bool, int, float)):
            raise TypeError(f"claim {id}: measured must be a number or a bool, got {type(measured).__name__}")
        if (control is None) == (not no_control):
            raise ValueError(f"claim {id}: give a negative control (control=...) or the reason there is "
                             f"none (no_control=...), not both")
        claim = Claim(id=id, statement=statement, ref=ref, paper=plain(paper), measured=measured,
                      criterion=criterion.describe(), status=status, holds=bool(criterion.holds(measured)),
                      control=control, control_note=control_note, fmt=fmt, section=self._section,
                      kind=kind, no_control=no_control, quote=quote,
                      type=claim_type(status) if kind == "paper" else "", quantity=" ".join(quantity.split()))
        if control is not None:
            claim.control_holds = bool(criterion.holds(control))
        self.claims.append(claim)
        self._publish(id, measured)
        if draft:
            self.drafts.append(id)
            return claim
        if not claim.holds:
            self._fail(ClaimFailed(f"{id}: measured {claim.shown(measured)} does not satisfy {claim.criterion} "
                                   f"({statement})"))
        if claim.control_holds:
            self._fail(ControlPassed(f"{id}: the negative control ({control_note or 'control'}) = "
                                     f"{claim.shown(control)} also satisfies {claim.criterion}: the check cannot fail"))
        return claim

    def _fail(self, error: AssertionError) -> None:
        """Record the failure in ``<out>/<key>.failed.txt`` (read by ``list`` and CI), then raise it.

        In a sensitivity run (``$RNNREPRO_PERTURB`` set) or an exploration run (``$RNNREPRO_EXPLORE`` set) the
        failure is only collected (:attr:`failures`), so that one run tells which rows a perturbed helper or an
        override breaks."""
        if os.environ.get(PERTURB_ENV) or exploring():
            self.failures.append((self.claims[-1].kind, self.claims[-1].id, str(error)))
            return
        stamp = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        (self.out / f"{self.chapter.key}.failed.txt").write_text(
            f"{stamp} {self.params.profile}: {type(error).__name__}: {error}\n")
        raise error

    def value(self, name: str, value: Any) -> Any:
        """Record and glue a number used in the prose under ``name`` (``<key>.<item>.<name>``)."""
        self._check_id(name)
        value = plain(value)
        if not isinstance(value, (bool, int, float, str)):
            raise TypeError(f"value {name}: expected a number, bool or str, got {type(value).__name__}")
        self.values[name] = value
        self._publish(name, value)
        return value

    def figure(self, fig_id: str, fig, **arrays) -> None:
        """Save the arrays behind figure ``fig_id`` and glue the figure as ``<key>.<fig_id>``.

        Every axis with data must have x and y labels. Raw sub- and superscripts in its texts are put in
        mathtext and axes with a single tick get more (:func:`~rnnrepro.book.plotting.make_legible`); what
        is still hard to read (:func:`~rnnrepro.book.plotting.legibility_problems`) raises. The ``.npz`` file is
        ``<out>/<key>.figures/<fig_id>.npz`` (``self.figures[fig_id]`` records it and its sha256). In a book build
        (:func:`~rnnrepro.book.plotting.phone_variants_wanted`) its phone variant is written beside it,
        ``<fig_id>.phone.svg`` (:func:`~rnnrepro.book.plotting.write_phone_variant`).
        """
        if not re.fullmatch(r"[a-z0-9][a-z0-9_]*", fig_id) or fig_id in self.figures:
            raise ValueError(f"figure id {fig_id!r} is not a new lowercase identifier")
        if not arrays:
            raise ValueError(f"figure {fig_id}: pass the arrays behind it as keyword arguments")
        missing = unlabelled_axes(fig)
        if missing:
            raise ValueError(f"figure {fig_id}: axes without x/y labels: {missing}")
        width = make_legible(fig)
        problems = legibility_problems(fig, drawn_width_px=width)
        if problems:
            raise ValueError(f"figure {fig_id} is hard to read: " + "; ".join(problems))
        folder = self.out / f"{self.chapter.key}.figures"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{fig_id}.npz"
        np.savez_compressed(path, **{k: np.asarray(v) for k, v in arrays.items()})
        self.figures[fig_id] = {"file": f"{folder.name}/{path.name}", "sha256": sha256_file(path),
                                "arrays": {k: list(np.shape(v)) for k, v in arrays.items()}}
        fig.set_gid(phone_gid(f"{self.chapter.key}.{fig_id}"))   # names its phone variant in its SVG
        shown = ShownFigure(fig)
        self._publish(f"{self.chapter.key}.{fig_id}", shown)
        if phone_variants_wanted():                               # in a book build only
            write_phone_variant(fig, folder / f"{fig_id}.phone.svg", shown_px=width)
        shown.show_in_cell()                                      # closes it: last

    # ------------------------------------------------------------------ output
    @property
    def out(self) -> Path:
        return self._out or output_dir(self.chapter.notebook)

    def counts(self) -> dict[str, int]:
        """Number of paper claims per status, statements' (``holds``, ``erratum``) then experiments'
        (integrity checks are counted apart: :meth:`n_checks`)."""
        return {s: sum(c.kind == "paper" and c.status == s for c in self.claims) for s in STATUSES}

    def n_checks(self) -> int:
        """Number of integrity checks."""
        return sum(c.kind == "integrity" for c in self.claims)

    def n_findings(self) -> int:
        """Number of findings of ours."""
        return sum(c.kind == "finding" for c in self.claims)

    def summary(self) -> str:
        """Deterministic text summary: one line per claim (no timings, no paths)."""
        n_paper = sum(self.counts().values())
        lines = [f"{self.chapter.key} [{self.params.profile}]: {n_paper} paper claims "
                 f"({type_counts_text(self.counts())}); "
                 f"{self.n_findings()} findings of ours; {self.n_checks()} integrity checks"]
        lines += [f"  {c.id}: {c.status}; measured {c.shown(c.measured)} ({c.criterion})" for c in self.claims]
        return "\n".join(lines)

    def table_markdown(self) -> str:
        """The claims tables (paper claims, our own findings, integrity checks) as raw HTML blocks for
        MyST markdown, collapsed behind one click (:func:`rnnrepro.book.claims_table.ledger_markdown`); in a
        ``fast`` run, with the chapter's shipped ``full`` verdicts beside (:func:`rnnrepro.book.full.shipped_full`)."""
        from rnnrepro.book.claims_table import ledger_markdown

        return ledger_markdown([asdict(c) for c in self.claims], chapter=self.chapter.key, full=self.shipped_full(),
                               renamed=dict(self.chapter.renamed))

    def verdicts_html(self) -> str:
        """The chapter-top verdict table (:func:`rnnrepro.book.claims_table.verdicts_html`), glued by
        :meth:`finish` as ``<key>.verdicts`` (the chapter shows it with ``{glue:md}``)."""
        from rnnrepro.book.claims_table import verdicts_html

        return verdicts_html([asdict(c) for c in self.claims], full=self.shipped_full(), profile=self.params.profile)

    def headline_text(self) -> str:
        """The chapter's result in words (:func:`rnnrepro.book.claims_table.headline_text`), glued by
        :meth:`finish` as ``<key>.headline`` for the page's *In short*."""
        from rnnrepro.book.claims_table import headline_text

        return headline_text([asdict(c) for c in self.claims], full=self.shipped_full())

    def shipped_full(self) -> dict | None:
        """The chapter's shipped ``full`` ledger that the headline, the verdict table and the claims table
        read beside a ``fast`` run (:func:`rnnrepro.book.claims_table.shipped_full_ledger`); None in a
        ``full`` run (it shows itself only) or when none is shipped."""
        from rnnrepro.book.claims_table import shipped_full_ledger

        return shipped_full_ledger(self.chapter.key) if self.params.profile != "full" else None

    def to_json(self) -> dict:
        """The machine-readable ledger (schema version :data:`SCHEMA_VERSION`)."""
        notebook = REPO / self.chapter.notebook
        return {
            "schema": SCHEMA_VERSION,
            "chapter": self.chapter.key,
            "title": self.chapter.title,
            "paper": self.chapter.paper,
            "notebook": self.chapter.notebook,
            "source_sha256": sha256_file(notebook) if notebook.is_file() else None,
            "code_sha256": code_sha256(notebook) if notebook.is_file() else None,
            "profile": self.params.profile,
            "parameters": as_dict(self.params),
            "seeds": self.seeds,
            "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "environment": {"python": platform.python_version(), "platform": platform.platform(),
                            "cpu": cpu_info(), "packages": _versions(),
                            **({"fallbacks": fallbacks()} if fallbacks() else {})},
            "wall_time_s": {"total": time.perf_counter() - self._t0, "sections": dict(self.sections)},
            "counts": self.counts(),
            "findings": self.n_findings(),
            "integrity_checks": self.n_checks(),
            "failures": [list(f) for f in self.failures],
            **({"explore": True} if exploring() else {}),
            **({"only": os.environ[ONLY_ENV]} if os.environ.get(ONLY_ENV) else {}),
            **({"drafts": list(self.drafts)} if self.drafts else {}),
            "claims": [_jsonable(asdict(c)) for c in self.claims],
            "values": _jsonable(self.values),
            "figures": self.figures,
        }

    def finish(self) -> "ClaimsTable":
        """Write the ledger JSON and return the claims table (the chapter's last cell).

        The table (with each claim's anchor, its id) shows as markdown in the book; the cite block is
        glued as ``<key>.cite`` for the page's "Cite this chapter" section
        (:func:`rnnrepro.book.cite.cite_section_markdown`), and follows the table on a page without one;
        :meth:`summary`, in plain text, is what nbval compares between two executions.
        """
        if not self.claims:
            raise ValueError(f"chapter {self.chapter.key} recorded no claims")
        from rnnrepro.book.cite import CITE_HEADING, cite_block_markdown, has_cite_section

        (self.out / f"{self.chapter.key}.failed.txt").unlink(missing_ok=True)
        (self.out / f"{self.chapter.key}.section").unlink(missing_ok=True)
        path = self.out / f"{self.chapter.key}.ledger.json"
        path.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n")
        self._log_execution("finished")
        if self.failures and not exploring():
            raise ClaimFailed(f"{len(self.failures)} rows failed in a sensitivity run: "
                              + "; ".join(f"{kind} {id}" for kind, id, _ in self.failures))
        self._publish(f"{self.chapter.key}.verdicts", VerdictsTable(self.verdicts_html()))
        self._publish(f"{self.chapter.key}.headline", self.headline_text())
        cite = cite_block_markdown(self.chapter, self.params.profile)
        self._publish(f"{self.chapter.key}.cite", GluedMarkdown(cite, "<cite block>"))
        markdown = self.table_markdown()
        if not has_cite_section(self.chapter):      # a page without its "Cite this chapter" section
            markdown += f"\n\n**{CITE_HEADING}.**\n\n" + cite
        return ClaimsTable(markdown, self.summary())

    def _log_execution(self, event: str) -> None:
        """Append ``{"chapter", "profile", "overrides", "explore", "only", "event", "capability", "wall_s"}`` as
        one JSON line to ``$RNNREPRO_EXECUTION_LOG`` when it is set (CI counts each chapter's executions from
        it); ``overrides``: the parameters that differ from the profile's (an exercise's run); ``explore``:
        an exploration run; ``only``: the one section a run executed (an exercise's), else null."""
        log = os.environ.get(EXECUTION_LOG_ENV)
        if not log:
            return
        defaults = as_dict(self.chapter.resolve(self.params.profile))
        overrides = sorted(k for k, v in as_dict(self.params).items() if defaults.get(k) != v)
        record = {"chapter": self.chapter.key, "profile": self.params.profile, "overrides": overrides,
                  "explore": exploring(), "only": os.environ.get(ONLY_ENV) or None, "event": event,
                  "capability": cpu_info()["capability"], "wall_s": round(time.perf_counter() - self._t0, 1)}
        with open(log, "a", encoding="utf8") as stream:
            stream.write(json.dumps(record) + "\n")

    def _check_id(self, name: str) -> None:
        """Claims and values share one glue namespace: ids are unique across both."""
        taken = {c.id for c in self.claims} | set(self.values)
        if not _ID.match(name) or name.split(".")[0] != self.chapter.key:
            raise ValueError(f"id {name!r} must look like {self.chapter.key}.<paper item>.<name> "
                             f"(lowercase letters, digits, _)")
        if name in taken:
            raise ValueError(f"id {name!r} is used twice")


class ShownFigure:
    """A chapter's figure as a notebook shows it, drawn once: the glued value (``{glue:figure}``) and the
    cell's own output (the figure the page shows under its caption) are the same SVG, made by the
    kernel's formatter for figures (IPython's inline SVG, ``bbox_inches="tight"``) the first time either
    asks. Before, the glue drew the figure and the inline backend drew it again when the cell ended."""

    def __init__(self, fig):
        self.figure = fig
        self._bundle: dict | None = None

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        if self._bundle is None:
            from IPython import get_ipython

            self._bundle = get_ipython().display_formatter.format(self.figure)[0]   # asked only by IPython
        return self._bundle

    def __repr__(self) -> str:
        return repr(self.figure)

    def show_in_cell(self) -> bool:
        """In a notebook kernel, show the figure as the cell's output and close it (the inline backend
        then does not draw it again at the cell's end); nothing elsewhere. True when shown."""
        if kernel_shell() is None:
            return False
        import matplotlib.pyplot as plt
        from IPython.display import display

        display(self)
        plt.close(self.figure)
        return True


class GluedMarkdown:
    """Markdown glued for ``{glue:md}`` (the verdict table, the cite block); its plain text says only what
    it is (``label``: the numbers are in the summary nbval compares)."""

    def __init__(self, markdown: str, label: str):
        self.markdown, self.label = markdown, label

    def _repr_markdown_(self) -> str:
        return self.markdown

    def __repr__(self) -> str:
        return self.label


class VerdictsTable(GluedMarkdown):
    """The chapter-top verdict table: a raw HTML block for ``{glue:md}``."""

    def __init__(self, markdown: str):
        super().__init__(markdown, "<verdict table>")


class ClaimsTable:
    """Displays as the claims tables (HTML blocks in markdown) in the book and as the deterministic
    plain-text summary elsewhere (what nbval compares)."""

    def __init__(self, markdown: str, text: str):
        self.markdown, self.text = markdown, text

    def _repr_markdown_(self) -> str:
        return self.markdown

    def __repr__(self) -> str:
        return self.text


def exploring() -> bool:
    """Whether this is an exploration run (``$RNNREPRO_EXPLORE`` set): failing rows are collected, not raised."""
    return bool(os.environ.get(EXPLORE_ENV))


def counts_line(ledger: dict) -> str:
    """``"statements: 10 hold, 1 erratum; experiments: 5 reproduced, 1 partial; 3 findings of ours;
    6 integrity checks"`` for a ledger JSON (see :meth:`Ledger.to_json`)."""
    findings, checks = ledger.get("findings", 0), ledger.get("integrity_checks", 0)
    return (f"{type_counts_text(ledger['counts'])}; {findings} finding{'' if findings == 1 else 's'} of ours; "
            f"{checks} integrity check{'' if checks == 1 else 's'}")


def _versions() -> dict[str, str]:
    found = {}
    for name in _PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    return obj
