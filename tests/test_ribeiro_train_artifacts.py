import json

import pytest

from rnnrepro.book.artifacts import sha256_file
from rnnrepro.ribeiro import train_artifacts as ta


def test_update_manifest_records_hash_size_and_command(monkeypatch, tmp_path):
    monkeypatch.setattr(ta, "ART_DIR", tmp_path)
    for ext in ("npz", "json"):
        (tmp_path / f"x.{ext}").write_bytes(b"abc" if ext == "npz" else b"{}")
    (tmp_path / "MANIFEST.json").write_text(json.dumps({"chapter": "ribeiro", "files": {"old.npz": {"seed": 1}}}))
    ta._update_manifest(["x"], "cmd", 3)
    man = json.loads((tmp_path / "MANIFEST.json").read_text())
    assert man["files"]["old.npz"] == {"seed": 1}
    assert man["files"]["x.npz"] == {"command": "cmd", "seed": 3, "sha256": sha256_file(tmp_path / "x.npz"), "bytes": 3}


def test_cli_offers_only_the_language_model():
    with pytest.raises(SystemExit):
        ta.main(["wss_good"])
