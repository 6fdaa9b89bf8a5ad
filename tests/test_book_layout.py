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
    import yaml

    config = yaml.safe_load((REPO / "_config.yml").read_text())
    launch = [config["launch_buttons"], config["sphinx"]["config"]["html_theme_options"]["launch_buttons"]]
    assert all("colab_url" not in b and b["binderhub_url"] for b in launch), "Colab cannot open .md notebooks"
    binder = (REPO / "binder" / "requirements.txt").read_text().split()
    assert "../requirements.txt" in binder and "https://download.pytorch.org/whl/cpu" in binder
    assert "python -m rnnrepro fetch-data" in (REPO / "binder" / "postBuild").read_text()
