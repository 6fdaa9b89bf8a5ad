"""The exercises at the end of each chapter page (rnnrepro.book.exercises): every override is valid,
names a claim of its chapter, and, run, really stops the chapter at that claim with the outcome its
answer states (the runs are marked `chapter`; each stops at its claim, most within seconds)."""

import jupytext
import pytest

from rnnrepro.book.chapters import all_chapters, get_chapter
from rnnrepro.book.exercises import Exercise, read_exercises
from rnnrepro.book.glue_ids import glued_names
from rnnrepro.book.paths import REPO
from rnnrepro.book.runner import run_chapter

#: Chapters whose pages may still lack exercises (none: every chapter ends with its exercises).
NOT_YET: set[str] = set()
SOURCES = {key: (REPO / ch.notebook).read_text() for key, ch in all_chapters().items()}
EXERCISES = [ex for text in SOURCES.values() for ex in read_exercises(text)]


@pytest.mark.parametrize("key", list(all_chapters()))
def test_chapters_end_with_two_or_three_exercises(key):
    exercises = read_exercises(SOURCES[key])
    if key in NOT_YET and not exercises:
        pytest.skip(f"{key}'s page has no exercises yet")
    assert 2 <= len(exercises) <= 3 and all(ex.key == key for ex in exercises)
    tail = SOURCES[key][SOURCES[key].index("## Exercises"):]
    assert "```{code-cell}" not in tail and "\n## " not in tail[3:], "the Exercises section ends the page"


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda ex: f"{ex.key}:{ex.claim}")
def test_every_exercise_overrides_valid_parameters_and_names_a_claim_of_its_chapter(exercise):
    chapter = get_chapter(exercise.key)
    for name, value in exercise.overrides:
        assert chapter.param(name).parse(value) != chapter.param(name).fast, (name, value)
    cells = [c.source for c in jupytext.read(REPO / chapter.notebook).cells if c.cell_type == "code"]
    names, patterns = glued_names(exercise.key, cells)        # the ids the chapter's code records
    assert exercise.claim in names or any(p.fullmatch(exercise.claim) for p in patterns), exercise.claim


def test_exercises_are_read_in_pairs_of_command_and_outcome():
    page = ("# T\n\nText.\n\n## Exercises\n\nIntro.\n\n**Exercise 1.**\n\n```bash\n.venv/bin/python -m rnnrepro run "
            "li -p a 1 -p b x\n```\n\n:::{dropdown} Expected outcome\nThe run stops at `li.x.y` with `ClaimFailed`: "
            "why.\n:::\n\n```bash\npython -m rnnrepro run li -p c 0.5\n```\n\n:::{dropdown} Expected outcome\n"
            "The run stops at `li.x.z` with `ControlPassed`.\n:::\n")
    assert read_exercises(page) == [Exercise("li", (("a", "1"), ("b", "x")), "li.x.y", "ClaimFailed"),
                                    Exercise("li", (("c", "0.5"),), "li.x.z", "ControlPassed")]
    assert read_exercises(page)[0].command == "python -m rnnrepro run li -p a 1 -p b x"
    assert read_exercises(page.replace("## Exercises", "## Other")) == []
    with pytest.raises(ValueError, match="2 exercise commands but 1"):
        read_exercises(page.replace("The run stops at `li.x.z`", "It stops at `li.x.z`"))
    with pytest.raises(ValueError, match="outcome 'Failed' is not one of"):
        read_exercises(page.replace("`ControlPassed`", "`Failed`"))


@pytest.mark.chapter
@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda ex: f"{ex.key}:{ex.claim}")
def test_exercise_stops_the_chapter_at_its_claim(exercise, tmp_path):
    """Run the chapter's fast profile with the exercise's overrides: it must stop at the claim the
    answer names, with the answer's outcome (the claim holds in the unmodified fast run: test_chapters)."""
    import papermill

    chapter = get_chapter(exercise.key)
    overrides = {name: chapter.param(name).parse(value) for name, value in exercise.overrides}
    with pytest.raises(papermill.PapermillExecutionError) as stopped:
        run_chapter(exercise.key, "fast", overrides, tmp_path, progress=False)
    assert stopped.value.ename == exercise.outcome, stopped.value.evalue
    assert stopped.value.evalue.startswith(f"{exercise.claim}: "), stopped.value.evalue
