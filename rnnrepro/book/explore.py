"""Exploration runs (``python -m rnnrepro run KEY --explore``): a chapter run that goes on past failing rows.

The strict ``run`` (:func:`rnnrepro.book.runner.run_chapter`, what the book build and the tests rely on) stops at
the first row whose criterion fails. An exploration run sets ``$RNNREPRO_EXPLORE`` (the ledger then collects
failing rows instead of raising, :meth:`rnnrepro.book.ledger.Ledger._fail`) and lets the kernel go on past a cell
that raised (nbclient's ``allow_errors``), so that it always leaves the executed notebook and, once the chapter's
first cell has opened its ledger, the ledger (marked ``"explore": true``) in its own folder, ``_build/explore``,
apart from the strict runs' results. It can run one section of the page alone (:func:`select_section`), and
:func:`recorded_value` reads any recorded number back (``python -m rnnrepro value KEY ID``).
"""

from __future__ import annotations

import ast
import builtins
import json
import re
from pathlib import Path

from rnnrepro.book.chapters import get_chapter
from rnnrepro.book.paths import OUT_ENV, REPO, ledger_paths
from rnnrepro.errors import ConfigError, RnnreproError

#: Where ``run KEY --explore`` writes by default (apart from the strict runs' ``_build/runs``).
EXPLORE_OUT = REPO / "_build" / "explore"
_SECTION = re.compile(r"""ledger\.section\(\s*["']([A-Za-z0-9_.-]+)["']""")
_HEADING = re.compile(r"^#{2,6} ", re.M)


def explore_chapter(key: str, profile: str = "fast", overrides: dict | None = None, out: Path = EXPLORE_OUT,
                    only: str | None = None, progress: bool | None = None) -> dict:
    """Execute a chapter in exploration mode; return ``{"ledger": dict | None, "notebook": Path, "ledger_path":
    Path, "errors": [(cell index, exception name, first line of its message), ...]}``.

    Failing rows are recorded in the ledger (``failures``, each row's ``holds``/``control_holds``), not raised;
    a cell that raises for another reason is listed in ``errors`` and the run goes on with the next cell.
    ``only`` names a section (:func:`section_names`): only the chapter's first cells, the cells of that section,
    the cells they need (:func:`select_section`) and its last cell run. Bad arguments raise ConfigError before
    a kernel starts."""
    import papermill

    from rnnrepro.book.ledger import EXPLORE_ENV, ONLY_ENV
    from rnnrepro.book.runner import checked_notebook, discard_partial_run, environment, execute, writable_out

    source, notebook = checked_notebook(key, profile, overrides, only)
    out = writable_out(out)
    discard_partial_run(out, key)
    (out / f"{key}.failed.txt").unlink(missing_ok=True)
    ledger_path, nb_path = out / f"{key}.ledger.json", out / f"{key}.ipynb"
    try:
        with environment({OUT_ENV: str(out), EXPLORE_ENV: "1", ONLY_ENV: only or ""}):
            execute(notebook, source.parent, nb_path, profile, overrides, progress, allow_errors=True)
    except papermill.PapermillExecutionError:
        pass                                     # every cell ran; the errors are read from the notebook below
    errors = cell_errors(nb_path)
    ledger = None
    if ledger_path.is_file():
        ledger = json.loads(ledger_path.read_text())
        ledger["explore_errors"] = [list(e) for e in errors]     # its section, if one: ledger["only"]
        ledger_path.write_text(json.dumps(ledger, indent=1, ensure_ascii=False) + "\n")
    return {"ledger": ledger, "ledger_path": ledger_path, "notebook": nb_path, "errors": errors}


def cell_errors(path: Path) -> list[tuple[int, str, str]]:
    """The cells of an executed notebook that raised: (index, exception name, first line of its message)."""
    import nbformat

    if not path.is_file():
        return []
    nb = nbformat.read(path, as_version=4)
    return [(i, o.ename, (o.evalue or "").splitlines()[0] if o.evalue else "")
            for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for o in cell.get("outputs", []) if o.output_type == "error"]


# ---------------------------------------------------------------------- one section alone
def section_names(notebook) -> list[str]:
    """The section names of a chapter notebook, in order: what its cells open with ``ledger.section("NAME")``."""
    names = [m for cell in notebook.cells if cell.cell_type == "code" for m in _SECTION.findall(cell.source)]
    return list(dict.fromkeys(names))


def select_section(notebook, name: str, key: str = "chapter"):
    """A copy of ``notebook`` that runs only section ``name``: the code cells before the first heading (parameters,
    :func:`~rnnrepro.book.session.start`), every heading's block (its cells up to the next heading) that opens
    ``ledger.section(name)``, the cells those need (:func:`needed_cells`), and the cell that calls
    ``ledger.finish()``. Markdown cells are dropped. Raises ConfigError naming the valid sections."""
    import copy

    names = section_names(notebook)
    if name not in names:
        raise ConfigError(f"{key} has no section {name!r}: choose one of {', '.join(names)}")
    cells = notebook.cells
    block, blocks = -1, []
    for cell in cells:
        if cell.cell_type == "markdown" and _HEADING.search(cell.source):
            block += 1
        blocks.append(block)
    chosen = {blocks[i] for i, c in enumerate(cells) if c.cell_type == "code" and name in _SECTION.findall(c.source)}
    keep = {i for i, c in enumerate(cells) if c.cell_type == "code"
            and (blocks[i] == -1 or blocks[i] in chosen or "ledger.finish()" in c.source)}
    code = {i: c.source for i, c in enumerate(cells) if c.cell_type == "code"}
    keep = needed_cells(code, keep)
    selected = copy.deepcopy(notebook)
    selected.cells = [copy.deepcopy(cells[i]) for i in sorted(keep)]
    return selected


