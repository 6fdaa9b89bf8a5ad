import math

import numpy as np
import torch

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import horizon_sweep, pgd


def test_tau_sweep_runs_and_controls():
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(4, 3, 2, 0)
    Y = 0.1 * torch.ones(4, 3)
    r = horizon_sweep.tau_sweep(X, Y, Y + 0.5, act, alpha=0.5, m=8, taus=[4, 8], seed=0, controls_at=4,
                                lyap=lambda w, U: w.sum() * 0 + 1)
    assert set(r.A) == {("pgd", 4), ("noisy", 4), ("gd", 4), ("meanfield", 4), ("pgd", 8), ("noisy", 8)}
    assert r.A["noisy", 8] > r.A["pgd", 8] and r.lyapunov0 == 1
    assert max(r.disp_wu["pgd", 8]) <= 1 + 1e-12


def test_tau_sweep_pgd_run_is_a_single_projected_gd_run():
    """The batched PGD run equals one run of pgd.train with η = 1/(T√τ), ρ = 1, 1/√m readout."""
    torch.set_default_dtype(torch.float64)
    act = E.activation("tanh")
    X = E.sphere_inputs(5, 4, 2, 3)
    Y = 0.2 * torch.sin(torch.arange(20.0)).reshape(5, 4)
    r = horizon_sweep.tau_sweep(X, Y, Y + 0.3, act, alpha=0.5, m=16, taus=[9], seed=2)
    c, w, U = E.symmetric_init(16, 2, 0.5, [2])
    ref = pgd.train(X, Y[None], c, w, U, act=act, eta=1 / (4 * math.sqrt(9)), taus=9, rho_w=1.0, rho_u=1.0)
    assert math.isclose(r.A["pgd", 9], float(ref.trajectory_average()[0]), rel_tol=1e-12)
    assert math.isclose(r.min_loss["pgd", 9], float(np.nanmin(ref.loss[0])), rel_tol=1e-12)
