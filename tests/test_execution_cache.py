"""The execution cache's guard (rnnrepro.site.sphinxext.execution_cache), on a real jupyter-cache: what
the cache cannot see (the package, a chapter's ledger, pages that read other pages) makes it re-execute."""

import json

import nbformat
import pytest
import yaml
from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn

from rnnrepro.book.paths import REPO, code_sha256
from rnnrepro.book.profiles import Chapter
from rnnrepro.site.sphinxext import execution_cache as ec

NOTEBOOK = """---
kernelspec:
  name: python3
  display_name: Python 3
---
# A chapter

```{code-cell} ipython3
print(6 * 7)
```
"""


@pytest.fixture
def repo(tmp_path):
    """A repository with a package file, a chapter, a page that reads others and their cached executions."""
    repo = tmp_path / "repo"
    (repo / "rnnrepro" / "site").mkdir(parents=True)
    (repo / "rnnrepro" / "core.py").write_text("X = 1\n")
    (repo / "rnnrepro" / "site" / "theme.py").write_text("Y = 1\n")
    (repo / "book" / "chapters").mkdir(parents=True)
    for name in ("book/chapters/ch.md", "book/scorecard.md"):
        (repo / name).write_text(NOTEBOOK)
    (repo / "requirements.txt").write_text("numpy==2\n")
    (repo / "CITATION.cff").write_text("title: rnnrepro\n")
    (repo / "book" / "references.bib").write_text("@article{doe2031, title={A}}\n")
    shipped = repo / "book" / "artifacts" / "ch" / "full"
    shipped.mkdir(parents=True)
    (shipped / "MANIFEST.json").write_text("{}\n")
    (shipped / "ch.ledger.json").write_text('{"claims": []}\n')
    (shipped / "fig.npz").write_bytes(b"PK\x03\x04 one")
    (shipped / "README").write_text("no suffix\n")
    return repo


def _chapter():
    return Chapter(key="ch", title="C", paper="p", notebook="book/chapters/ch.md")


def _cache(repo, ledger):
    cache_path = repo / "_build" / ".jupyter_cache"
    cache = get_cache(str(cache_path))
    for name in ("book/chapters/ch.md", "book/scorecard.md"):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"print('{name}')")])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        cache.cache_notebook_bundle(CacheBundleIn(nb, str(repo / name)), check_validity=False)
    ledger.write_text(json.dumps({"code_sha256": code_sha256(repo / "book/chapters/ch.md")}))
    (cache_path / ec.FINGERPRINT).write_text(ec.fingerprint(repo) + "\n")
    return cache_path


def _uris(cache_path):
    return sorted(r.uri.split("/repo/")[1] for r in get_cache(str(cache_path)).list_cache_records())


def test_a_chapter_stays_cached_and_a_page_reading_others_does_not(repo, tmp_path):
    ledger = tmp_path / "ch.ledger.json"
    cache_path = _cache(repo, ledger)
    why = ec.guard_cache(cache_path, repo, chapters=[_chapter()], ledger_of=lambda ch: ledger)
    assert _uris(cache_path) == ["book/chapters/ch.md"]
    assert why == [f"{repo / 'book/scorecard.md'}: reads other pages' outputs"]


def test_a_missing_or_foreign_ledger_re_executes_its_chapter(repo, tmp_path):
    ledger = tmp_path / "ch.ledger.json"
    cache_path = _cache(repo, ledger)
    ledger.write_text(json.dumps({"code_sha256": "0" * 64}))
    why = ec.guard_cache(cache_path, repo, chapters=[_chapter()], ledger_of=lambda ch: ledger)
    assert _uris(cache_path) == [] and "ch: its ledger was written by other code" in why
    cache_path = _cache(repo, ledger)
    ledger.unlink()
    why = ec.guard_cache(cache_path, repo, chapters=[_chapter()], ledger_of=lambda ch: ledger)
    assert _uris(cache_path) == [] and any(w.startswith("ch: no ledger") for w in why)


#: What a chapter's output reads besides its code cells, one file (or setting) each: the change made to it.
CHANGES = {"package": ("rnnrepro/core.py", "X = 2\n"), "requirements": ("requirements.txt", "numpy==3\n"),
           "citation": ("CITATION.cff", "title: rnnrepro 2\n"),
           "bibliography": ("book/references.bib", "@article{doe2031, title={B}}\n"),
           "shipped ledger": ("book/artifacts/ch/full/ch.ledger.json", '{"claims": [1]}\n'),
           "shipped manifest": ("book/artifacts/ch/full/MANIFEST.json", '{"commit": "1"}\n'),
           "shipped figure data": ("book/artifacts/ch/full/fig.npz", "PK two"),
           "shipped file without suffix": ("book/artifacts/ch/full/README", "changed\n"),
           "new shipped file": ("book/artifacts/ch/full/extra.json", "{}\n"),
           "address": None}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_to_what_chapters_read_drops_the_whole_cache(repo, tmp_path, monkeypatch, change):
    ledger = tmp_path / "ch.ledger.json"
    cache_path = _cache(repo, ledger)
    if CHANGES[change] is None:
        monkeypatch.setenv("RNNREPRO_BASE_URL", "https://owner.github.io/rnnrepro")
    else:
        name, text = CHANGES[change]
        (repo / name).write_text(text)
    why = ec.guard_cache(cache_path, repo, chapters=[_chapter()], ledger_of=lambda ch: ledger)
    assert _uris(cache_path) == [] and "all 2 cached pages dropped" in why[0]
    assert (cache_path / ec.FINGERPRINT).read_text().strip() == ec.fingerprint(repo)


def test_the_site_code_is_not_an_input_of_the_chapters(repo):
    before = ec.fingerprint(repo)
    (repo / "rnnrepro" / "site" / "theme.py").write_text("Y = 2\n")
    assert ec.fingerprint(repo) == before
    assert repo / "rnnrepro" / "core.py" in ec.input_files(repo)


def test_a_new_cache_is_stamped_before_anything_executes(repo):
    cache_path = repo / "_build" / ".jupyter_cache"
    assert ec.guard_cache(cache_path, repo) == []
    assert (cache_path / ec.FINGERPRINT).read_text().strip() == ec.fingerprint(repo)


def test_the_book_caches_executions_in_its_build_folder():
    """Local rebuilds re-execute only what changed; the cache lives in _build, so a clean clone (CI, the
    README's command on a fresh checkout) executes everything."""
    config = yaml.safe_load((REPO / "_config.yml").read_text())
    assert config["execute"]["execute_notebooks"] == "cache"
    assert "cache" not in config["execute"]          # myst-nb's default: _build/.jupyter_cache
    assert "rnnrepro.site.sphinxext" in config["sphinx"]["extra_extensions"]
    from rnnrepro.site import sphinxext

    assert "execution_cache" in sphinxext.__doc__
