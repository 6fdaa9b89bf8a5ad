"""The exercises at the end of each chapter page (rnnrepro.book.exercises, sphinx-exercise directives): every
chapter has a derive-then-check exercise and an open problem; every override is valid and every named row or value
is one its chapter records; run, a predict exercise really stops the chapter at its row with the outcome its
solution states, and a derive exercise's exploration run records the number its solution derives (the runs are
marked `chapter`); every package function an open problem names exists."""

import importlib

import jupytext
import pytest

from rnnrepro.book import cli
from rnnrepro.book.chapters import all_chapters, get_chapter
from rnnrepro.book.exercises import Exercise, read_exercises
from rnnrepro.book.explore import explore_chapter, section_names
from rnnrepro.book.glue_ids import glued_names
from rnnrepro.book.paths import REPO
from rnnrepro.book.runner import run_chapter

SOURCES = {key: (REPO / ch.notebook).read_text() for key, ch in all_chapters().items()}
EXERCISES = [ex for text in SOURCES.values() for ex in read_exercises(text)]
PREDICT = [ex for ex in EXERCISES if ex.kind == "predict"]
DERIVE = [ex for ex in EXERCISES if ex.kind == "derive"]
OPEN = [ex for ex in EXERCISES if ex.kind == "open"]


def _ids(ex):
    return ex.label


@pytest.mark.parametrize("key", list(all_chapters()))
def test_chapters_end_with_exercises_of_each_kind(key):
    exercises = read_exercises(SOURCES[key])
    kinds = [ex.kind for ex in exercises]
    assert 3 <= len(exercises) <= 5 and all(ex.key == key for ex in exercises), kinds
    assert "derive" in kinds and "open" in kinds, f"{key} needs a derive-then-check exercise and an open problem"
    labels = [ex.label for ex in exercises]
    assert len(set(labels)) == len(labels) and all(label.startswith(f"ex-{key}-") for label in labels), labels
    tail = SOURCES[key][SOURCES[key].index("## Exercises"):]
    assert "```{code-cell}" not in tail and "\n## " not in tail[3:], "the Exercises section ends the page"
    assert ":::{dropdown}" not in tail, "solutions are sphinx-exercise {solution} blocks"


def _recorded(key: str):
    cells = [c.source for c in jupytext.read(REPO / get_chapter(key).notebook).cells if c.cell_type == "code"]
    return glued_names(key, cells)        # the ids the chapter's code records, and patterns of computed ones


@pytest.mark.parametrize("exercise", PREDICT + DERIVE, ids=_ids)
def test_every_exercise_overrides_valid_parameters_and_names_a_row_of_its_chapter(exercise):
    chapter = get_chapter(exercise.key)
    for name, value in exercise.overrides:
        assert chapter.param(name).parse(value) != chapter.param(name).fast, (name, value)
    names, patterns = _recorded(exercise.key)
    wanted = exercise.claim or f"{exercise.key}.{exercise.value_id}"
    assert wanted in names or any(p.fullmatch(wanted) for p in patterns), wanted
    if exercise.only:
        assert exercise.only in section_names(jupytext.read(REPO / chapter.notebook))


@pytest.mark.parametrize("exercise", OPEN, ids=_ids)
def test_every_function_an_open_problem_names_exists(exercise):
    assert exercise.names, f"{exercise.label}: name the package functions a reader starts from"
    for name in exercise.names:
        module, _, attr = name.rpartition(".")
        assert callable(getattr(importlib.import_module(module), attr)), name


PAGE = """# T

Text.

## Exercises

Intro.

:::{exercise} One
:label: ex-li-one

```bash
.venv/bin/python -m rnnrepro run li --only sec1 -p a 1 -p b x
```
:::

:::{solution} ex-li-one
:class: dropdown

The run stops at `li.x.y` with `ClaimFailed`: why.
:::

:::{exercise} Two
:label: ex-li-two

Derive it.

```bash
python -m rnnrepro run li --explore --only sec -p c 0.5
python -m rnnrepro value li x.z
```
:::

:::{solution} ex-li-two
:class: dropdown

It is 0.36. `python -m rnnrepro value li x.z` prints 0.36.
:::

:::{exercise} Three (open)
:label: ex-li-three

Use `rnnrepro.core.fits.linear_fit`.
:::

:::{solution} ex-li-three
:class: dropdown

An outline.
:::
"""


