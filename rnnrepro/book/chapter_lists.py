"""Every list of chapters outside the chapters' own files, generated from the registry.

- ``book/intro.md``: the chapter table (title, cited paper, the question each chapter asks);
- ``README.md``: the chapter table (paper-claim counts of each shipped ``full`` ledger), the data table
  (``Chapter.data``) and the time table (wall times of each shipped ``full`` MANIFEST);
- ``results/sensitivity.md``: the sensitivity results (recorded by ``python -m rnnrepro sensitivity
  KEY`` in ``results/sensitivity/<key>.json``) and the open gaps, with the reasons the entries give.

Each generated block sits between two marker lines (:func:`replace_block`); the sensitivity page is
generated whole. ``python -m rnnrepro generate`` rewrites them (:func:`write_generated`), ``ship-full``
and ``sensitivity`` do so after recording, and ``tests/test_chapter_lists.py`` fails when one is out
of date (:func:`out_of_date`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from rnnrepro.book.paths import REPO
from rnnrepro.book.rows import type_counts_text
from rnnrepro.errors import RnnreproError

COMMAND = "python -m rnnrepro generate"
FACTORS = (0.9, 1.1)          # the factors of a sensitivity run (rnnrepro.book.sensitivity.FACTORS)
SENSITIVITY_DIR = Path("results") / "sensitivity"
SENSITIVITY_PAGE = Path("results") / "sensitivity.md"
#: Comment syntax of the marker lines, by file suffix: MyST comments in the book, HTML comments elsewhere.
_COMMENTS = {"myst": ("% ", ""), "html": ("<!-- ", " -->")}


# ------------------------------------------------------------------ marker blocks
def markers(name: str, style: str) -> tuple[str, str]:
    """The opening and closing marker lines of the generated block ``name``."""
    head, tail = _COMMENTS[style]
    return (f"{head}generated: {name} (from the chapter registry by `{COMMAND}`; do not edit){tail}",
            f"{head}end generated: {name}{tail}")


def replace_block(text: str, name: str, body: str, *, style: str, where: str = "the file") -> str:
    """``text`` with the lines between the markers of block ``name`` replaced by ``body``.

    Raises RnnreproError (naming ``where`` and the marker lines to put back) when a marker is
    missing or doubled."""
    begin, end = markers(name, style)
    lines = text.split("\n")
    if lines.count(begin) != 1 or lines.count(end) != 1 or lines.index(begin) > lines.index(end):
        raise RnnreproError(f"{where} must hold the generated block {name!r} once, between the lines "
                            f"'{begin}' and '{end}': put them back around it and run `{COMMAND}`")
    i, j = lines.index(begin), lines.index(end)
    return "\n".join(lines[:i + 1] + ["", body.strip("\n"), ""] + lines[j:])


def _cell(text: str) -> str:
    """A markdown table cell: no pipe or line break can split the row."""
    return " ".join(str(text).replace("|", "\\|").split())


def _table(header: tuple[str, ...], rows: list[tuple]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows])


# ------------------------------------------------------------------ the intro's table
def short_title(title: str) -> str:
    """The title without its closing parenthesis of authors and year: 'The curse of memory (Li et al.,
    2021)' → 'The curse of memory'."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", title) or title


def intro_table(chapters: dict) -> str:
    """The intro's chapter table: a link to each chapter, its cited paper(s), the question it asks."""
    rows = []
    for chapter in chapters.values():
        link = Path(chapter.notebook).with_suffix("").relative_to("book").as_posix()
        paper = "{cite}`" + ",".join(chapter.cites) + "`" if chapter.cites else "—"
        rows.append((f"[{short_title(chapter.title)}]({link})", paper, chapter.question))
    return _table(("chapter", "paper", "question"), rows)


# ------------------------------------------------------------------ the README's tables
def verdict_text(counts: dict, findings: int) -> str:
    """A chapter's paper claims by kind and status, as the README words them: '42 paper claims
    (statements: 20 hold, 3 errata; experiments: 13 reproduced, 4 partial, 2 not reproduced); 7 findings
    of ours' (statuses with no claim left out)."""
    total = sum(counts.values())
    text = f"{total} paper claims ({type_counts_text(counts)})" if total else "no paper claims"
    if findings:
        text += f"; {findings} finding{'s' if findings > 1 else ''} of ours"
    return text


