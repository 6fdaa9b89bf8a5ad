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


def test_seeding_makes_torch_deterministic_without_importing_its_compiler():
    """The eager flag torch.use_deterministic_algorithms(True, warn_only=True) sets, in a fresh process, without
    the 1.5 s import of torch._inductor (torch.compile's code generator, never used by the book)."""
    import subprocess
    import sys

    code = ("import sys, torch\nfrom rnnrepro.book.determinism import seed_everything\nseed_everything(0)\n"
            "print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(),"
            " 'torch._inductor' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True", "False"], out
