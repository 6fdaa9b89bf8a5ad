"""The registry of chapters: every module in this package defines one ``CHAPTER``.

Modules are discovered automatically, so adding a chapter means adding one file here. Each entry is
checked when the registry loads it (:func:`entry_problems`): a mistake stops every command with one
line that names the entry and the fix, before anything runs.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import lru_cache
from pathlib import PurePosixPath

from rnnrepro.errors import ConfigError, did_you_mean
from rnnrepro.book.profiles import Chapter, Param

#: Where the entries are, as the error messages name them.
FOLDER = "rnnrepro/book/chapters"


@lru_cache(maxsize=None)
def all_chapters() -> dict[str, Chapter]:
    """Every registered chapter by key, in the order of the book's table of contents.

    Raises :class:`~rnnrepro.errors.ConfigError` (one line naming the entry and the fix) for an
    entry that does not load or fails :func:`entry_problems`."""
    found = {info.name: load_entry(info.name) for info in pkgutil.iter_modules(__path__)}
    return dict(sorted(found.items(), key=lambda kv: _toc_position(kv[1].notebook)))


def entry_line(exc: BaseException, name: str) -> int | None:
    """The line of the entry ``<name>.py`` (of this folder) where loading it raised ``exc``: a syntax error's
    line, else the entry's last frame in the traceback (the ``Param(...)`` call that lacks ``full=``); None
    when the error did not come from the entry's own lines."""
    import traceback
    from pathlib import Path

    def ours(filename) -> bool:
        path = Path(filename or "")
        return path.name == f"{name}.py" and path.parent.name == "chapters"

    if isinstance(exc, SyntaxError) and ours(exc.filename):
        return exc.lineno
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if ours(f.filename)]
    return frames[-1].lineno if frames else None


def load_entry(name: str) -> Chapter:
    """The ``CHAPTER`` of ``rnnrepro/book/chapters/<name>.py``, checked; ConfigError otherwise."""
    where = f"{FOLDER}/{name}.py"
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except Exception as exc:   # any mistake in the entry's code: one line, not a traceback
        first = (str(exc).splitlines() or [""])[0]
        line = entry_line(exc, name)
        raise ConfigError(f"{where}{f':{line}' if line else ''} does not load ({type(exc).__name__}: {first}): "
                          f"fix {f'line {line}' if line else 'that line'} of the entry") from None
    chapter = getattr(module, "CHAPTER", None)
    if not isinstance(chapter, Chapter):
        raise ConfigError(f"{where} defines no CHAPTER = Chapter(...): every module of {FOLDER}/ is one "
                          f"chapter's entry (CONTRIBUTING.md, 'Adding a chapter')")
    problems = entry_problems(chapter, name)
    if problems:
        raise ConfigError(f"{where}: {problems[0]}")
    return chapter


