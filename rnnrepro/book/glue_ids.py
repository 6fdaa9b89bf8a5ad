"""The glue ids of a chapter, read without executing it: the names its code cells glue and the ids its text
quotes.

A chapter glues through its ledger: ``ledger.claim/finding/check(ID, ...)`` and ``ledger.value(ID, ...)`` glue
``ID``, ``ledger.figure(FIG, ...)`` glues ``<key>.FIG`` and ``ledger.finish()`` glues ``<key>.verdicts``, ``<key>.headline`` and ``<key>.cite`` (the
chapter-top verdict table) (:class:`rnnrepro.book.ledger.Ledger`). The text quotes
them as ``{glue:text}`ID:fmt```, ``{glue}`ID```, ``{glue:md}`ID``` or in a ``{glue:figure}`` directive. An id
quoted but never glued is a typo that only the book build (minutes) would find; :func:`unglued_ids` finds it
in a fraction of a second.

An id made by an f-string is expanded where its placeholders are loop variables over a literal tuple
(``for name in ("a", "b"): ledger.value(f"key.item.{name}", ...)``); other placeholders match any
``[a-z0-9_]+``, so the literal parts of such an id are still checked.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

GLUING = {"claim", "finding", "check", "value", "figure"}
#: A quoted id: {glue}`id`, {glue:text}`id:.3f`, {glue:md}`id`, ... (the format after the first colon).
QUOTED = re.compile(r"\{glue(?::\w*)?\}`([^`:\s]+)(?::[^`]*)?`")
#: The figure directive: ```{glue:figure} id
QUOTED_FIGURE = re.compile(r"^\s*(?:```+|:::+)\s*\{glue(?::\w+)?\}\s+(\S+)", re.M)
PLACEHOLDER = "[a-z0-9_]+"
#: The ledger methods that make a row of the claims ledger, anchored by its id on the page.
ROWS = {"claim", "finding", "check"}
#: A link to a claim's anchor in the text: ``[words](#key.item.name)``, ``<a href="#key.item.name">``,
#: also to another page (``ribeiro.md#ribeiro.fig1.x``, ``ribeiro.html#…``).
LINKED = re.compile(r'(?:\]\(|href=")[^()"\s#]*#([a-z][a-z0-9_]*\.[a-z0-9_]+\.[a-z0-9_]+)[)"]')


def _literal_bindings(loop: ast.For) -> dict[str, list]:
    """Loop variables bound to literal values: ``for a, b in (("x", 1), ("y", 2))`` → {a: [x, y], b: [1, 2]}."""
    if not isinstance(loop.iter, (ast.Tuple, ast.List)):
        return {}
    targets = loop.target.elts if isinstance(loop.target, ast.Tuple) else [loop.target]
    bound = {}
    for position, target in enumerate(targets):
        if not isinstance(target, ast.Name):
            continue
        values = []
        for item in loop.iter.elts:
            element = item if len(targets) == 1 else (
                item.elts[position] if isinstance(item, ast.Tuple) and len(item.elts) == len(targets) else None)
            try:
                values.append(ast.literal_eval(element))
            except (ValueError, TypeError, SyntaxError):
                break
        else:
            bound[target.id] = values
    return bound


def _expand(node: ast.JoinedStr, bindings: dict[str, list]) -> tuple[set[str], list[re.Pattern]]:
    """The strings an f-string can make: every combination of its bound placeholders, else a pattern."""
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append([str(value.value)])
        elif (isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name) and value.conversion == -1
              and value.format_spec is None and value.value.id in bindings):
            parts.append([str(v) for v in bindings[value.value.id]])
        else:
            parts.append(None)
    if all(p is not None for p in parts):
        return {"".join(combo) for combo in itertools.product(*parts)}, []
    return set(), [re.compile("".join(PLACEHOLDER if p is None else "(?:" + "|".join(map(re.escape, p)) + ")"
                                      for p in parts))]


def parse_cell(source: str) -> ast.Module:
    """A code cell parsed, with IPython magics and shell lines (``%``, ``!``) left out (and the cell's own
    syntax warnings, such as an invalid escape in a plain string, kept quiet: the chapter run reports them)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse("\n".join("" if line.lstrip().startswith(("%", "!")) else line
                                   for line in source.splitlines()))


