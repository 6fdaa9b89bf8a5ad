"""The book's structure: every chapter is registered, in the toc, and executes before the scorecard."""

import re

import jupytext
import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.paths import REPO, toc_files

NOTEBOOKS = [f for f in toc_files() if "kernelspec" in (REPO / f"{f}.md").read_text()[:600]]


def test_every_toc_file_exists_and_no_ipynb_twin():
    for f in toc_files():
        assert (REPO / f"{f}.md").is_file(), f
        assert not (REPO / f"{f}.ipynb").exists(), f"{f}.ipynb beside {f}.md breaks the -W build"


def test_chapters_are_in_the_toc_and_sort_before_the_scorecard():
    # Sphinx reads (and executes) pages in sorted docname order; the scorecard reads the ledgers.
    files = toc_files()
    for chapter in all_chapters().values():
        stem = chapter.notebook.removesuffix(".md")
        assert stem in files, f"{chapter.key} is not in _toc.yml"
        assert stem < "book/environment" < "book/scorecard", stem


@pytest.mark.parametrize("chapter", list(all_chapters().values()), ids=lambda c: c.key)
def test_chapter_notebook_header_and_parameters(chapter):
    nb = jupytext.read(REPO / chapter.notebook)
    assert nb.metadata["jupytext"]["text_representation"]["format_name"] == "myst"
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1, "exactly one cell tagged `parameters`"
    first = re.search(r"^\s*(\w+)\s*=", params[0].source, re.M)
    assert first and first.group(1) == "profile", "the first parameter is `profile`"
    assert "overrides" in params[0].source
    assert f'start("{chapter.key}"' in "".join(c.source for c in nb.cells)
    last = [c for c in nb.cells if c.cell_type == "code"][-1].source
    assert last.startswith("# NBVAL_CHECK_OUTPUT") and "ledger.finish()" in last


def test_scorecard_and_environment_are_notebooks():
    assert {"book/scorecard", "book/environment"} <= set(NOTEBOOKS)


def test_launch_buttons_lead_to_services_that_open_the_chapters():
    """No launch service in _config.yml: rnnrepro.site.sphinxext.launch adds Binder and Colab (the
    executed .ipynb) once the public address is set (tests/test_sphinxext_launch.py); Binder's
    environment is the book's."""
    import yaml

    config = yaml.safe_load((REPO / "_config.yml").read_text())
    launch = [config["launch_buttons"], config["sphinx"]["config"]["html_theme_options"]["launch_buttons"]]
    assert all("colab_url" not in b and "binderhub_url" not in b for b in launch), "a button to a placeholder"
    binder = (REPO / "binder" / "requirements.txt").read_text().split()
    assert "../requirements.txt" in binder and "https://download.pytorch.org/whl/cpu" in binder
    assert "python -m rnnrepro fetch-data" in (REPO / "binder" / "postBuild").read_text()


def test_binder_installs_the_books_pins_on_its_python():
    """Binder (repo2docker) builds the environment the book is checked in: requirements.txt's pins, none of its
    own (only the root file and torch's CPU index), on the Python version that requirements.txt names
    (runtime.txt; repo2docker's default Python is another one), and fetches the data the chapters read."""
    lines = [line.split("#")[0].strip() for line in (REPO / "binder" / "requirements.txt").read_text().splitlines()]
    assert sorted(filter(None, lines)) == ["--extra-index-url https://download.pytorch.org/whl/cpu",
                                            "-r ../requirements.txt"], "binder/requirements.txt pins a package itself"
    python = re.search(r"\(Python (3\.\d+)", (REPO / "requirements.txt").read_text()).group(1)
    assert (REPO / "binder" / "runtime.txt").read_text().split() == [f"python-{python}"]
    assert "-e ." in (REPO / "requirements.txt").read_text().splitlines()       # the package itself
    postbuild = (REPO / "binder" / "postBuild")
    assert postbuild.read_text().startswith("#!/usr/bin/env bash") and postbuild.stat().st_mode & 0o111


ROW_CALL = re.compile(r"\bledger\.(claim|finding|check)\(")
#: Tags that keep a cell's source off the page as first seen (removed, or folded behind a click).
HIDDEN = {"remove-cell", "remove-input", "hide-input", "hide-cell"}
CHAPTERS = list(all_chapters().values())


