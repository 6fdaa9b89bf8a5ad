"""Every chapter's data before anything executes: fetched from the source when it can be reached
(here a local server), else one line within seconds that names the folder, the files and what to do.
The book build's hook (rnnrepro.site.sphinxext.data_check) is driven by a stand-in for Sphinx's app;
one test runs the README's build command and one the test command, both stopping before any chapter."""

import os
import shutil
import socket
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.paths import REPO
from rnnrepro.data import KNOWN_SHA256, data_root, fetch, preflight, sha256_file
from rnnrepro.errors import DataError
from rnnrepro.site.local_server import serve
from rnnrepro.site.sphinxext import data_check

FAST_FILES = ("wikitext-2/valid.txt", "wikitext-2/test.txt")


def closed_port_url() -> str:
    with socket.socket() as sock:          # a port where nothing listens
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.fixture
def offline(tmp_path, monkeypatch):
    """An empty data folder, and a source that refuses every connection."""
    monkeypatch.setenv("RNNREPRO_DATA", str(tmp_path / "data"))
    monkeypatch.setenv(fetch.URL_ENV, closed_port_url())
    return tmp_path / "data"


@pytest.fixture
def reachable(tmp_path, monkeypatch):
    """An empty data folder, and a local server with the real validation and test splits."""
    try:
        real = data_root() / "wikitext-2"
    except DataError:
        pytest.skip("no WikiText-2 here to serve")
    site = tmp_path / "site"
    site.mkdir()
    for rel in FAST_FILES:
        shutil.copy(real / rel.split("/")[1], site)
    monkeypatch.setenv("RNNREPRO_DATA", str(tmp_path / "data"))
    with serve(site) as url:
        monkeypatch.setenv(fetch.URL_ENV, url)
        yield tmp_path / "data"


def book_app(execution="force", srcdir=REPO):
    """What the hook reads of Sphinx's application object."""
    return SimpleNamespace(srcdir=str(srcdir), config=SimpleNamespace(nb_execution_mode=execution))


def test_the_chapters_need_exactly_the_splits_fetched_first():
    needed = preflight.needed_files(all_chapters().values())
    assert tuple(needed) == FAST_FILES == tuple(f"wikitext-2/{s}.txt" for s in fetch.REQUIRED_SPLITS)
    assert fetch.SPLITS[:2] == fetch.REQUIRED_SPLITS and set(needed) == set(KNOWN_SHA256)


def test_build_hook_offline_stops_at_once_with_one_line(offline, capsys):
    t0 = time.perf_counter()
    with pytest.raises(SystemExit) as stop:
        data_check.check_data(book_app())
    assert stop.value.code == 2 and time.perf_counter() - t0 < 5
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: chapters miller, ribeiro need "), err
    assert all(rel in lines[0] for rel in FAST_FILES) and str(offline) in lines[0]
    assert "Connection refused" in lines[0] and "rnnrepro fetch-data" in lines[0] and "RNNREPRO_DATA" in lines[0]
    assert not offline.exists()               # no empty folder left behind


def test_build_hook_fetches_what_is_missing_and_checks_it(reachable):
    data_check.check_data(book_app())
    for rel in FAST_FILES:
        assert sha256_file(reachable / rel) == KNOWN_SHA256[rel]
    assert not (reachable / "wikitext-2" / "train.txt").exists()     # only what the chapters need
    assert preflight.ensure_data(all_chapters().values()) == []       # the second time: nothing to do


def test_a_file_that_differs_is_fetched_again(reachable):
    (reachable / "wikitext-2").mkdir(parents=True)
    (reachable / FAST_FILES[0]).write_text("not WikiText-2\n")
    assert preflight.ensure_data(all_chapters().values(), progress=False) == list(FAST_FILES)
    assert sha256_file(reachable / FAST_FILES[0]) == KNOWN_SHA256[FAST_FILES[0]]


def test_no_check_without_execution_or_without_the_chapters(offline, tmp_path):
    data_check.check_data(book_app(execution="off"))
    data_check.check_data(book_app(srcdir=tmp_path))           # a project without the chapters' notebooks
    assert data_check.built_chapters(book_app(srcdir=tmp_path)) == []


def test_without_fetching_the_error_names_the_fix(offline):
    with pytest.raises(DataError, match=r"chapters miller, ribeiro need wikitext-2/valid.txt, wikitext-2/test.txt "
                                        r"in the data folder .*, which is not there: run `.*rnnrepro fetch-data`"):
        preflight.ensure_data(all_chapters().values(), fetch=False)
    (offline / "wikitext-2").mkdir(parents=True)
    for rel in FAST_FILES:
        (offline / rel).write_text("another version\n")
    with pytest.raises(DataError, match=r"which holds other versions of them \(their sha256 differs\)"):
        preflight.ensure_data(all_chapters().values(), fetch=False)


def test_fetch_data_offline_names_the_files_the_chapters_need_first(offline):
    with pytest.raises(DataError) as err:
        fetch.fetch_wikitext2(progress=False)
    message = str(err.value)
    assert "/valid.txt (" in message and "put valid.txt and test.txt" in message, message
    assert "train.txt (" not in message


def _no_data_env(tmp_path):
    return dict(os.environ, RNNREPRO_DATA=str(tmp_path / "data"), RNNREPRO_DATA_URL=closed_port_url())


def test_readme_build_command_without_data_or_network_stops_in_seconds_with_one_line(tmp_path):
    t0 = time.perf_counter()
    res = subprocess.run([str(REPO / ".venv" / "bin" / "jupyter-book"), "build", "--all", "-W", "-n", "--keep-going",
                          "--path-output", str(tmp_path / "out"), "."], cwd=REPO, capture_output=True, text=True,
                         timeout=120, env=_no_data_env(tmp_path))
    assert res.returncode == 2 and time.perf_counter() - t0 < 60, res.stdout[-2000:] + res.stderr[-2000:]
    assert "Traceback" not in res.stdout + res.stderr and "Executing" not in res.stdout
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: chapters miller, ribeiro need"), res.stderr


def test_test_command_without_data_or_network_stops_with_one_line(tmp_path):
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q"]
    res = subprocess.run([*cmd, "tests/test_chapters.py"], cwd=REPO, capture_output=True, text=True, timeout=120,
                         env=_no_data_env(tmp_path))
    lines = [line for line in (res.stdout + res.stderr).splitlines() if line.strip()]
    assert res.returncode == 4 and len(lines) == 1 and lines[0].startswith("ERROR: chapters miller, ribeiro"), lines
    unit = subprocess.run([*cmd, "-m", "not chapter", "tests/test_chapters.py"], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env=_no_data_env(tmp_path))
    assert unit.returncode in (0, 5) and "ERROR" not in unit.stdout + unit.stderr   # unit tests need no data
