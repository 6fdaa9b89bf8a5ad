"""fetch-data against a local HTTP server (never the network)."""

import shutil
import socket

import pytest

from rnnrepro.book import cli
from rnnrepro.data import fetch, wikitext
from rnnrepro.site.local_server import serve
from rnnrepro.data import data_root
from rnnrepro.errors import DataError

TRAIN = "the first line\n = a heading = \nlast one\n"


@pytest.fixture
def served(tmp_path, monkeypatch):
    """A local server with valid.txt and test.txt (the real files) and a small train.txt."""
    site = tmp_path / "site"
    site.mkdir()
    for split in ("valid", "test"):
        shutil.copy(data_root() / "wikitext-2" / f"{split}.txt", site / f"{split}.txt")
    (site / "train.txt").write_text(TRAIN)
    monkeypatch.setattr(wikitext, "TRAIN_TOKENS", wikitext.count_tokens(site / "train.txt"))
    with serve(site) as url:
        yield site, url


def test_fetches_checks_and_skips_what_is_there(served, tmp_path):
    site, url = served
    done = fetch.fetch_wikitext2(tmp_path / "data", url, progress=False)
    assert done == dict.fromkeys(fetch.SPLITS, "downloaded and checked")
    assert (tmp_path / "data" / "wikitext-2" / "valid.txt").read_bytes() == (site / "valid.txt").read_bytes()
    again = fetch.fetch_wikitext2(tmp_path / "data", url, progress=False)
    assert again == dict.fromkeys(fetch.SPLITS, "already present and checked")


def test_a_different_file_is_refused_and_deleted(served, tmp_path):
    site, url = served
    with open(site / "test.txt", "a") as fh:
        fh.write("one more line\n")
    with pytest.raises(DataError, match="differs from the official one and was deleted: .*test split"):
        fetch.fetch_wikitext2(tmp_path / "data", url, progress=False)
    assert not (tmp_path / "data" / "wikitext-2" / "test.txt").exists()


def test_a_wrong_training_split_is_refused(served, tmp_path, monkeypatch):
    _, url = served
    monkeypatch.setattr(wikitext, "TRAIN_TOKENS", 2_088_628)
    with pytest.raises(DataError, match="not the official training split's 2,088,628"):
        fetch.fetch_wikitext2(tmp_path / "data", url, progress=False)


def test_offline_is_one_clear_error_and_leaves_no_empty_folder(tmp_path):
    with socket.socket() as sock:          # a port where nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(DataError, match="could not download .*are you offline.*rnnrepro fetch-data"):
        fetch.fetch_wikitext2(tmp_path / "data" / "rnnrepro", f"http://127.0.0.1:{port}", progress=False)
    assert list(tmp_path.iterdir()) == []     # neither data/rnnrepro/wikitext-2 nor its parents are left


def test_a_failed_fetch_keeps_folders_it_did_not_create(tmp_path):
    (tmp_path / "data").mkdir()
    with pytest.raises(DataError):
        fetch.fetch_wikitext2(tmp_path / "data", "http://127.0.0.1:9", progress=False)
    assert (tmp_path / "data").is_dir() and not (tmp_path / "data" / "wikitext-2").exists()
    assert not list((tmp_path / "data" / "wikitext-2").glob("*.part"))


def test_cli_fetch_data(served, tmp_path, capsys):
    _, url = served
    assert cli.main(["fetch-data", "--to", str(tmp_path / "d"), "--base-url", url]) == 0
    assert "wikitext-2/train.txt: downloaded and checked" in capsys.readouterr().out