def ship_command(key: str) -> str:
    """The command that re-ships chapter ``key``'s ``full`` result, in backquotes."""
    return f"`python -m rnnrepro ship-full {key} --lower-isa`"


def readme_chapter_table(chapters: dict, shipped: dict) -> str:
    """The README's chapter table: key, paper, and the paper-claim counts of the shipped full ledger
    (``shipped[key]``: :func:`rnnrepro.book.full.shipped_full`, or None), then the entry's ``note``."""
    rows = []
    for key, chapter in chapters.items():
        full = shipped.get(key)
        if full is None:
            verdict = f"no `full` result shipped yet ({ship_command(key)})"
        else:
            verdict = verdict_text(full["counts"], full.get("findings", 0))
            if full.get("stale"):
                verdict += f" (the shipped `full` result is stale: re-ship it with {ship_command(key)})"
        if chapter.note:
            verdict += ". " + chapter.note.rstrip(".")
        rows.append((f"`{key}`", chapter.paper, verdict))
    header = ("chapter", "paper", "verdicts (paper claims at the paper-scale `full` profile, statements and "
                                  "experiments apart; integrity checks not counted)")
    return _table(header, rows)


def readme_data_table(chapters: dict) -> str:
    """The README's data table: chapters grouped by the data files they read (``Chapter.data``)."""
    groups: dict[tuple, list[str]] = {}
    for key, chapter in chapters.items():
        groups.setdefault(tuple(chapter.data), []).append(f"`{key}`")
    rows = [(", ".join(keys), ", ".join(f"`{f}`" for f in data) if data else "none: runs without any data")
            for data, keys in sorted(groups.items(), key=lambda kv: not kv[0])]
    return _table(("chapter", "data files (under the data root), checked before anything runs"), rows)


def isa_name(capability: str) -> str:
    """torch's kernel capability as people write it: 'AVX512' → 'AVX-512', 'AVX2' → 'AVX2'."""
    return {"AVX512": "AVX-512"}.get(str(capability).upper(), str(capability))


def run_time(run: dict | None) -> str:
    """One shipped run's wall time and kernel level, '79 s (AVX-512)'; '—' when it was not run."""
    return f"{run['wall_time_s']:.0f} s ({isa_name(run['cpu']['capability'])})" if run else "—"


def readme_time_table(chapters: dict, shipped: dict) -> str:
    """The README's time table: each shipped full run's wall time natively and one instruction set
    lower, the machine and the commit, from its MANIFEST."""
    rows = []
    for key in chapters:
        full = shipped.get(key)
        if full is None:
            rows.append((f"`{key}`", "not shipped", "—", "—", "—"))
            continue
        m = full["manifest"]
        machine, runs = m.get("machine", {}), m.get("runs", {})
        rows.append((f"`{key}`", run_time(runs.get("native")), run_time(runs.get("lower_isa")),
                     f"{machine.get('model', '?')}, {isa_name(machine.get('capability', '?'))}",
                     f"`{str(m.get('commit', '?'))[:7]}`, {str(m.get('created_utc', '?'))[:10]}"))
    return _table(("chapter", "full, native", "full, one instruction set lower", "full shipped from",
                   "at commit, on"), rows)


# ------------------------------------------------------------------ the sensitivity page
def sensitivity_records(root: Path = REPO) -> dict[str, dict]:
    """The recorded sensitivity runs of every chapter that has them: ``results/sensitivity/<key>.json``."""
    folder = Path(root) / SENSITIVITY_DIR
    return {p.stem: json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))}


_KIND_WORDS = {"paper": ("paper claim", "paper claims"), "finding": ("finding", "findings"),
               "integrity": ("integrity check", "integrity checks")}


def _count(run: dict, kind: str) -> int:
    """How many rows of ``kind`` a run failed: ``n_failed`` where recorded, else the ids listed."""
    return run.get("n_failed", {}).get(kind, len(run.get("failed", {}).get(kind, [])))


def _named(run: dict, kind: str, key: str) -> str:
    """' (`a.b`, `c.d`, …)': the first two failing ids of ``kind``, '…' when more failed."""
    ids = [i.removeprefix(f"{key}.") for i in run.get("failed", {}).get(kind, [])]
    shown = ", ".join(f"`{i}`" for i in ids[:2]) + (", …" if ids and _count(run, kind) > min(len(ids), 2) else "")
    return f" ({shown})" if shown else ""


