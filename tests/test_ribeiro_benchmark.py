"""The training benchmark's pieces (the timing itself is not tested: it depends on the machine)."""
import pytest
import torch

from rnnrepro.ribeiro import benchmark
from rnnrepro.ribeiro import temporal_order as to


def test_every_runner_trains_one_epoch_and_reports_its_seeds():
    torch.set_default_dtype(torch.float32)
    data = (*to.make_data(20, 50, 1), *to.make_data(10, 50, 2))
    runners = benchmark.epoch_runners(data, seeds=2, trainers=["fused", "batched", "single"])
    assert list(runners)[0] == "authors' loop" and [s for _, s in runners.values()] == [1, 2, 2, 1]
    per = benchmark.time_per_seed_epoch(runners, repeats=1)
    assert set(per) == set(runners) and all(t > 0 for t in per.values())


def test_the_median_is_per_seed_and_interleaved():
    calls = []
    runners = {"a": (lambda: calls.append("a"), 1), "b": (lambda: calls.append("b"), 4)}
    per = benchmark.time_per_seed_epoch(runners, repeats=3)
    assert calls == ["a", "b"] * 4                  # one untimed epoch each, then in turn
    assert set(per) == {"a", "b"}


def test_an_unknown_trainer_is_refused_in_one_line():
    with pytest.raises(SystemExit, match="unknown trainer 'fast'"):
        benchmark.epoch_runners((*to.make_data(10, 50, 1), *to.make_data(10, 50, 2)), seeds=1, trainers=["fast"])