def _code_cells(chapter) -> list:
    return [c for c in jupytext.read(REPO / chapter.notebook).cells if c.cell_type == "code"]


def _parse(source: str):
    """The cell's syntax tree (a notebook's escape sequences are its own business here)."""
    import ast
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(_python(source))


def _python(source: str) -> str:
    """A cell's source as Python: IPython magics and shell lines blanked (line numbers kept)."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


def _only_sets_up(source: str) -> bool:
    """The cell only imports and starts the session (``ledger = start(...)``, its parameters, the style)."""
    import ast

    body = _parse(source).body
    if not body:
        return False
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        call = node.value if isinstance(node, (ast.Assign, ast.Expr)) else None
        name = call.func if isinstance(call, ast.Call) else call
        name = getattr(name, "attr", None) or getattr(name, "id", None)
        if name not in {"start", "params", "use_book_style", "set_num_threads"}:
            return False
    return True


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.key)
def test_cells_are_short_and_plumbing_is_removed(chapter):
    """A cell computes, or glues, or declares rows: at most 40 non-blank lines. The parameters cell, every
    cell that only imports or starts the session is tagged ``remove-cell``; every cell that declares rows
    (``ledger.claim/finding/check``) is folded (``hide-input`` or ``hide-cell``, so the code behind each row
    is one click away), never removed. Every code cell shown open has lines of at most 80 characters (none
    scrolls sideways)."""
    problems = []
    for k, cell in enumerate(_code_cells(chapter)):
        tags = set(cell.metadata.get("tags", []))
        lines = [line for line in cell.source.splitlines() if line.strip()]
        first = (lines[0].strip() if lines else "")[:60]
        where = f"{chapter.key}: code cell {k} ({first!r})"
        if len(lines) > 40:
            problems.append(f"{where} has {len(lines)} non-blank lines (at most 40)")
        if "parameters" in tags and "remove-cell" not in tags:
            problems.append(f"{where} is the parameters cell: tag it [parameters, remove-cell]")
        elif ROW_CALL.search(cell.source) and (not tags & {"hide-input", "hide-cell"} or "remove-cell" in tags):
            problems.append(f"{where} declares rows but is tagged {sorted(tags)}: fold it (hide-input)")
        elif _only_sets_up(cell.source) and "remove-cell" not in tags:
            problems.append(f"{where} only imports or starts the session but is tagged {sorted(tags)}: remove-cell")
        if not tags & HIDDEN:
            long = [line for line in cell.source.splitlines() if len(line) > 80]
            if long:
                problems.append(f"{where} is shown open with {len(long)} line(s) over 80 characters "
                                f"(e.g. {len(long[0])}: {long[0].strip()[:50]!r}): fold it (hide-input) or wrap")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.key)
def test_every_paper_claim_names_its_quantity_on_a_line_of_its_own(chapter):
    """Every ``ledger.claim(...)`` call has ``quantity="..."`` on a line of its own (presentation: the code
    hash leaves such a line out, so adding or rewording one keeps the shipped full result current)."""
    import ast

    problems = []
    for k, cell in enumerate(_code_cells(chapter)):
        source = _python(cell.source)
        lines = source.splitlines()
        for node in ast.walk(_parse(cell.source)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "claim"
                    and getattr(node.func.value, "id", None) == "ledger"):
                continue
            first = node.args[0] if node.args else None
            claim = first.value if isinstance(first, ast.Constant) else f"line {node.lineno}"
            quantity = next((kw for kw in node.keywords if kw.arg == "quantity"), None)
            if quantity is None:
                problems.append(f"{chapter.key}: cell {k}: claim {claim} has no quantity=")
            elif not (lines[quantity.value.lineno - 1].lstrip().startswith("quantity=")
                      and quantity.value.end_lineno == quantity.value.lineno):
                problems.append(f"{chapter.key}: cell {k}: claim {claim}: quantity= is not on a line of its own")
    assert not problems, "\n".join(problems)


def _prose(chapter) -> list[str]:
    """The chapter's markdown lines, in order (front matter and code cells left out)."""
    nb = jupytext.read(REPO / chapter.notebook)
    return [line for c in nb.cells if c.cell_type == "markdown" for line in c.source.splitlines()]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.key)