def test_exercises_are_read_with_their_solutions():
    one, two, three = read_exercises(PAGE)
    assert one == Exercise("li", "ex-li-one", "predict", (("a", "1"), ("b", "x")), claim="li.x.y",
                           outcome="ClaimFailed", only="sec1")
    assert one.command == "python -m rnnrepro run li --only sec1 -p a 1 -p b x"
    whole = read_exercises(PAGE.replace("run li --only sec1 -p", "run li -p"))[0]
    assert whole.only is None and whole.command == "python -m rnnrepro run li -p a 1 -p b x"
    assert two == Exercise("li", "ex-li-two", "derive", (("c", "0.5"),), only="sec", value_id="x.z", expected="0.36")
    assert two.command == "python -m rnnrepro run li --explore --only sec -p c 0.5" and two.tolerance() == 0.005
    assert three == Exercise("li", "ex-li-three", "open", names=("rnnrepro.core.fits.linear_fit",))
    assert read_exercises(PAGE.replace("## Exercises", "## Other")) == []
    with pytest.raises(ValueError, match="ex-li-one .One. has no solution"):
        read_exercises(PAGE.replace(":::{solution} ex-li-one", ":::{solution} ex-li-once"))
    with pytest.raises(ValueError, match="must start 'The run stops at"):
        read_exercises(PAGE.replace("The run stops at `li.x.y`", "It stops at `li.x.y`"))
    with pytest.raises(ValueError, match="outcome 'Failed' is not one of"):
        read_exercises(PAGE.replace("`ClaimFailed`", "`Failed`"))
    with pytest.raises(ValueError, match="prints NUMBER"):
        read_exercises(PAGE.replace("` prints 0.36", "` gives 0.36"))
    with pytest.raises(ValueError, match="add ':class: dropdown'"):
        read_exercises(PAGE.replace(":label: ex-li-three\n", ":label: ex-li-three\n", 1).replace(
            ":::{solution} ex-li-three\n:class: dropdown\n", ":::{solution} ex-li-three\n"))


@pytest.mark.chapter
@pytest.mark.parametrize("exercise", PREDICT, ids=_ids)
def test_exercise_stops_the_chapter_at_its_claim(exercise, tmp_path):
    """Run the chapter's fast profile (or the section the command names) with the exercise's overrides, as the
    command on the page does: it must stop at the claim the solution names, with the solution's outcome (the claim
    holds in the unmodified fast run: test_chapters)."""
    import papermill

    chapter = get_chapter(exercise.key)
    overrides = {name: chapter.param(name).parse(value) for name, value in exercise.overrides}
    with pytest.raises(papermill.PapermillExecutionError) as stopped:
        run_chapter(exercise.key, "fast", overrides, tmp_path, progress=False, only=exercise.only)
    assert stopped.value.ename == exercise.outcome, stopped.value.evalue
    assert stopped.value.evalue.startswith(f"{exercise.claim}: "), stopped.value.evalue


@pytest.mark.chapter
@pytest.mark.parametrize("exercise", DERIVE, ids=_ids)
def test_derive_exercise_matches_the_exploration_run(exercise, tmp_path, capsys):
    """Run the exercise's exploration run and read its number back with the `value` command, as a reader does:
    it must round to the number the solution derives, as written."""
    chapter = get_chapter(exercise.key)
    overrides = {name: chapter.param(name).parse(value) for name, value in exercise.overrides}
    result = explore_chapter(exercise.key, "fast", overrides, tmp_path, only=exercise.only, progress=False)
    assert result["errors"] == [], result["errors"]
    capsys.readouterr()
    assert cli.main(["value", exercise.key, exercise.value_id, "--out", str(tmp_path)]) == 0
    printed = float(capsys.readouterr().out)
    assert abs(printed - float(exercise.expected)) <= exercise.tolerance(), (printed, exercise.expected)
