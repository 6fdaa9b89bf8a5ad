"""The student edition as built (``python -m rnnrepro student-edition``): every page keeps its exercises and
shows none of their solutions.

Runs only when ``RNNREPRO_STUDENT_BOOK`` names the student edition's HTML folder and ``RNNREPRO_BUILT_BOOK`` the
book's (``.ci/run`` builds both; the student edition from the book build's execution cache); otherwise skipped,
so a stale ``_build`` never decides a test. The book's own pages are read beside it: the solutions that must be
gone are the ones the book shows, so a student edition that dropped nothing (or dropped the exercises too) fails.
"""

import os
from pathlib import Path

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.paths import toc_files

STUDENT = Path(os.environ["RNNREPRO_STUDENT_BOOK"]) if os.environ.get("RNNREPRO_STUDENT_BOOK") else None
BOOK = Path(os.environ["RNNREPRO_BUILT_BOOK"]) if os.environ.get("RNNREPRO_BUILT_BOOK") else None
pytestmark = pytest.mark.skipif(STUDENT is None or BOOK is None,
                                reason="set RNNREPRO_STUDENT_BOOK and RNNREPRO_BUILT_BOOK to the two HTML builds")
CHAPTERS = [ch for ch in all_chapters().values() if ch.notebook.removesuffix(".md") in set(toc_files())]


def _soup(root: Path, page: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup((root / page).read_text(encoding="utf-8"), "html.parser")


def _text(node) -> str:
    return " ".join(node.get_text(" ", strip=True).split())


def _body(solution) -> str:
    """A solution's words without its title ("Solution to Exercise n (...)"), which names the exercise."""
    title = solution.select_one(".admonition-title")
    if title is not None:
        title.decompose()
    return _text(solution)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.key)
def test_every_exercise_stays_and_every_solution_is_gone(chapter):
    page = chapter.notebook.removesuffix(".md") + ".html"
    book, student = _soup(BOOK, page), _soup(STUDENT, page)
    solutions = book.select("div.solution")
    shown = [_body(s) for s in solutions]
    exercises = [_text(e.select_one(".admonition-title") or e) for e in book.select("div.exercise")]
    assert exercises and len(shown) == len(exercises), f"{chapter.key}: the book's page has no exercise with a solution"
    assert [_text(e.select_one(".admonition-title") or e) for e in student.select("div.exercise")] == exercises, \
        f"{chapter.key}: the student edition does not keep the book's exercises"
    assert not student.select("div.solution"), f"{chapter.key}: a solution is on the student edition's page"
    text = _text(student)
    for solution in solutions:
        solution.decompose()
    elsewhere = _text(book)            # the book's page without its solutions
    own = [body[:80] for body in shown if body[:80] not in elsewhere]     # words said only in a solution
    assert own, f"{chapter.key}: no solution says anything the page does not say elsewhere"
    leaked = [words for words in own if words in text]
    assert not leaked, f"{chapter.key}: the student edition shows solutions' text: {leaked}"


def test_no_page_of_the_student_edition_has_a_solution():
    pages = sorted(STUDENT.rglob("*.html"))
    assert len(pages) >= len(CHAPTERS)
    with_solution = [str(p.relative_to(STUDENT)) for p in pages
                     if 'class="solution' in p.read_text(encoding="utf-8", errors="replace")]
    assert not with_solution, f"pages of the student edition with a solution: {with_solution}"