def test_a_chapter_opens_with_in_short(chapter):
    """``**In short.**`` within the first 30 non-blank lines of prose after the title (the first screen)."""
    lines = _prose(chapter)
    title = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    assert title is not None, f"{chapter.key}: no '# ' title"
    after = [line for line in lines[title + 1:] if line.strip()][:30]
    assert any("**In short.**" in line for line in after), \
        f"{chapter.key}: no '**In short.**' in the first 30 non-blank prose lines after the title"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.key)
def test_a_chapter_gives_its_notation_at_the_top(chapter):
    """A short fold ``:::{dropdown} Notation`` (at most 12 lines) on the first screen: after *In short* and the
    paragraph on the paper and what the chapter assumes, before the first section; the front matter's links to
    the book's notation table (its section labelled ``dynamics-notation``)."""
    lines = _prose(chapter)
    first_section = next((i for i, line in enumerate(lines) if line.startswith("## ")), len(lines))
    opening = lines[:first_section]
    starts = [i for i, line in enumerate(opening) if re.fullmatch(r":::+\{dropdown\} Notation\s*", line)]
    assert len(starts) == 1, f"{chapter.key}: no ':::{{dropdown}} Notation' fold before the first '## ' section"
    fence = opening[starts[0]].split("{")[0]
    end = next((i for i in range(starts[0] + 1, len(opening)) if opening[i].strip() == fence), None)
    assert end is not None, f"{chapter.key}: the notation fold is not closed before the first section"
    assert end - starts[0] - 1 <= 12, f"{chapter.key}: the notation fold has {end - starts[0] - 1} lines (at most 12)"
    in_short = next(i for i, line in enumerate(opening) if "**In short.**" in line)
    paper = next((i for i, line in enumerate(opening) if re.match(r"\*\*The paper", line)), None)
    assert paper is not None and in_short < paper < starts[0], \
        f"{chapter.key}: the notation comes after In short and the paragraph on the paper and what it assumes"
    if chapter.key == "dynamics":
        assert "<dynamics-notation>`" in "\n".join(opening[starts[0]:end])
        assert "(dynamics-notation)=" in lines


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.key)
def test_behind_this_page_holds_the_apparatus_before_the_exercises(chapter):
    """``## Behind this page``, then ``## Cite this chapter``, then ``## Exercises``, the last section;
    Behind this page holds the two dropdowns: the response to review and the deviations, compute and data."""
    from rnnrepro.book.cite import CITE_HEADING, cite_section_markdown

    lines = _prose(chapter)
    heads = [(i, line.strip()) for i, line in enumerate(lines) if line.startswith("## ")]
    names = [h for _, h in heads]
    assert "## Behind this page" in names, f"{chapter.key}: no '## Behind this page' section"
    assert "## Exercises" in names, f"{chapter.key}: no '## Exercises' section"
    assert names[-1] == "## Exercises", f"{chapter.key}: '## Exercises' is not the last section ({names[-1]!r} is)"
    assert names[-3:] == ["## Behind this page", f"## {CITE_HEADING}", "## Exercises"], (
        f"{chapter.key}: the page must end with '## Behind this page' (its last cell ledger.finish()), then "
        f"this, then '## Exercises':\n{cite_section_markdown(chapter.key)}")
    assert cite_section_markdown(chapter.key) in (REPO / chapter.notebook).read_text(), \
        f"{chapter.key}: its '## {CITE_HEADING}' section must show the glued cite block:\n" \
        + cite_section_markdown(chapter.key)
    behind = names.index("## Behind this page")
    start, end = heads[behind][0], heads[-2][0]
    section = "\n".join(lines[start:end])
    for title in ("Response to review", "Deviations, compute and data"):
        assert re.search(rf"^:::+\{{dropdown\}} {re.escape(title)}\s*$", section, re.M), \
            f"{chapter.key}: 'Behind this page' has no ':::{{dropdown}} {title}'"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.key)