def glued_names(key: str, code_cells: list[str], calls: set[str] = GLUING) -> tuple[set[str], list[re.Pattern]]:
    """(exact names, patterns) that the code cells of chapter ``key`` glue through its ledger (``calls``: the
    ledger methods read; :data:`ROWS` for the claim rows only, each of which is an anchor on the page)."""
    exact, patterns = set(), []

    def visit(node, bindings):
        if isinstance(node, ast.For):
            bindings = {**bindings, **_literal_bindings(node)}
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in calls
                and node.args):
            first = node.args[0]
            prefix = f"{key}." if node.func.attr == "figure" else ""
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                exact.add(prefix + first.value)
            elif isinstance(first, ast.JoinedStr):
                names, found = _expand(first, bindings)
                exact.update(prefix + n for n in names)
                patterns.extend(re.compile(re.escape(prefix) + p.pattern) for p in found)
        for child in ast.iter_child_nodes(node):
            visit(child, bindings)

    for source in code_cells:
        tree = parse_cell(source)
        visit(tree, {})
        if calls is GLUING and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                                   and n.func.attr == "finish" for n in ast.walk(tree)):
            exact.update({f"{key}.verdicts", f"{key}.headline", f"{key}.cite"})
    return exact, patterns


def quoted_ids(markdown_cells: list[str]) -> set[str]:
    """Every glue id the text quotes."""
    found = set()
    for text in markdown_cells:
        found |= set(QUOTED.findall(text)) | set(QUOTED_FIGURE.findall(text))
    return found


def unglued_ids(key: str, notebook: Path) -> list[str]:
    """The ids the chapter's text quotes that no code cell glues (sorted; empty when every one is glued)."""
    import jupytext

    cells = jupytext.read(notebook).cells
    exact, patterns = glued_names(key, [c.source for c in cells if c.cell_type == "code"])
    quoted = quoted_ids([c.source for c in cells if c.cell_type == "markdown"])
    return sorted(i for i in quoted if i not in exact and not any(p.fullmatch(i) for p in patterns))


def linked_ids(markdown_cells: list[str]) -> set[str]:
    """Every claim id the text links to (:data:`LINKED`)."""
    return {i for text in markdown_cells for i in LINKED.findall(text)}


def unanchored_links(notebook: Path, chapters: dict) -> list[str]:
    """The claim ids the page's text links to that no row of their chapter carries (sorted): a link names
    ``<key>.<item>.<name>``, and chapter ``key`` (of ``chapters``, the registry) records no such claim,
    finding or integrity check, nor lists it as a renamed id (:attr:`~rnnrepro.book.profiles.Chapter.renamed`)."""
    import jupytext

    broken = []
    rows: dict[str, tuple[set[str], list[re.Pattern]]] = {}
    links = linked_ids([c.source for c in jupytext.read(notebook).cells if c.cell_type == "markdown"])
    for claim_id in sorted(links):
        key = claim_id.split(".")[0]
        if key not in chapters:
            broken.append(claim_id)
            continue
        if key not in rows:
            chapter = chapters[key]
            cells = [c.source for c in jupytext.read(Path(notebook).parent / Path(chapter.notebook).name).cells
                     if c.cell_type == "code"]
            exact, patterns = glued_names(key, cells, ROWS)
            rows[key] = (exact | {old for old, _ in chapter.renamed}, patterns)
        exact, patterns = rows[key]
        if claim_id not in exact and not any(p.fullmatch(claim_id) for p in patterns):
            broken.append(claim_id)
    return broken
