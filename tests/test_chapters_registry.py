"""The chapter registry checks each entry when it loads it: one line naming the entry and the fix."""

import dataclasses
import sys
import types

import pytest

from rnnrepro.book.chapters import all_chapters, bib_keys, entry_problems, load_entry
from rnnrepro.book.profiles import Param
from rnnrepro.errors import ConfigError

GOOD = all_chapters()["dynamics"]


def test_every_registered_entry_is_clean():
    for key, chapter in all_chapters().items():
        assert entry_problems(chapter, key) == [], key


@pytest.mark.parametrize("change, words", [
    ({"key": "dynamic"}, ["key='dynamic' differs from the file name", "set key='dynamics'"]),
    ({"notebook": "book/chapters/dynamic.md"}, ["notebook='book/chapters/dynamic.md' is not a file",
                                                "book/chapters/dynamics.md"]),
    ({"notebook": "book/chapters/dynamics"}, ["is not a file"]),
    ({"data": "wikitext-2/valid.txt"}, ["data='wikitext-2/valid.txt' is not a tuple of str", "trailing comma"]),
    ({"data": ("/data/wikitext-2/valid.txt",)}, ["data file '/data/wikitext-2/valid.txt' is not a file path under"]),
    ({"data": ("../wikitext-2/valid.txt",)}, ["is not a file path under the data root"]),
    ({"data": ("wikitext-2/",)}, ["is not a file path under the data root"]),
    ({"params": Param("seed", int, 0, 0)}, ["params=Param(", "is not a tuple of Param"]),
    ({"cites": ("nobody1999",)}, ["cites 'nobody1999', which book/references.bib does not define"]),
    ({"helpers": ("rnnrepro.core.fits.exponential_rate",)}, ["is not written package.module:function"]),
    ({"question": " "}, ["question= is empty"]),
    ({"texts": ()}, ["texts=()", "does not name the paper's text file"]),
    ({"texts": ("../papers/x.pdf",)}, ["does not name the paper's text file"]),
    ({"gaps": (("rnnrepro.core.fits:exponential_rate", "why"),)}, ["gaps= names", "not one of its helpers="]),
    ({"gaps": ("rnnrepro.core.lyapunov:largest_lyapunov",)}, ["gaps= is not a tuple of (helper, reason) pairs"]),
])
def test_each_mistake_gives_one_problem_that_names_the_fix(change, words):
    problems = entry_problems(dataclasses.replace(GOOD, **({"gaps": ()} | change)), "dynamics")
    assert len(problems) == 1, problems
    assert all(w in problems[0] for w in words), problems[0]
    assert "\n" not in problems[0]


def _fake_entry(monkeypatch, name, module):
    monkeypatch.setitem(sys.modules, f"rnnrepro.book.chapters.{name}", module)


def test_load_entry_names_the_file_and_the_fix(monkeypatch):
    module = types.ModuleType("ghost")
    module.CHAPTER = dataclasses.replace(GOOD, key="dynamics")
    _fake_entry(monkeypatch, "ghost", module)
    with pytest.raises(ConfigError, match=r"^rnnrepro/book/chapters/ghost\.py: key='dynamics' differs .* "
                                          r"set key='ghost'"):
        load_entry("ghost")
    _fake_entry(monkeypatch, "ghost", types.ModuleType("ghost"))
    with pytest.raises(ConfigError, match=r"ghost\.py defines no CHAPTER = Chapter"):
        load_entry("ghost")
    _fake_entry(monkeypatch, "ghost", None)      # importing it raises (as a syntax or name error would)
    with pytest.raises(ConfigError, match=r"ghost\.py does not load \(ModuleNotFoundError: .*\): fix"):
        load_entry("ghost")


def test_a_failing_entry_names_the_line_to_fix():
    from rnnrepro.book.chapters import entry_line

    source = "from rnnrepro.book.profiles import Param\n\nPARAMS = (\n    Param('seed', int, fast=0),\n)\n"
    with pytest.raises(TypeError) as missing_full:              # Param(...) without full=
        exec(compile(source, "/x/rnnrepro/book/chapters/ghost.py", "exec"), {})
    assert entry_line(missing_full.value, "ghost") == 4 and entry_line(missing_full.value, "other") is None
    with pytest.raises(SyntaxError) as typo:
        compile("CHAPTER = Chapter(\n  key='ghost',,\n)\n", "/x/rnnrepro/book/chapters/ghost.py", "exec")
    assert entry_line(typo.value, "ghost") == 2


def test_a_bad_entry_stops_every_command_with_one_line(monkeypatch, capsys):
    from rnnrepro.book import cli

    bad = dataclasses.replace(GOOD, notebook="book/chapters/nowhere.md")
    module = types.ModuleType("dynamics")
    module.CHAPTER = bad
    monkeypatch.setitem(sys.modules, "rnnrepro.book.chapters.dynamics", module)
    all_chapters.cache_clear()
    try:
        assert cli.main(["run", "dynamics"]) == 2
    finally:
        all_chapters.cache_clear()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("error: rnnrepro/book/chapters/dynamics.py: notebook='book/chapters/nowhere.md'")


def test_bib_keys_reads_entry_keys(tmp_path):
    bib = tmp_path / "r.bib"
    bib.write_text("@article{a2020x,\n title={x}}\n  @misc{ b_1 ,\n}\n% @book{commented,\n")
    assert bib_keys(bib) == {"a2020x", "b_1"}        # a commented-out entry is no entry
    assert bib_keys(tmp_path / "none.bib") == set()


def test_chapter_page_and_its_inverse():
    from rnnrepro.book.chapters import chapter_of_page, chapter_page

    assert chapter_page("li") == "book/chapters/li"
    assert all(chapter_of_page(chapter_page(key)) == key for key in all_chapters())
    assert chapter_of_page("book/intro") is None and chapter_of_page("book/chapters/li.md") is None