def test_no_escaped_quote_reaches_the_page(chapter):
    """No literal ``\\"`` in the prose, nor in a raw string of a code cell (a claim's text written
    r"... \\"x\\" ..." shows the backslash on the page)."""
    import io
    import tokenize

    problems = [f"prose: {line.strip()[:70]!r}" for line in _prose(chapter) if '\\"' in line]
    for k, cell in enumerate(_code_cells(chapter)):
        tokens = tokenize.generate_tokens(io.StringIO(_python(cell.source)).readline)
        for tok in tokens:
            if tok.type == tokenize.STRING and re.match(r"[a-zA-Z]*[rR]", tok.string) and '\\"' in tok.string:
                problems.append(f"code cell {k}, line {tok.start[0]}: raw string with \\\": {tok.string[:60]!r}")
    assert not problems, f"{chapter.key}: " + "\n".join(problems)


DRAWING = re.compile(r"\bnew_figure\(|\bplt\.|\.(plot|semilogy|semilogx|loglog|scatter|contourf|imshow|fill_between|"
                     r"axhline|axvline|axvspan|legend|colorbar|bar|hist)\(")


@pytest.mark.parametrize("chapter", list(all_chapters().values()), ids=lambda c: c.key)
def test_figure_cells_only_call_the_chapters_figure_functions(chapter):
    """One convention for figures: the drawing lives in the chapter's package (``rnnrepro/<key>/figures.py``
    or a module named for the figures it draws); the cell that saves a figure with ``ledger.figure`` calls
    it and draws nothing itself."""
    nb = jupytext.read(REPO / chapter.notebook)
    for k, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        if "ledger.figure(" in cell.source:
            drawn = DRAWING.search(cell.source)
            assert drawn is None, f"{chapter.key}: figure cell {k} draws ({drawn.group(0)!r}) instead of calling " \
                                  f"a function of rnnrepro/{chapter.key}/"


def _chapters_importing(module: str) -> set[str]:
    """The chapters whose package (rnnrepro/<key>/) or notebook imports rnnrepro.core.<module>."""
    name = module.rsplit(".", 1)[-1]
    pattern = re.compile(rf"rnnrepro\.core\.{name}\b|from rnnrepro\.core import [^\n]*\b{name}\b")
    users = set()
    for key, chapter in all_chapters().items():
        sources = [REPO / chapter.notebook, *sorted((REPO / "rnnrepro" / key).rglob("*.py"))]
        if any(pattern.search(path.read_text()) for path in sources if path.is_file()):
            users.add(key)
    return users


@pytest.mark.parametrize("module", sorted(p.stem for p in (REPO / "rnnrepro" / "core").glob("*.py")
                                         if p.stem != "__init__"))
def test_core_holds_only_what_two_chapters_use(module):
    users = _chapters_importing(module)
    assert len(users) >= 2, (f"rnnrepro/core/{module}.py is used by {sorted(users) or 'no chapter'}: "
                             f"core/ holds numerics that at least two chapters use; move it to the chapter's package")


def _imports(path) -> set[str]:
    found = set(re.findall(r"^\s*(?:from|import)\s+(rnnrepro(?:\.\w+)*)", path.read_text(), re.M))
    found |= {f"{m}.{n.strip()}" for m, names in re.findall(r"^\s*from\s+(rnnrepro(?:\.\w+)*)\s+import\s+([\w, ]+)",
                                                             path.read_text(), re.M) for n in names.split(",")}
    return found


def test_lower_layers_import_nothing_above_them():
    """core/ and data/ import neither the book's machinery nor a chapter's package."""
    chapters = set(all_chapters())
    for layer in ("core", "data"):
        for path in sorted((REPO / "rnnrepro" / layer).rglob("*.py")):
            for target in _imports(path):
                top = target.split(".")[1] if "." in target else ""
                assert top not in {"book", "site", *chapters}, f"{path.relative_to(REPO)} imports {target}"


