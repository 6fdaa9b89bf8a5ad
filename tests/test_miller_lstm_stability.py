import math

import pytest
import torch

from rnnrepro.miller import lstm_stability as ls

torch.set_num_threads(1)


def test_construct_meets_the_bounds():
    p = ls.construct(8, 4, 0.6, torch.Generator().manual_seed(0))
    assert math.isclose(float(ls.inf_norm(p["W_i"])), 0.98 * 0.4)
    assert math.isclose(float(ls.inf_norm(p["W_f"])), 0.98 * 0.16)
    assert math.isclose(float(ls.inf_norm(p["W_z"])), 0.98 * 0.1)
    assert math.isclose(ls.lambda_inf(p, 0.6), 0.992, rel_tol=1e-12)
    with pytest.raises(ValueError):
        ls.construct(8, 4, 1.0, torch.Generator())


def test_forget_gate_bounded_and_one_step_contracts():
    g = torch.Generator().manual_seed(1)
    p = ls.construct(8, 4, 0.6, g)
    h, h2 = 2 * torch.rand(2, 50, 8, generator=g, dtype=torch.float64) - 1
    c, c2 = torch.randn(2, 50, 8, generator=g, dtype=torch.float64)
    x = 2 * torch.rand(50, 4, generator=g, dtype=torch.float64) - 1
    _, _, f = ls.step(p, h, c, x)
    assert f.max() <= 0.6 + 1e-12
    assert ls.one_step_ratios(p, h, c, h2=h2, c2=c2, x=x).max() <= ls.lambda_inf(p, 0.6)
    states, fmax = ls.run(p, h, c, x.expand(5, -1, -1))
    assert states.shape == (5, 50, 16) and fmax <= 0.6 + 1e-12


def test_iterations_for_l2():
    r = ls.iterations_for_l2(0.5, 16)  # 0.5^r * 4 < 1 -> r = 3
    assert r == 3
    with pytest.raises(ValueError):
        ls.iterations_for_l2(1.0, 4)
    assert ls.gaussian(3, 2, 1.0, torch.Generator())["U_f"].shape == (3, 2)
