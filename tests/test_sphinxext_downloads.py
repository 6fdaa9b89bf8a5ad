import json
import zipfile

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.paths import OUT_ENV, REPO, toc_files
from rnnrepro.site.sphinxext.downloads import copy_chapter_data, figure_captions, figure_readme

IN_TOC = [key for key, ch in all_chapters().items() if ch.notebook.removesuffix(".md") in set(toc_files())]


def test_ledgers_and_figure_data_land_beside_the_pages(tmp_path, monkeypatch):
    src = tmp_path / "executed"
    monkeypatch.setenv(OUT_ENV, str(src))
    for key in IN_TOC:
        (src / f"{key}.figures").mkdir(parents=True)
        (src / f"{key}.ledger.json").write_text(json.dumps(
            {"profile": "fast", "figures": {"fig1": {"sha256": "ab", "arrays": {"x": [3, 2]}}}}))
        (src / f"{key}.figures" / "fig1.npz").write_bytes(b"npz")
    written = copy_chapter_data(tmp_path / "html")
    assert len(written) == 2 * len(IN_TOC)
    key = IN_TOC[0]
    page_dir = tmp_path / "html" / "book" / "chapters"
    assert json.loads((page_dir / f"{key}.ledger.json").read_text())["profile"] == "fast"
    archive = zipfile.ZipFile(page_dir / f"{key}.figures.zip")
    assert archive.namelist() == [f"{key}.figures/fig1.npz", f"{key}.figures/README.txt"]
    readme = archive.read(f"{key}.figures/README.txt").decode()
    assert f"{key}.figures/fig1.npz  (page figure fig-{key}-fig1; sha256 ab)" in readme and "x: shape (3, 2)" in readme


def test_captions_come_from_the_figure_cells_metadata():
    captions = figure_captions(REPO / all_chapters()["ribeiro"].notebook)
    assert captions["fig8"].startswith("Paper Fig. 8 replicated") and captions["fig9"].startswith("Paper Fig. 9")
    readme = figure_readme("ribeiro", {"figures": {"fig8": {"arrays": {"s": [21]}}}}, captions)
    assert f"caption: {captions['fig8']}"[:40] in readme and "s: shape (21,)" in readme


def test_a_chapter_that_did_not_run_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv(OUT_ENV, str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError, match="no ledger for chapter"):
        copy_chapter_data(tmp_path / "html")