def test_no_chapter_imports_another_chapters_package():
    """A chapter's package (rnnrepro/<key>/) and its notebook import rnnrepro.core, rnnrepro.book, rnnrepro.data
    and their own package, never another chapter's: what two chapters share lives in core/."""
    chapters = set(all_chapters())
    crossings = []
    for key, chapter in all_chapters().items():
        sources = [REPO / chapter.notebook, *sorted((REPO / "rnnrepro" / key).rglob("*.py"))]
        for path in sources:
            if not path.is_file():
                continue
            for target in _imports(path):
                top = target.split(".")[1] if "." in target else ""
                if top in chapters and top != key:
                    crossings.append(f"{path.relative_to(REPO)} imports {target}")
    assert not crossings, ("a chapter imports another chapter's package: move what they share to rnnrepro/core/\n"
                           + "\n".join(sorted(set(crossings))))


def test_the_package_has_no_import_circle():
    """Module-level imports between rnnrepro's modules form no cycle (imports inside functions, made lazily
    on purpose, are not counted)."""
    import ast

    root = REPO / "rnnrepro"
    modules = {".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): p
               for p in root.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        deps = set()
        for node in ast.parse(path.read_text()).body:
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            deps |= {t for t in targets if t in modules and t != name}
        graph[name] = deps
    state = {}

    def visit(node, stack):
        state[node] = "open"
        for dep in sorted(graph[node]):
            if state.get(dep) == "open":
                raise AssertionError("import circle: " + " -> ".join(stack[stack.index(dep):] + [dep]))
            if dep not in state:
                visit(dep, stack + [dep])
        state[node] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


CAPTION_START = re.compile(r"^(Paper Fig\. \d+(\([a-z, –]+\))?( replicated\b| re-run\b| redrawn\b|, at reduced scale\.)"
                           r"|Not in the paper: \S)")
#: Panels are named "(a) …; (b) …", never by position; a LaTeX command (\left, \top) is not a panel word.
PANEL_BY_POSITION = re.compile(r"(?<!\\)\b(left|right|middle|top|bottom)\b", re.I)


@pytest.mark.parametrize("key", sorted(all_chapters()))
def test_figure_captions_say_what_the_figure_is_and_name_panels_by_letter(key):
    """Every figure cell's metadata names the figure ``fig-<key>-<fig_id>``, repeating its ``ledger.figure``
    id, and carries a caption that opens with "Paper Fig. N replicated.", "Paper Fig. N re-run" (a figure whose
    verdict is not reproduced), "Paper Fig. N redrawn" (a diagram), "Paper Fig. N, at reduced scale." or
    "Not in the paper: …", and names its panels (a), (b), … rather than left/right/top (every registered
    chapter: CONTRIBUTING's "Figures and captions")."""
    nb = jupytext.read(REPO / all_chapters()[key].notebook)
    figure_cells = [c for c in nb.cells if c.cell_type == "code" and "ledger.figure(" in c.source]
    assert figure_cells, f"{key}: no figure cell"
    for cell in figure_cells:
        fig_id = re.search(r"ledger\.figure\(\s*[\"'](\w+)[\"']", cell.source).group(1)
        meta = cell.metadata.get("mystnb", {}).get("figure", {})
        name = meta.get("name", "")
        assert name == f"fig-{key}-{fig_id}", f"{key}: figure {fig_id} is named {name!r}, not 'fig-{key}-{fig_id}'"
        caption = meta.get("caption", "")
        assert CAPTION_START.match(caption), f"{key}: caption of {fig_id} opens {caption[:60]!r}"
        found = PANEL_BY_POSITION.search(caption)
        assert found is None, f"{key}: caption of {fig_id} names a panel by position ({found.group(0)!r})"


def test_no_test_keeps_its_own_list_of_chapters():
    """Per-chapter tests cover every registered chapter by default: they parametrize over ``all_chapters()``,
    never over a hand-kept tuple of keys (which a new chapter would silently miss)."""
    keys = "|".join(map(re.escape, all_chapters()))
    listed = re.compile(rf"[\"']({keys})[\"']\s*,\s*[\"']({keys})[\"']")
    for path in sorted((REPO / "tests").glob("test_*.py")):
        if any(path.name.startswith(f"test_{key}_") for key in all_chapters()):
            continue                       # a chapter's own tests
        found = listed.search(path.read_text())
        assert found is None, f"tests/{path.name} lists chapters by hand ({found.group(0)}): parametrize over " \
                              f"all_chapters() instead"