def run_cell(run: dict | None, key: str) -> str:
    """What one perturbed run broke, in words: '2 paper claims fail (`a.b`, …); also 1 integrity check
    (`c.d`)', or '**no paper claim fails**; 1 finding does (`e.f`)'."""
    if run is None:
        return "not run"
    if run.get("error"):
        return f"crashed: {run['error']}"
    n = _count(run, "paper")
    others = [(k, kind) for kind in ("finding", "integrity") if (k := _count(run, kind))]
    words = ", ".join(f"{k} {_KIND_WORDS[kind][k > 1]}{_named(run, kind, key)}" for k, kind in others)
    if n:
        text = f"{n} paper claim{'s' if n > 1 else ''} fail{'s' if n == 1 else ''}{_named(run, 'paper', key)}"
        return text + (f"; also {words}" if others else "")
    if not others:
        return "**no paper claim fails**"
    return f"**no paper claim fails**; {words} {'does' if sum(k for k, _ in others) == 1 else 'do'}"


def short_commit(commit: str) -> str:
    """'fa788e39d70f…-dirty' → 'fa788e3-dirty': seven hex digits, the dirty mark kept."""
    return commit[:7] + ("-dirty" if commit.endswith("-dirty") else "")


def _runs_by(record: dict) -> dict[tuple[str, float], dict]:
    return {(r["helper"], float(r["factor"])): r for r in record.get("runs", [])}


def open_gaps(chapters: dict, records: dict) -> list[tuple[str, str, list[float]]]:
    """(chapter, helper, factors) for every registered helper some recorded factor of which fails no paper
    claim (a crashed run is not a gap: it is reported as such)."""
    gaps = []
    for key, chapter in chapters.items():
        runs = _runs_by(records.get(key, {}))
        for helper in chapter.helpers:
            missed = [f for f in FACTORS if (helper, f) in runs and not runs[(helper, f)].get("error")
                      and not _count(runs[(helper, f)], "paper")]
            if missed:
                gaps.append((key, helper, missed))
    return gaps


def gap_problems(chapters: dict, records: dict) -> list[str]:
    """Where the registry's ``gaps=`` and the recorded sensitivity runs disagree, each with its fix: an open
    gap (:func:`open_gaps`) without a reason; a reason for a helper whose runs are not recorded yet (run
    ``sensitivity``); a reason for a helper whose recorded runs all fail a paper claim (remove it)."""
    open_ = {(key, helper): factors for key, helper, factors in open_gaps(chapters, records)}
    problems = []
    for key, chapter in chapters.items():
        runs = _runs_by(records.get(key, {}))
        reasons = {helper for helper, _ in chapter.gaps}
        for helper in chapter.helpers:
            if (key, helper) in open_ and helper not in reasons:
                factors = ", ".join(f"×{f:g}" for f in open_[(key, helper)])
                problems.append(f"{key}: {helper} fails no paper claim at {factors} and gaps= gives no reason: add "
                                f"({helper!r}, '<why no row can see it>') to gaps= in rnnrepro/book/chapters/{key}.py")
        for helper in sorted(reasons):
            if (key, helper) in open_:
                continue
            if not any((helper, f) in runs for f in FACTORS):
                problems.append(f"{key}: gaps= names {helper}, whose sensitivity runs are not recorded yet: run "
                                f"`python -m rnnrepro sensitivity {key}` to record them (keep the reason if a run "
                                f"still fails no paper claim)")
            else:
                problems.append(f"{key}: gaps= names {helper}, whose recorded runs now each fail a paper claim: remove "
                                f"it from gaps= (or, if the helper changed since, rerun `python -m rnnrepro "
                                f"sensitivity {key}`)")
    return problems


