import pytest
import torch

from rnnrepro.data import wikitext
from rnnrepro.errors import DataError


def test_tokens_and_vocab(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text(" = A = \n\n b a a <unk> \n")
    toks = wikitext.tokens(path=f)
    assert toks == ["=", "A", "=", "<eos>", "<eos>", "b", "a", "a", "<unk>", "<eos>"]
    v = wikitext.Vocab(toks, max_size=4)
    assert v.itos == ["<eos>", "<unk>", "=", "a"]
    assert v.encode(["a", "zzz", "<eos>"]).tolist() == [3, 1, 0]
    assert v.coverage(["a", "zzz"]) == 0.5


def test_batchify_and_windows():
    d = wikitext.batchify(torch.arange(23), 4)
    assert d.shape == (5, 4) and d[:, 1].tolist() == [5, 6, 7, 8, 9]
    w = list(wikitext.bptt_windows(d, 3))
    assert [x.shape[0] for x, _ in w] == [3, 1]
    assert torch.equal(w[0][1], d[1:4])


def test_official_splits_token_counts():
    try:
        assert len(wikitext.tokens("test")) == 245_569
        assert len(wikitext.tokens("valid")) == 217_646
    except DataError:
        pytest.skip("WikiText-2 files not available")


def test_missing_root_is_a_data_error(monkeypatch, tmp_path):
    monkeypatch.setenv("RNNREPRO_DATA", str(tmp_path / "nope"))
    with pytest.raises(DataError):
        wikitext.tokens("test")


def test_training_split_is_checked(monkeypatch, tmp_path):
    monkeypatch.setenv("RNNREPRO_DATA", str(tmp_path))
    (tmp_path / "wikitext-2").mkdir()
    assert not wikitext.training_split_available()
    with pytest.raises(DataError, match=r"training split is not in .*wikitext-2: run `\.venv/bin/python -m rnnrepro "
                                         "fetch-data`"):
        wikitext.tokens("train")
    (tmp_path / "wikitext-2" / "train.txt").write_text("a b c\n")
    assert wikitext.training_split_available()
    with pytest.raises(DataError, match="has 4 tokens, not the official training split"):
        wikitext.tokens("train")


def test_count_tokens_matches_tokens(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("a b\n\n = c = \n")
    assert wikitext.count_tokens(path) == len(wikitext.tokens(path=path)) == 8
