import numpy as np
import pytest

from rnnrepro.flynn import lipschitz
from rnnrepro.flynn.bounds import example1_recipe
from rnnrepro.flynn.network import example1_problem


def test_sampled_constants_below_bounds_and_lwf_attained():
    net, _ = example1_problem(6, 3, 2.0, 0)
    rec = example1_recipe(6, 2.0, 0.25)
    out = lipschitz.sampled_constants(net, rec, 200, np.random.default_rng(0))
    assert set(out) == {"Lx2f", "Lw2f", "Lxwf", "Lzh", "Lwh", "Lwu"}
    assert all(0 < s <= b for s, b in out.values())
    x = np.random.default_rng(1).uniform(0, 1, 6)
    w = lipschitz.zero_preactivation_weights(net, x)
    assert np.abs(net.pre(x, w)).max() < 1e-14
    assert lipschitz.dw_f_norm(net, x, w) == pytest.approx(0.25 * np.linalg.norm(net.rho), abs=1e-15)
