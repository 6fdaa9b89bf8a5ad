import random

import numpy as np
import pytest
import torch

from rnnrepro.book.determinism import pin_blas_threads, seed_everything


def draws():
    return random.random(), float(np.random.rand()), float(torch.rand(1))


def test_same_seed_same_draws():
    rng = seed_everything(5)
    a = draws() + (rng.random(),)
    rng = seed_everything(5)
    assert a == draws() + (rng.random(),)
    seed_everything(6)
    assert draws() != a[:3]


def test_dtype_and_threads():
    seed_everything(0, float64=False, threads=1)
    assert torch.get_default_dtype() == torch.float32 and torch.get_num_threads() == 1
    seed_everything(0)
    assert torch.get_default_dtype() == torch.float64


@pytest.mark.parametrize("bad", [-1, 1.5, "0"])
def test_bad_seed(bad):
    with pytest.raises(ValueError, match="seed must be"):
        seed_everything(bad)


def test_pin_blas_threads_keeps_results():
    a = np.random.default_rng(0).normal(size=(50, 50))
    ref = a @ a
    assert pin_blas_threads(1) >= 1   # numpy's OpenBLAS at least (Linux wheels)
    assert np.allclose(a @ a, ref)
