import math

import torch

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import experiments as ex


def test_tau_sweep_and_cutoff_sweep_small():
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(4, 3, 2, 0)
    Y = 0.1 * torch.ones(4, 3)
    r = ex.tau_sweep(X, Y, Y + 0.5, act, 0.5, 8, [4, 8], 0, controls_at=4, lyap=lambda w, U: w.sum() * 0 + 1)
    assert set(r.A) == {("pgd", 4), ("noisy", 4), ("gd", 4), ("meanfield", 4), ("pgd", 8), ("noisy", 8)}
    assert r.A["noisy", 8] > r.A["pgd", 8] and r.lyapunov0 == 1
    assert max(r.disp_wu["pgd", 8]) <= 1 + 1e-12
    out = ex.cutoff_sweep(act, [0.5, 1.5], [2, 3], 8, 3, 2, [0, 1], 5,
                          lambda Xc, al: 0.1 * torch.ones(Xc.shape[0], Xc.shape[1]),
                          lambda n, T: E.sphere_inputs(n, T, 2, 0))
    assert out.shape == (2, 2, 2) and (out <= 1 + 1e-12).all() and math.isfinite(out.sum())
