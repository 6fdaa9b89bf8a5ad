"""The perturbation harness (rnnrepro.book.sensitivity): scaling, wrapping, and the opt-in chapter runs."""

import json
import sys
import types
from collections import namedtuple

import numpy as np
import pytest
import torch

from rnnrepro.book import sensitivity
from rnnrepro.book.chapters import all_chapters
from rnnrepro.errors import ConfigError


def test_scale_touches_floats_only():
    Pair = namedtuple("Pair", "a b")
    value = {"x": 2.0, "n": 3, "ok": True, "arr": np.array([1.0, 2.0]), "idx": np.array([1, 2]),
             "t": torch.tensor([4.0]), "pair": Pair(1.0, "s"), "lst": [np.float64(5.0)]}
    out = sensitivity.scale(value, 1.1)
    assert out["x"] == pytest.approx(2.2) and out["n"] == 3 and out["ok"] is True
    np.testing.assert_allclose(out["arr"], [1.1, 2.2])
    assert out["idx"].tolist() == [1, 2]
    assert out["t"].item() == pytest.approx(4.4)
    assert isinstance(out["pair"], Pair) and out["pair"].a == pytest.approx(1.1) and out["pair"].b == "s"
    assert out["lst"][0] == pytest.approx(5.5)


def test_perturb_replaces_every_imported_name():
    mod = types.ModuleType("rnnrepro_fake_helper")
    mod.f = lambda x: 2.0 * x
    user = types.ModuleType("rnnrepro_fake_user")
    user.f = mod.f
    sys.modules[mod.__name__], sys.modules[user.__name__] = mod, user
    try:
        original = sensitivity.perturb("rnnrepro_fake_helper:f", 0.9)
        assert mod.f(1.0) == pytest.approx(1.8) and user.f(1.0) == pytest.approx(1.8)
        assert original(1.0) == 2.0
    finally:
        del sys.modules[mod.__name__], sys.modules[user.__name__]


def test_bad_targets_are_refused():
    with pytest.raises(ConfigError):
        sensitivity.resolve("rnnrepro.core.fits")
    with pytest.raises(ConfigError):
        sensitivity.resolve("rnnrepro.no_such_module:f")
    with pytest.raises(ConfigError):
        sensitivity.parse_env("rnnrepro.core.fits:f")
    assert sensitivity.parse_env("a.b:f*1.1, a.b:g*0.9") == [("a.b:f", 1.1), ("a.b:g", 0.9)]


@pytest.mark.parametrize("key", sorted(all_chapters()))
def test_helpers_resolve(key):
    for helper in all_chapters()[key].helpers:
        sensitivity.resolve(helper)


_RUNS = [(key, helper, factor) for key, chapter in sorted(all_chapters().items())
         for helper in chapter.helpers for factor in sensitivity.FACTORS]


@pytest.mark.sensitivity
@pytest.mark.parametrize("key,helper,factor", _RUNS, ids=[f"{k}-{h}-{f}" for k, h, f in _RUNS])
def test_perturbed_helper_fails_a_paper_claim(key, helper, factor, tmp_path):
    result = sensitivity.sensitivity_run(key, helper, factor, out=tmp_path)
    assert result.detected, result.line()


def test_a_row_failing_twice_counts_once(tmp_path, monkeypatch):
    """A row whose criterion fails and whose control passes is reported twice by the ledger; the run counts it
    once (the recorder once counted such a row as two paper claims)."""
    from rnnrepro.book import runner

    def fake_run(key, profile, out, progress):
        (out / f"{key}.ledger.json").write_text(json.dumps({"failures": [
            ["paper", f"{key}.a.b", "ClaimFailed"], ["paper", f"{key}.a.b", "ControlPassed"],
            ["integrity", f"{key}.c.d", "ClaimFailed"]]}))

    monkeypatch.setattr(runner, "run_chapter", fake_run)
    result = sensitivity.sensitivity_run("dynamics", "rnnrepro.core.fits:exponential_rate", 0.9, out=tmp_path)
    assert result.failed == {"paper": ["dynamics.a.b"], "integrity": ["dynamics.c.d"]}
    assert "1 paper claims fail" in result.line()