def needed_cells(code: dict[int, str], keep: set[int]) -> set[int]:
    """``keep`` with the earlier cells whose names its cells read, transitively: for each name a kept cell reads
    and does not define itself, the last earlier cell that defines it (an assignment, import, ``def``, ``for``
    or ``with … as``) and the cells between that change it in place (``x[i] = …``, ``x.a = …``). A cell that
    does not parse (IPython syntax) defines and reads nothing. ``code``: cell index → source."""
    parsed = {i: _names(src) for i, src in code.items()}
    order = sorted(code)
    keep, todo = set(keep), sorted(keep)
    while todo:
        i = todo.pop()
        defines, reads, _ = parsed[i]
        for name in reads - defines:
            earlier = [j for j in order if j < i]
            where = [j for j in earlier if name in parsed[j][0]]
            if not where:
                continue
            first = where[-1]
            for j in [first] + [j for j in earlier if j > first and name in parsed[j][2]]:
                if j not in keep:
                    keep.add(j)
                    todo.append(j)
    return keep


def _names(source: str) -> tuple[set[str], set[str], set[str]]:
    """(names a cell defines, names it reads that are not builtins, names it changes in place)."""
    import warnings

    try:
        with warnings.catch_warnings():             # a cell's "\s" in a plain string: the kernel's business
            warnings.simplefilter("ignore", (SyntaxWarning, DeprecationWarning))
            tree = ast.parse(source)
    except SyntaxError:
        return set(), set(), set()
    defines, reads, changes = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (reads if isinstance(node.ctx, ast.Load) else defines).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defines.add(node.name)
        elif isinstance(node, ast.arg):
            defines.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defines.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                changes.add(base.id)
    return defines, reads - set(dir(builtins)), changes


# ---------------------------------------------------------------------- reading a run back
def rows_table(ledger: dict) -> str:
    """One line per row of a ledger: its id (without the chapter's key), kind, measured value, criterion, negative
    control (its value, or ``—`` for a row without one) and verdict (``met``; ``FAILED``: the criterion does not
    hold; ``CONTROL MET``: the negative control meets it too, so the check cannot fail), in aligned columns under
    a header."""
    from rnnrepro.book.cli import without_latex
    from rnnrepro.book.rows import show

    key = ledger["chapter"]
    rows = [("row", "kind", "measured", "criterion", "control", "verdict")]
    for c in ledger["claims"]:
        verdict = ("met" if c["holds"] else "FAILED") + (", CONTROL MET" if c.get("control_holds") else "")
        control = "—" if c.get("control") is None else show(c["control"], c.get("fmt", ".4g"))
        rows.append((c["id"].removeprefix(f"{key}."), c.get("type") or c["kind"],
                     show(c["measured"], c.get("fmt", ".4g")), without_latex(c["criterion"]), control, verdict))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1]).rstrip()
                     for row in rows)


def newest_ledger(key: str, out: str | Path | None = None) -> Path:
    """The ledger of chapter ``key``'s last run: in ``out`` when given, else the newest of the exploration
    runs', the strict runs' (``_build/runs``) and the book build's. Raises RnnreproError when there is none."""
    chapter = get_chapter(key)
    paths = ([Path(out) / f"{chapter.key}.ledger.json"] if out is not None
             else [EXPLORE_OUT / f"{chapter.key}.ledger.json", *ledger_paths(chapter)])
    found = [p for p in paths if p.is_file()]
    if not found:
        where = ", ".join(str(p.parent) for p in paths)
        raise RnnreproError(f"no ledger of {chapter.key} in {where}: run `python -m rnnrepro run {chapter.key} "
                            f"--explore` first")
    return max(found, key=lambda p: p.stat().st_mtime)


def recorded_value(ledger: dict, name: str):
    """The value recorded under ``name`` in a ledger: a row's measured value or a value glued for the prose,
    ``name`` in full (``dynamics.contraction.banach_steps``) or without the chapter's key. Raises RnnreproError
    naming a few close ids when there is none."""
    import difflib

    key = ledger["chapter"]
    full = name if name.startswith(f"{key}.") else f"{key}.{name}"
    found = {c["id"]: c["measured"] for c in ledger["claims"]} | dict(ledger.get("values", {}))
    if full in found:
        return found[full]
    close = difflib.get_close_matches(full, list(found), n=3, cutoff=0.5)
    raise RnnreproError(f"{key}'s last run recorded no {full!r}"
                        + (f": did you mean {', '.join(close)}?" if close else f" (`value {key}` lists them)"))