def entry_problems(chapter: Chapter, name: str) -> list[str]:
    """What is wrong with the entry ``chapter`` of the module ``name``, each as the fix to make (empty
    when nothing is): the key is the file's name, the notebook exists, ``params``, ``data``, ``cites``,
    ``helpers`` and ``gaps`` are tuples of the right things, the cited keys are in
    ``book/references.bib``, ``question`` is given."""
    from rnnrepro.book.paths import REPO

    problems = []
    if chapter.key != name:
        problems.append(f"key={chapter.key!r} differs from the file name: set key={name!r} "
                        f"(or rename the file to {chapter.key}.py)")
    nb = chapter.notebook
    if not (isinstance(nb, str) and nb.endswith(".md") and (REPO / nb).is_file()):
        problems.append(f"notebook={nb!r} is not a file of the repository: set notebook= to the chapter's "
                        f"MyST notebook, e.g. 'book/chapters/{name}.md'")
    for field, kind, example in (("params", Param, "params=(Param('seed', int, fast=0, full=0, low=0, "
                                                   "help='master seed'),)"),
                                 ("data", str, "data=('wikitext-2/valid.txt',)"),
                                 ("cites", str, "cites=('bibkey',)"),
                                 ("helpers", str, "helpers=('rnnrepro.core.fits:exponential_rate',)")):
        value = getattr(chapter, field)
        if not isinstance(value, (tuple, list)) or not all(isinstance(v, kind) for v in value):
            problems.append(f"{field}={value!r} is not a tuple of {kind.__name__}: write e.g. {example} "
                            f"(mind the trailing comma of a one-item tuple)")
            return problems
    for rel in chapter.data:
        path = PurePosixPath(rel)
        if not rel or path.is_absolute() or ".." in path.parts or rel.endswith("/"):
            problems.append(f"data file {rel!r} is not a file path under the data root: name each file the "
                            f"chapter reads, e.g. 'wikitext-2/valid.txt'")
    defined = bib_keys(REPO / "book" / "references.bib")
    problems += [f"cites {key!r}, which book/references.bib does not define: add the paper's BibTeX entry there"
                 for key in chapter.cites if key not in defined]
    problems += [f"helper {helper!r} is not written package.module:function (e.g. "
                 f"'rnnrepro.{name}.fits:decay_rate')"
                 for helper in chapter.helpers if not re.fullmatch(r"[\w.]+:[\w.]+", helper)]
    texts = chapter.texts
    if (not isinstance(texts, (tuple, list)) or not texts
            or not all(isinstance(t, str) and re.fullmatch(r"[\w.-]+\.txt", t) for t in texts)):
        problems.append(f"texts={texts!r} does not name the paper's text file(s): write e.g. "
                        f"texts=('doe2031-forgetting.txt',), a file of the papers folder that the claims quote")
    if not isinstance(chapter.question, str) or not chapter.question.strip():
        problems.append("question= is empty: give one phrase saying what the chapter asks "
                        "(the intro's chapter table shows it)")
    gaps = chapter.gaps
    if not isinstance(gaps, (tuple, list)) or not all(isinstance(g, (tuple, list)) and len(g) == 2 for g in gaps):
        problems.append("gaps= is not a tuple of (helper, reason) pairs: write "
                        "gaps=(('pkg.module:function', 'why no paper claim can notice it'),)")
    else:
        problems += [f"gaps= names {helper!r}, which is not one of its helpers=: add it there or remove the gap"
                     for helper, _ in gaps if helper not in chapter.helpers]
    renamed = chapter.renamed
    if not isinstance(renamed, (tuple, list)) or not all(
            isinstance(r, (tuple, list)) and len(r) == 2 and all(str(i).startswith(f"{chapter.key}.") for i in r)
            for r in renamed):
        problems.append(f"renamed= is not a tuple of (old claim id, new claim id) pairs of this chapter: write "
                        f"renamed=(('{chapter.key}.old.id', '{chapter.key}.new.id'),)")
    return problems


def bib_keys(path) -> set[str]:
    """The entry keys of a BibTeX file (``@article{key,`` → ``key``)."""
    return set(re.findall(r"^\s*@\w+\s*\{\s*([^,\s]+)\s*,", path.read_text(), re.M)) if path.is_file() else set()


def get_chapter(key: str) -> Chapter:
    """The chapter called ``key``, or a ConfigError listing the valid chapters."""
    chapters = all_chapters()
    if key not in chapters:
        raise ConfigError(f"unknown chapter {key!r}: {did_you_mean(key, chapters)}choose one of {', '.join(chapters)}")
    return chapters[key]


def chapter_page(key: str) -> str:
    """The chapter's page name in the built book: its notebook without ``.md`` (``book/chapters/li``)."""
    return get_chapter(key).notebook.removesuffix(".md")


def chapter_of_page(page: str) -> str | None:
    """The key of the chapter whose page name is ``page`` (``book/chapters/li`` → ``li``), else None."""
    return next((key for key in all_chapters() if chapter_page(key) == page), None)


def _toc_position(notebook: str) -> int:
    from rnnrepro.book.paths import toc_files

    files = toc_files()
    stem = notebook.removesuffix(".md")
    return files.index(stem) if stem in files else len(files)
