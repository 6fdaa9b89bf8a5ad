import hashlib
import json

import numpy as np
import pytest
import torch

from rnnrepro.book.artifacts import ArtifactError, load_artifact, parse_seeds, save_artifact, sha256_file


def save(tmp_path, **kw):
    params = {"W": torch.arange(6, dtype=torch.float64).reshape(2, 3), "b": np.array([1.5, -2.0])}
    return save_artifact(tmp_path, "run", params, history={"loss": [1.0, 0.5]}, config={"seed": 0},
                         **kw)


def test_roundtrip(tmp_path):
    path = save(tmp_path, command="python -m rnnrepro run demo --profile full")
    assert path == tmp_path / "run.json" and (tmp_path / "run.npz").is_file()
    art = load_artifact(tmp_path, "run")
    assert art.params["W"].dtype == np.float64 and art.params["W"].shape == (2, 3)
    np.testing.assert_array_equal(art.params["b"], [1.5, -2.0])
    assert art.history == {"loss": [1.0, 0.5]} and art.config == {"seed": 0}
    assert art.meta["sha256"] == sha256_file(tmp_path / "run.npz")
    assert art.meta["arrays"]["W"] == {"shape": [2, 3], "dtype": "float64"}


def test_npz_is_deterministic_and_history_object(tmp_path):
    save(tmp_path / "a")
    class History:   # any object with to_dict() is a history
        def to_dict(self):
            return {"step": [0], "loss": [1.0]}

    h = History()
    save_artifact(tmp_path / "b", "run", {"b": np.array([1.5, -2.0]),
                                          "W": np.arange(6.0).reshape(2, 3)}, history=h)
    assert sha256_file(tmp_path / "a" / "run.npz") == sha256_file(tmp_path / "b" / "run.npz")
    assert load_artifact(tmp_path / "b", "run").history == {"step": [0], "loss": [1.0]}


def test_hash_mismatch_names_file_and_command(tmp_path):
    save(tmp_path, command="python -m rnnrepro run demo --profile full")
    other = tmp_path / "other"
    save_artifact(other, "run", {"W": np.zeros(3)})
    (tmp_path / "run.npz").write_bytes((other / "run.npz").read_bytes())  # valid npz, wrong content
    with pytest.raises(ArtifactError) as err:
        load_artifact(tmp_path, "run")
    msg = str(err.value)
    assert "\n" not in msg and "run.npz" in msg and "sha256 mismatch" in msg
    assert "python -m rnnrepro run demo --profile full" in msg
    with pytest.raises(ArtifactError, match="regenerate it with: make it"):
        load_artifact(tmp_path, "run", command="make it")


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(ArtifactError, match=r"run\.json: missing; regenerate it with: rerun"):
        load_artifact(tmp_path, "run")
    save(tmp_path, command="CMD")
    (tmp_path / "run.npz").unlink()
    with pytest.raises(ArtifactError, match=r"run\.npz: missing; regenerate it with: CMD"):
        load_artifact(tmp_path, "run")
    (tmp_path / "run.json").write_text("{not json")
    with pytest.raises(ArtifactError, match="unreadable"):
        load_artifact(tmp_path, "run")


def test_save_errors(tmp_path):
    with pytest.raises(ValueError, match="invalid artefact name"):
        save_artifact(tmp_path, "a/b", {"x": np.zeros(1)})
    with pytest.raises(ValueError, match="numeric"):
        save_artifact(tmp_path, "x", {"x": np.array([{}, 1], dtype=object)})


def test_parse_seeds():
    assert parse_seeds("0-3") == [0, 1, 2, 3] and parse_seeds("1,4, 6") == [1, 4, 6]
    for bad in ("", "a-b", "3-", "1;2"):
        with pytest.raises(ValueError):
            parse_seeds(bad)


def test_update_manifest_records_hash_size_command_and_keeps_other_entries(tmp_path):
    from rnnrepro.book.artifacts import update_manifest
    for ext in ("npz", "json"):
        (tmp_path / f"x.{ext}").write_bytes(b"abc" if ext == "npz" else b"{}")
    path = update_manifest(tmp_path, ["x"], chapter="miller", command="cmd", seed=3)
    man = json.loads(path.read_text())
    assert man["chapter"] == "miller" and set(man["files"]) == {"x.npz", "x.json"}
    assert man["files"]["x.npz"] == {"command": "cmd", "seed": 3, "bytes": 3,
                                     "sha256": hashlib.sha256(b"abc").hexdigest()}
    man["files"]["old.npz"] = {"seed": 1}
    path.write_text(json.dumps(man))
    update_manifest(tmp_path, ["x"], chapter="ignored", command="cmd2", seed=[0, 1])
    again = json.loads(path.read_text())
    assert again["chapter"] == "miller" and again["files"]["old.npz"] == {"seed": 1}
    assert again["files"]["x.json"]["seed"] == [0, 1] and again["files"]["x.json"]["command"] == "cmd2"
