"""A machine without a C++ compiler: the ribeiro chapter's CPU trainer falls back to the pure-PyTorch
BatchedTrainer (one line on stderr), which trains as the fused C++ trainer does, within float32 round-off."""
import pytest
import torch

from rnnrepro.book import machine

from rnnrepro.ribeiro import fused_lstm, paper_sweep
from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.batched_training import BatchedTrainer


@pytest.fixture
def no_compiler(tmp_path, monkeypatch):
    """PATH without c++, g++, cl or ninja, ``$CXX`` naming no program, and no extension loaded yet."""
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CXX", "no-such-c++")
    monkeypatch.setattr(fused_lstm, "_EXTENSION", None)
    monkeypatch.setattr(fused_lstm, "_FALLBACK_SAID", False)
    monkeypatch.setattr(machine, "_FALLBACKS", {})


def test_without_a_compiler_the_cpu_trainer_is_batched_and_says_so_once(no_compiler, capsys):
    assert "no C++ compiler (no-such-c++) on the PATH" in fused_lstm.missing_toolchain() \
        or "x86-64" in fused_lstm.missing_toolchain()
    assert paper_sweep.trainer_class("auto", "cpu") is BatchedTrainer
    assert fused_lstm.cpu_trainer() is BatchedTrainer
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("note: the fused C++ LSTM trainer is not available (")
    assert "pure-PyTorch BatchedTrainer" in err
    assert paper_sweep.trainer_class("batched", "cpu") is BatchedTrainer
    assert set(machine.fallbacks()) == {fused_lstm.FALLBACK}              # the ledger's environment names it


def test_the_no_compiler_environment_of_the_chapter_rerun_hides_the_compiler(tmp_path, monkeypatch):
    """What tests/test_chapters.py gives ribeiro's re-run: no compiler, and an empty build folder (no cached
    extension), so the chapter trains with the fallback."""
    for name, value in machine.no_compiler_env(str(tmp_path)).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(fused_lstm, "_EXTENSION", None)
    monkeypatch.setattr(fused_lstm, "_FALLBACK_SAID", False)
    monkeypatch.setattr(machine, "_FALLBACKS", {})
    assert fused_lstm.build_dir().parent == tmp_path and not any(tmp_path.iterdir())
    assert fused_lstm.cpu_trainer() is BatchedTrainer
    assert "no C++ compiler" in machine.fallbacks()[fused_lstm.FALLBACK] or "x86-64" in fused_lstm.missing_toolchain()


def test_a_failed_build_falls_back_too(monkeypatch, capsys):
    monkeypatch.setattr(fused_lstm, "_EXTENSION", None)
    monkeypatch.setattr(fused_lstm, "_FALLBACK_SAID", False)
    monkeypatch.setattr(fused_lstm, "missing_toolchain", lambda: "")
    monkeypatch.setattr(machine, "_FALLBACKS", {})

    def broken():
        raise RuntimeError("could not compile the fused LSTM trainer in /x (error: no space left)")
    monkeypatch.setattr(fused_lstm, "extension", broken)
    assert fused_lstm.cpu_trainer() is BatchedTrainer
    assert "could not compile the fused LSTM trainer" in capsys.readouterr().err


def test_the_fallback_trains_as_the_fused_trainer_within_round_off(tmp_path, monkeypatch):
    """Two epochs of a tiny temporal-order problem: the fallback (chosen with the compiler made unavailable)
    against the fused trainer (built where a compiler is found): the same weights within float32 round-off
    (100 roundings of the largest weight; a learning rate 10 % off, the control, moves them far more)."""
    if fused_lstm.missing_toolchain():
        pytest.skip(f"the fused trainer cannot be built here: {fused_lstm.missing_toolchain()}")
    torch.set_num_threads(1)
    data = (*to.make_data(30, 52, 1), *to.make_data(10, 52, 2))
    kw = dict(hidden=5, batch=10, milestones=(1,), reduction="sum")
    fused = fused_lstm.FusedTrainer([0, 4], data, **kw)
    with monkeypatch.context() as m:
        m.setenv("PATH", str(tmp_path))
        m.setenv("CXX", "no-such-c++")
        m.setattr(fused_lstm, "_EXTENSION", None)
        m.setattr(machine, "_FALLBACKS", {})
        fallback_class = fused_lstm.cpu_trainer()
    assert fallback_class is BatchedTrainer
    fallback = fallback_class([0, 4], data, **kw)
    control = BatchedTrainer([0, 4], data, **dict(kw, lr=fallback.lr0 * 1.1))
    for trainer in (fused, fallback, control):
        trainer.run(2)
    for k in range(2):
        gap = paper_sweep.gap_in_roundoff_units(fallback.theta(k), fused.theta(k))
        assert gap <= 100, gap
        assert paper_sweep.gap_in_roundoff_units(control.theta(k), fused.theta(k)) > 10 * max(gap, 1)
