import zipfile

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.paths import OUT_ENV, toc_files
from rnnrepro.site.sphinxext.downloads import copy_chapter_data

IN_TOC = [key for key, ch in all_chapters().items() if ch.notebook.removesuffix(".md") in set(toc_files())]


def test_ledgers_and_figure_data_land_beside_the_pages(tmp_path, monkeypatch):
    src = tmp_path / "executed"
    monkeypatch.setenv(OUT_ENV, str(src))
    for key in IN_TOC:
        (src / f"{key}.figures").mkdir(parents=True)
        (src / f"{key}.ledger.json").write_text("{}")
        (src / f"{key}.figures" / "fig1.npz").write_bytes(b"npz")
    written = copy_chapter_data(tmp_path / "html")
    assert len(written) == 2 * len(IN_TOC)
    key = IN_TOC[0]
    page_dir = tmp_path / "html" / "book" / "chapters"
    assert (page_dir / f"{key}.ledger.json").read_text() == "{}"
    assert zipfile.ZipFile(page_dir / f"{key}.figures.zip").namelist() == [f"{key}.figures/fig1.npz"]


def test_a_chapter_that_did_not_run_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv(OUT_ENV, str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError, match="no ledger for chapter"):
        copy_chapter_data(tmp_path / "html")
