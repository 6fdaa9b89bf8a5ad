"""A new chapter needs only its own files: a throw-away seventh chapter is added to a temporary copy of the
repository (registry entry, notebook, package, `_toc.yml` line, bibliography entry, the paper in CITATION.cff
and .zenodo.json), shipped and sensitivity-tested through the command line (the runs themselves faked),
and every generated list of chapters and every per-chapter test picks it up; a mistake in its entry stops `run`
with one line."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rnnrepro.book.paths import REPO, papers_root

KEY = "forgetting"

ENTRY = f'''"""Throw-away chapter of tests/test_new_chapter.py."""

from rnnrepro.book.profiles import Chapter, Param

CHAPTER = Chapter(
    key="{KEY}",
    title="Exponential forgetting (Doe, 2031)",
    paper="J. Doe. How linear recurrent networks forget. Journal of Examples 1, 2031",
    notebook="book/chapters/{KEY}.md",
    texts=("doe2031-forgetting.txt",),
    params=(Param("seed", int, fast=0, full=0, low=0, help="master seed"),
            Param("lam", float, fast=0.9, full=0.9, low=0.0, high=0.999, help="the recurrent weight"),),
    cites=("doe2031forgetting",),
    question="how fast a linear RNN forgets",
    helpers=("rnnrepro.{KEY}.rates:decay_rate",),
)
'''

NOTEBOOK = f'''
# Exponential forgetting (Doe, 2031)

**In short.** Doe proves that a one-unit linear recurrent network forgets at the rate of its weight. We find
{{glue:text}}`{KEY}.headline`. The page is for readers of the other chapters who want the smallest example.

**The paper:** Doe (2031). **This chapter assumes** linear recurrences. **A first reading can skip** the folds.

:::{{dropdown}} Notation
| symbol | meaning |
|---|---|
| $a$ | the recurrent weight |
:::

```{{glue:md}} {KEY}.verdicts
:format: myst
```

```{{code-cell}} ipython3
:tags: [parameters, remove-cell]

profile = "fast"
overrides = {{}}
```

```{{code-cell}} ipython3
:tags: [remove-cell]

from rnnrepro.book.session import start
from rnnrepro.book.criteria import Within
from rnnrepro.{KEY}.rates import decay_rate

run = start("{KEY}", profile, overrides)
p, ledger = run.p, run.ledger
```

## The rate of forgetting

```{{code-cell}} ipython3
:tags: [hide-input]

ledger.claim("{KEY}.thm1.rate", "A linear RNN forgets at the rate of its weight.", ref="Thm. 1",
             quote="A linear recurrent network forgets at the rate of its weight",
             measured=decay_rate(p.lam), criterion=Within(0.9, 1e-12), status="holds", paper="λ",
             quantity="decay rate per step",
             no_control="a closed form of a one-unit system: no variant keeps the statement")
```

The rate is {{glue:text}}`{KEY}.thm1.rate:.3f`.

```{{code-cell}} ipython3
---
mystnb:
  figure:
    caption: "Not in the paper: the memory kernel of Theorem 1."
    name: fig-{KEY}-kernel
tags: [remove-input]
---
from rnnrepro.{KEY}.figures import kernel_figure

ledger.figure("kernel", *kernel_figure(p.lam))
```

## Behind this page

Below, collapsed: our answer to the latest review and the notes on deviations and compute.

:::{{dropdown}} Response to review
No referee has reported yet.
:::

:::{{dropdown}} Deviations, compute and data
None: the closed form is evaluated at the paper's weight.
:::

```{{code-cell}} ipython3
:tags: [remove-input]

# NBVAL_CHECK_OUTPUT
ledger.finish()
```

## Cite this chapter

```{{glue:md}} {KEY}.cite
:format: myst
```

## Exercises

:::{{exercise}} Forget faster
:label: ex-{KEY}-faster

```bash
python -m rnnrepro run {KEY} -p lam 0.5
```
:::

:::{{solution}} ex-{KEY}-faster
:class: dropdown

The run stops at `{KEY}.thm1.rate` with `ClaimFailed`: the rate follows the weight.
:::

:::{{exercise}} The rate by hand
:label: ex-{KEY}-rate

Derive the rate at $\\lambda = 0.8$, then check:

```bash
python -m rnnrepro run {KEY} --explore -p lam 0.8
python -m rnnrepro value {KEY} thm1.rate
```
:::

:::{{solution}} ex-{KEY}-rate
:class: dropdown

The rate is the weight: `python -m rnnrepro value {KEY} thm1.rate` prints 0.8.
:::

:::{{exercise}} Two units (open)
:label: ex-{KEY}-open

Generalise `rnnrepro.{KEY}.rates.decay_rate` to two units.
:::

:::{{solution}} ex-{KEY}-open
:class: dropdown

An outline: the rate is the spectral radius.
:::
'''

#: The paper's text, which the claim quotes (the copy's papers folder, ``$RNNREPRO_PAPERS``).
PAPER = "Theorem 1. A linear recurrent network forgets at the rate of its weight.\n"

BIB = "\n@article{doe2031forgetting,\n  author = {Doe, J.},\n  title = {How linear recurrent networks forget},\n" \
      "  journal = {Journal of Examples},\n  doi = {10.5555/examples.2031.1},\n  year = {2031}\n}\n"
#: The new paper in the book's citation metadata (CONTRIBUTING, step 4).
CFF_REFERENCE = ('  - type: article\n    title: "How linear recurrent networks forget"\n'
                 '    authors: [{family-names: Doe, given-names: J.}]\n    year: 2031\n')
ZENODO_IDENTIFIER = {"identifier": "10.5555/examples.2031.1", "relation": "references",
                     "resource_type": "publication-article"}

#: Ship and sensitivity-test the new chapter through the CLI, with the chapter runs themselves faked.
COMMANDS = f'''
import json
from rnnrepro.book import cli, full, sensitivity
from rnnrepro.book.paths import REPO, papers_root, code_sha256

def fake_run(key, out, env=None):
    (out / f"{{key}}.figures").mkdir(parents=True)
    row = {{"id": f"{{key}}.thm1.rate", "kind": "paper", "type": "statement", "status": "holds",
           "quote": "A linear recurrent network forgets at the rate of its weight"}}
    ledger = {{"chapter": key, "profile": "full", "claims": [row], "findings": 1, "integrity_checks": 0,
              "counts": {{"holds": 2, "erratum": 0, "reproduced": 0, "partial": 0, "not reproduced": 0}},
              "environment": {{"cpu": {{"model": "Test CPU", "capability": "AVX2"}}}},
              "code_sha256": code_sha256(REPO / "book/chapters/{KEY}.md")}}
    (out / f"{{key}}.ledger.json").write_text(json.dumps(ledger))
    return 0, 12.3, ""

full._run_full = fake_run
full._git_commit = lambda: "0123456789abcdef"
sensitivity.sensitivity_run = lambda key, helper, factor, out: sensitivity.SensitivityResult(
    key, helper, factor, failed={{"paper": [f"{{key}}.thm1.rate"]}})
assert cli.main(["ship-full", "{KEY}"]) == 0
assert cli.main(["sensitivity", "{KEY}", "--out", "_build/sensitivity"]) == 0
'''


def _copy_repository(dest):
    def ignore(folder, names):
        skipped = {n for n in names if n in ("__pycache__", ".pytest_cache") or n.endswith(".egg-info")}
        if Path(folder).parent.name == "artifacts":     # book/artifacts/<key>/: only the shipped full results
            skipped |= {n for n in names if n != "full"}
        return skipped

    for name in ("rnnrepro", "tests", "book", "results"):
        shutil.copytree(REPO / name, dest / name, ignore=ignore)
    for name in ("_toc.yml", "_config.yml", "README.md", "CONTRIBUTING.md", "pyproject.toml", "CITATION.cff",
                 ".zenodo.json"):
        shutil.copy2(REPO / name, dest / name)


def _python(copy, *args, **kwargs):
    """Python in the copy: its package first on the path, the data root the repository uses (the copy has no
    ../shared beside it)."""
    from rnnrepro.data import DATA_ENV, data_root
    from rnnrepro.errors import DataError

    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1", RNNREPRO_PAPERS=str(copy / "papers"))
    env.pop("RNNREPRO_OUT", None)
    try:
        env[DATA_ENV] = str(data_root())
    except DataError:
        pass
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """A temporary copy of the repository with the throw-away chapter added by its own files only, shipped and
    sensitivity-tested through the CLI."""
    root = tmp_path_factory.mktemp("clone")
    _copy_repository(root)
    (root / "rnnrepro" / "book" / "chapters" / f"{KEY}.py").write_text(ENTRY)
    (root / "rnnrepro" / KEY).mkdir()
    (root / "rnnrepro" / KEY / "__init__.py").write_text('"""The throw-away chapter\'s package."""\n')
    (root / "rnnrepro" / KEY / "figures.py").write_text(
        '"""The chapter\'s figure."""\n\n\ndef kernel_figure(lam: float):\n    """(figure, arrays) of the memory '
        'kernel (never run here)."""\n    raise NotImplementedError\n')
    (root / "rnnrepro" / KEY / "rates.py").write_text(
        '"""Forgetting rates."""\n\n\ndef decay_rate(lam: float) -> float:\n    """The rate: lam."""\n'
        '    return float(lam)\n')
    header = (REPO / "book" / "chapters" / "dynamics.md").read_text().split("\n---\n")[0] + "\n---\n"
    (root / "book" / "chapters" / f"{KEY}.md").write_text(header + NOTEBOOK)
    toc = (root / "_toc.yml").read_text()
    last = re.findall(r"^( *- file: book/chapters/\w+)$", toc, re.M)[-1]
    (root / "_toc.yml").write_text(toc.replace(last + "\n", f"{last}\n{last.split('- file:')[0]}- file: "
                                                            f"book/chapters/{KEY}\n", 1))
    papers = root / "papers"           # the repository's paper texts and the new chapter's
    shutil.copytree(papers_root(), papers) if papers_root().is_dir() else papers.mkdir()
    (papers / "doe2031-forgetting.txt").write_text(PAPER)
    with open(root / "book" / "references.bib", "a") as bib:
        bib.write(BIB)
    with open(root / "CITATION.cff", "a") as cff:
        cff.write(CFF_REFERENCE)
    import json

    zenodo = json.loads((root / ".zenodo.json").read_text())
    zenodo["related_identifiers"].append(ZENODO_IDENTIFIER)
    (root / ".zenodo.json").write_text(json.dumps(zenodo, indent=2))
    res = _python(root, "-c", COMMANDS, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    return root


def test_every_generated_list_picks_the_new_chapter_up(copy):
    assert _python(copy, "-m", "rnnrepro", "generate", "--check").returncode == 0   # ship-full/sensitivity rewrote
    readme = (copy / "README.md").read_text()
    assert f"| `{KEY}` | J. Doe. How linear recurrent networks forget. Journal of Examples 1, 2031 | 2 paper claims " \
           f"(statements: 2 hold); 1 finding of ours |" in readme
    assert f"| `{KEY}` | 12 s (AVX2) | — | " in readme                                              # time table
    assert re.search(rf"^\| [^|]*`{KEY}`[^|]* \| none: runs without any data \|$", readme, re.M)    # data table
    intro = (copy / "book" / "intro.md").read_text()
    assert f"| [Exponential forgetting](chapters/{KEY}) | {{cite}}`doe2031forgetting` | how fast a linear RNN " \
           f"forgets |" in intro
    page = (copy / "results" / "sensitivity.md").read_text()
    assert f"| `{KEY}` | `{KEY}.rates:decay_rate` | 1 paper claim fails (`thm1.rate`) |" in page
    assert f"`{KEY}`: 2 of 2" in page
    assert (REPO / "README.md").read_text() != readme          # the copy, not the repository, was changed


def test_every_per_chapter_test_covers_the_new_chapter(copy):
    """Each test module that parametrizes over the registry collects a test for the new chapter, and the quick
    ones (layout, glue ids, generated lists, registry) pass for it."""
    per_chapter = sorted(p.name for p in (copy / "tests").glob("test_*.py")
                         if re.search(r"@pytest\.mark\.parametrize\([^)]*(all_chapters|CHAPTERS)", p.read_text()))
    assert {"test_book_layout.py", "test_full.py", "test_glue_ids.py", "test_chapters.py"} <= set(per_chapter)
    res = _python(copy, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-m", "",
                  *(f"tests/{name}" for name in per_chapter), timeout=600)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    missing = [name for name in per_chapter if not re.search(rf"^tests/{name}::\S*{KEY}", res.stdout, re.M)]
    assert not missing, f"no test for the new chapter in {missing}"
    quick = _python(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not chapter",
                    "tests/test_book_layout.py", "tests/test_glue_ids.py", "tests/test_chapter_lists.py",
                    "tests/test_chapters_registry.py", "tests/test_quotes.py", "tests/test_exercises.py",
                    "tests/test_cite.py", "-k", f"{KEY} or current or reason or clean or cite", timeout=600)
    assert quick.returncode == 0, quick.stdout[-3000:] + quick.stderr[-3000:]


def test_a_mistake_in_the_new_entry_stops_run_with_one_line(copy):
    entry = copy / "rnnrepro" / "book" / "chapters" / f"{KEY}.py"
    good = entry.read_text()
    try:
        for broken, words in ((good.replace(f'notebook="book/chapters/{KEY}.md"', 'notebook="book/chapter/x.md"'),
                               "notebook='book/chapter/x.md' is not a file"),
                              (good.replace(f'key="{KEY}"', 'key="forget"'), "set key='forgetting'"),
                              (good.replace("CHAPTER = Chapter(", "CHAPTER = Chapter(oops,"), "does not load")):
            entry.write_text(broken)
            res = _python(copy, "-m", "rnnrepro", "run", KEY, timeout=600)
            assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
            assert res.stderr.count("\n") == 1 and words in res.stderr, res.stderr
            assert res.stderr.startswith(f"error: rnnrepro/book/chapters/{KEY}.py")
    finally:
        entry.write_text(good)
