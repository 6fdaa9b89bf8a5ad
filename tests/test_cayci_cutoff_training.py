import math

import numpy as np
import torch

from rnnrepro.cayci import cutoff_training, pgd
from rnnrepro.cayci import elman as E


def _flat_target(Xc, al):
    return 0.1 * torch.ones(Xc.shape[0], Xc.shape[1])


def test_cutoff_sweep_shape_and_range():
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    out = cutoff_training.cutoff_sweep(act, [0.5, 1.5], [2, 3], m=8, n=3, d=2, seeds=[0, 1], tau=5,
                                       target_fn=_flat_target, inputs_fn=lambda n, T: E.sphere_inputs(n, T, 2, 0))
    assert out.shape == (2, 2, 2) and (out <= 1 + 1e-12).all() and math.isfinite(out.sum())


def test_cutoff_sweep_entry_is_one_projected_gd_run():
    """Entry (α, T, seed) = min_s R̂(s) / R̂(0) of one pgd.train run at that α, T and seed."""
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    out = cutoff_training.cutoff_sweep(act, [0.5, 1.2], [4], m=8, n=3, d=2, seeds=range(7, 9), tau=6,
                                       target_fn=lambda Xc, al: al * Xc[..., 0],
                                       inputs_fn=lambda n, T: E.sphere_inputs(n, T, 2, 5))
    X = E.sphere_inputs(3, 4, 2, 5)
    c, w, U = E.symmetric_init(8, 2, 1.2, [8])
    r = pgd.train(X, (1.2 * X[..., 0])[None], c, w, U, act=act, eta=1 / (4 * math.sqrt(6)), taus=6, rho_w=1.0,
                  rho_u=1.0)
    assert math.isclose(out[1, 0, 1], float(np.nanmin(r.loss[0]) / r.loss[0, 0]), rel_tol=1e-12)
