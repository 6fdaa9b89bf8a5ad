import json

import pytest

from rnnrepro.miller import train_artifacts as ta


def test_cli_refuses_bad_arguments(capsys):
    with pytest.raises(SystemExit):
        ta.main(["nope"])
    with pytest.raises(SystemExit):
        ta.main(["wt2", "--seeds", "x"])


def test_manifest_records_sha256(tmp_path, monkeypatch):
    monkeypatch.setattr(ta, "ART_DIR", tmp_path)
    for ext in ("npz", "json"):
        (tmp_path / f"a.{ext}").write_bytes(b"x")
    ta._update_manifest("a", "cmd", 0)
    man = json.loads((tmp_path / "MANIFEST.json").read_text())
    assert man["chapter"] == "miller" and set(man["files"]) == {"a.npz", "a.json"}
    assert man["files"]["a.npz"]["command"] == "cmd" and len(man["files"]["a.npz"]["sha256"]) == 64


def test_cli_refuses_nonpositive_overrides():
    with pytest.raises(SystemExit):
        ta.main(["wt2", "--epochs", "0"])
    with pytest.raises(SystemExit):
        ta.main(["fig3", "--updates", "0"])


def test_train_one_writes_an_artefact_with_overrides(tmp_path, monkeypatch):
    from rnnrepro.book.artifacts import load_artifact
    from rnnrepro.miller import lm_experiments as lx
    from rnnrepro.core.language_model import synthetic_corpus
    monkeypatch.setattr(ta, "ART_DIR", tmp_path)
    monkeypatch.setattr(lx, "load_corpus", lambda size: synthetic_corpus())
    monkeypatch.setitem(lx.SIZES, "small", dict(lx.SIZES["small"]))
    name = ta.train_one("fig3", "small", [0], "cpu", "cmd", verbose=False, updates=2)
    a = load_artifact(tmp_path, name)
    assert name == "fig3" and a.config["fig3_updates"] == 2 and a.params["update_rnn"].tolist() == [0, 2]
    assert a.meta["command"] == "cmd" and (tmp_path / "MANIFEST.json").is_file()
