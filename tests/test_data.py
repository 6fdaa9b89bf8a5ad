import hashlib

import pytest

from rnnrepro.book.paths import REPO
from rnnrepro import data
from rnnrepro.errors import DataError


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setenv(data.DATA_ENV, str(tmp_path))
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "a.txt").write_text("hello\n")
    return tmp_path


def test_good_file(root):
    digest = hashlib.sha256(b"hello\n").hexdigest()
    assert data.sha256_file(root / "set" / "a.txt") == digest
    assert data.data_file("set/a.txt", sha256=digest) == root / "set" / "a.txt"


def test_hash_mismatch(root):
    with pytest.raises(DataError, match="corrupted or a different version"):
        data.data_file("set/a.txt", sha256="0" * 64)


def test_missing_file(root):
    with pytest.raises(DataError, match=f"set/b.txt is missing from {root / 'set'}: run `{data.FETCH_COMMAND}`"):
        data.data_file("set/b.txt", sha256="0" * 64)


def test_check_files_names_the_folder_and_the_command(root, tmp_path, monkeypatch):
    data.check_files([])
    data.check_files(["set/a.txt"])                     # no known hash: presence only
    with pytest.raises(DataError, match=rf"chapter x needs set/b.txt, not found in {root}: run `{data.FETCH_COMMAND}`"):
        data.check_files(["set/a.txt", "set/b.txt"], who="chapter x")
    monkeypatch.setenv(data.DATA_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(DataError, match=f"{tmp_path / 'nowhere'} does not exist: run `{data.FETCH_COMMAND}`"):
        data.check_files(["set/a.txt"])


def test_check_files_checks_known_hashes(root, monkeypatch):
    monkeypatch.setitem(data.KNOWN_SHA256, "set/a.txt", "0" * 64)
    with pytest.raises(DataError, match=f"corrupted .* run `{data.FETCH_COMMAND}`"):
        data.check_files(["set/a.txt"])


def test_session_start_checks_a_chapters_data_first(tmp_path, monkeypatch):
    from rnnrepro.book.chapters import all_chapters
    from rnnrepro.book.session import start

    key = next(k for k, ch in all_chapters().items() if ch.data)
    monkeypatch.setenv(data.DATA_ENV, str(tmp_path))
    with pytest.raises(DataError, match=f"chapter {key} needs .* not found in {tmp_path}: run"):
        start(key)


def test_unknown_hash_refused(root):
    with pytest.raises(DataError, match="no sha256 is known"):
        data.data_file("set/a.txt")


def test_missing_root(tmp_path, monkeypatch):
    monkeypatch.setenv(data.DATA_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(DataError, match="set RNNREPRO_DATA"):
        data.data_root()


def test_default_root_is_shared_data_beside_the_checkout(monkeypatch):
    monkeypatch.delenv(data.DATA_ENV, raising=False)
    expected = REPO.parent / "shared" / "data"
    if not expected.is_dir():
        pytest.skip("no ../shared/data beside this checkout")
    assert data.data_root() == expected


def test_shipped_wikitext_hashes_match(monkeypatch):
    monkeypatch.delenv(data.DATA_ENV, raising=False)
    if not (REPO.parent / "shared" / "data" / "wikitext-2").is_dir():
        pytest.skip("no ../shared/data/wikitext-2 beside this checkout")
    for rel in data.KNOWN_SHA256:
        assert data.data_file(rel).is_file()


def test_default_root_is_shared_data_or_the_user_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(data.DATA_ENV, raising=False)
    shared = REPO.parent / "shared" / "data"
    if shared.is_dir():
        assert data.data_root() == shared
    monkeypatch.setattr(data, "_CHECKOUT", tmp_path / "checkout")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with pytest.raises(DataError, match=f"run `{data.FETCH_COMMAND}`"):
        data.data_root()
    (tmp_path / "xdg" / "rnnrepro").mkdir(parents=True)
    assert data.data_root() == tmp_path / "xdg" / "rnnrepro"
