"""What a built chapter page offers a reader, measured from its HTML: the shape of a lecture.

A reader reads the page with every fold closed: the words outside folds (prose, captions, tables, the
verdict table; not code, not formulas, not what a dropdown, a folded cell, a toggled solution or the
claims ledger holds), the paragraphs among them, the paper's statements in numbered boxes
(sphinx-proof), the exercises (sphinx-exercise) with their solutions, and the paper's link above the
first figure. ``tests/test_built_book.py`` holds every chapter to the limits below; ``python -m
rnnrepro.site.lecture_shape _build/html`` prints the measures.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: Most words a reader reads outside folds, and most words in one paragraph.
MAX_WORDS, MAX_PARAGRAPH = 5000, 150
#: Where the papers live (a link to one of these before the first figure is the paper's link).
PAPER_HOSTS = ("arxiv.org", "doi.org", "proceedings.mlr.press", "openreview.net", "direct.mit.edu")
#: Folded on the page: a dropdown, a folded cell, a toggled admonition (a solution), the claims ledger.
FOLDS = "details, .dropdown, .toggle, .toggle-hidden"
#: Not prose: code, formulas, scripts and styles, the page's navigation.
NOT_PROSE = ("script, style, .cell_input, pre, .math, span.math, div.math, mjx-container, nav, .headerlink, "
             ".prev-next-area, .header-article, .bd-sidebar-secondary")
_TEX = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]|\$\$.*?\$\$", re.S)
_WORD = re.compile(r"[^\W_][\w'’\-]*")


@dataclass
class LectureShape:
    """The measures of one chapter page (see the module)."""

    words: int = 0
    long_paragraphs: list[int] = field(default_factory=list)
    boxes: list[str] = field(default_factory=list)
    exercises: list[str] = field(default_factory=list)
    solutions: int = 0
    paper_link_before_figure: bool = False

    def problems(self) -> list[str]:
        """What falls short of the limits, one line each (empty: the page reads as a lecture)."""
        out = []
        if self.words > MAX_WORDS:
            out.append(f"{self.words} words outside folds (at most {MAX_WORDS})")
        if self.long_paragraphs:
            out.append(f"{len(self.long_paragraphs)} paragraphs over {MAX_PARAGRAPH} words: {self.long_paragraphs}")
        unnumbered = [title for title in self.boxes if not re.search(r"\d", title)]
        if not self.boxes or unnumbered:
            out.append(f"statement boxes without the paper's number: {unnumbered or 'no box at all'}")
        if not self.exercises or not all(re.match(r"Exercise \d+\b", t) for t in self.exercises):
            out.append(f"exercises not numbered: {self.exercises or 'none'}")
        if self.solutions != len(self.exercises):
            out.append(f"{len(self.exercises)} exercises but {self.solutions} solutions")
        if not self.paper_link_before_figure:
            out.append("no link to the paper above the first figure")
        return out


def words(text: str) -> int:
    """Words in ``text`` with formulas (``\\(...\\)``, ``\\[...\\]``, ``$$...$$``) left out."""
    return len(_WORD.findall(_TEX.sub(" ", text)))


def measure(html: str) -> LectureShape:
    """The measures of a built chapter page's HTML."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    article = soup.select_one("article") or soup.select_one("main") or soup
    shape = LectureShape()
    shape.boxes = [(box.select_one(".admonition-title") or box).get_text(" ", strip=True)
                   for box in article.select("div.proof")]
    shape.exercises = [(ex.select_one(".admonition-title") or ex).get_text(" ", strip=True)
                       for ex in article.select("div.exercise")]
    shape.solutions = len(article.select("div.solution"))
    for element in article.find_all(["a", "figure", "img"]):
        if element.name == "a" and any(host in (element.get("href") or "") for host in PAPER_HOSTS):
            shape.paper_link_before_figure = True
            break
        if element.name in ("figure", "img"):
            break
    for hidden in article.select(f"{FOLDS}, {NOT_PROSE}"):
        hidden.decompose()
    shape.words = words(article.get_text(" "))
    shape.long_paragraphs = [n for n in (words(p.get_text(" ")) for p in article.find_all("p")) if n > MAX_PARAGRAPH]
    return shape


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python -m rnnrepro.site.lecture_shape BUILT_HTML_FOLDER (e.g. _build/html)", file=sys.stderr)
        return 2
    from rnnrepro.book.chapters import all_chapters

    for key, chapter in all_chapters().items():
        page = Path(argv[0]) / (chapter.notebook.removesuffix(".md") + ".html")
        if not page.is_file():
            continue
        shape = measure(page.read_text(encoding="utf-8"))
        print(f"{key:9s} words {shape.words:5d}  paragraphs > {MAX_PARAGRAPH}: {len(shape.long_paragraphs)}  "
              f"boxes {len(shape.boxes):2d}  exercises {len(shape.exercises)} (solutions {shape.solutions})  "
              f"paper link above the first figure: {'yes' if shape.paper_link_before_figure else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
