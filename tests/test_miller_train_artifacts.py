
import pytest

from rnnrepro.miller import train_artifacts as ta


def test_cli_refuses_bad_arguments(capsys):
    with pytest.raises(SystemExit):
        ta.main(["nope"])
    with pytest.raises(SystemExit):
        ta.main(["wt2", "--seeds", "x"])


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
    name = ta.train_one("fig3", "small", [0], device="cpu", command="cmd", verbose=False, updates=2)
    a = load_artifact(tmp_path, name)
    assert name == "fig3" and a.config["fig3_updates"] == 2 and a.params["update_rnn"].tolist() == [0, 2]
    assert a.meta["command"] == "cmd" and (tmp_path / "MANIFEST.json").is_file()


def test_cli_refuses_bad_checkpoint_options(tmp_path):
    with pytest.raises(SystemExit):
        ta.main(["wt2", "--stop-after", "10"])                           # nowhere to resume from
    with pytest.raises(SystemExit):
        ta.main(["wt2", "--checkpoint-dir", str(tmp_path), "--checkpoint-every", "0"])
    with pytest.raises(SystemExit):
        ta.main(["wt2", "--data-root", str(tmp_path)])                   # no wikitext-2/ in it


def _stop_after(n):
    """A stop() that says stop on its n-th call (after the n-th update)."""
    calls = []
    return lambda: calls.append(1) or len(calls) == n


@pytest.mark.parametrize("what", ["wt2", "fig2", "fig3"])
def test_train_one_interrupted_and_resumed_writes_the_same_artefact(tmp_path, monkeypatch, what):
    import numpy as np
    from rnnrepro.book.artifacts import load_artifact
    from rnnrepro.core import language_model as lm
    from rnnrepro.miller import lm_experiments as lx
    small = dict(lx.SIZES["small"])
    for k in ("wt2", "fig2_rnn", "fig2_lstm", "fig3_rnn", "fig3_lstm"):
        small[k] = lm.LMConfig(**{**small[k].to_dict(), "emb": 8, "hidden": 6, "epochs": 2})
    small.update(n_windows=20, fig3_updates=6, fig3_log_every=2, tbptt_tokens=600, tbptt_logs=3)
    monkeypatch.setitem(lx.SIZES, "small", small)
    monkeypatch.setattr(lx, "load_corpus", lambda size: lm.synthetic_corpus(3500))
    out = {}
    for run in ("once", "resumed"):
        monkeypatch.setattr(ta, "ART_DIR", tmp_path / run)
        if run == "resumed":
            stop = _stop_after(5)                                     # stops once, mid-run
            with pytest.raises(lm.TrainingInterrupted):
                ta.train_one(what, "small", [0], device="cpu", command="cmd", verbose=False,
                             resume=lx.Resume(tmp_path / "ck", 3, stop))
            assert any((tmp_path / "ck").iterdir())
        ta.train_one(what, "small", [0], device="cpu", command="cmd", verbose=False,
                     resume=lx.Resume(tmp_path / "ck", 3) if run == "resumed" else None)
        out[run] = load_artifact(tmp_path / run, what).params
    assert out["once"].keys() == out["resumed"].keys()
    assert all(np.array_equal(out["once"][k], out["resumed"][k], equal_nan=True) for k in out["once"])