def sensitivity_page(chapters: dict, records: dict) -> str:
    """The whole sensitivity page: one row per chapter and helper, a summary per chapter, the open gaps."""
    begin, end = markers("sensitivity", "html")
    rows, summary, notes = [], [], {}
    for key, chapter in chapters.items():
        record = records.get(key, {})
        runs = _runs_by(record)
        detected = total = 0
        for helper in chapter.helpers:
            cells = [runs.get((helper, f)) for f in FACTORS]
            dates = sorted({r.get("date", "?") + (f" (`{short_commit(r['commit'])}`)" if r.get("commit") else "")
                            for r in cells if r})
            rows.append((f"`{key}`", f"`{helper.removeprefix('rnnrepro.')}`", *(run_cell(r, key) for r in cells),
                         ", ".join(dates) or "—"))
            for r in filter(None, cells):
                total += 1
                detected += bool(_count(r, "paper"))
        if not chapter.helpers:
            summary.append(f"`{key}`: no numerical helpers listed (`helpers=` in its registry entry)")
        elif total:
            summary.append(f"`{key}`: {detected} of {total}")
        else:
            summary.append(f"`{key}`: not run (`python -m rnnrepro sensitivity {key}`)")
        if record.get("note"):
            notes.setdefault(record["note"], []).append(f"`{key}`")
    reasons = {(key, h): why for key, ch in chapters.items() for h, why in ch.gaps}
    gaps = [f"- `{key}` `{helper.removeprefix('rnnrepro.')}` (×{', ×'.join(f'{f:g}' for f in factors)}): "
            + (reasons.get((key, helper)) or f"**no reason given**: add it to `gaps=` in "
               f"`rnnrepro/book/chapters/{key}.py`, or a paper claim that notices the error")
            for key, helper, factors in open_gaps(chapters, records)]
    header = ("chapter", "helper", *(f"×{f:g}" for f in FACTORS), "run")
    parts = [begin, "", "# Sensitivity of the paper claims to a 10 % error in a numerical helper", "",
             "The rule (CONTRIBUTING.md, *Sensitivity*): a 10 % error in any numerical helper a chapter's claims "
             "rest on must fail at least one of its paper claims. Each row is one helper of a chapter's registry "
             "entry (`helpers=`), run with its floating-point outputs scaled by 0.9 and by 1.1 in the `fast` "
             "profile by `python -m rnnrepro sensitivity KEY`, which records the runs in "
             f"`{SENSITIVITY_DIR.as_posix()}/<key>.json`; this page is generated from those records.", "",
             _table(header, rows), "",
             "Perturbation runs that fail a paper claim: " + "; ".join(summary) + ".", ""]
    if notes:
        parts += ["Where the records come from:", "", *(f"- {', '.join(keys)}: {note}" for note, keys in notes.items()),
                  ""]
    parts += ["## Open gaps", "",
              "A 10 % error that fails no paper claim, with the reason the chapter's registry entry gives "
              "(`gaps=`). Each is to be closed by a claim that anchors the helper's absolute level, not by a "
              "tighter window around today's value.", "", *(gaps or ["None."]), "", end]
    return "\n".join(parts) + "\n"


# ------------------------------------------------------------------ the files
def generated(root: Path = REPO) -> dict[Path, str]:
    """Every generated file's new text, by path: README.md, book/intro.md, results/sensitivity.md."""
    from rnnrepro.book.chapters import all_chapters
    from rnnrepro.book.full import shipped_full

    root = Path(root)
    chapters = all_chapters()
    shipped = {key: shipped_full(key) for key in chapters}
    readme, intro = root / "README.md", root / "book" / "intro.md"
    text = readme.read_text()
    for name, body in (("chapters", readme_chapter_table(chapters, shipped)),
                       ("data", readme_data_table(chapters)), ("times", readme_time_table(chapters, shipped))):
        text = replace_block(text, name, body, style="html", where="README.md")
    return {readme: text,
            intro: replace_block(intro.read_text(), "chapters", intro_table(chapters), style="myst",
                                 where="book/intro.md"),
            root / SENSITIVITY_PAGE: sensitivity_page(chapters, sensitivity_records(root))}


def out_of_date(root: Path = REPO) -> list[Path]:
    """The generated files whose text differs from what the registry and the results give now."""
    return [path for path, text in generated(root).items() if not path.is_file() or path.read_text() != text]


def write_generated(root: Path = REPO) -> list[Path]:
    """Rewrite every out-of-date generated file; return those rewritten."""
    changed = []
    for path, text in generated(root).items():
        if not path.is_file() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            changed.append(path)
    return changed
