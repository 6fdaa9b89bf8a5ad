import math

import numpy as np
import pytest
from scipy.linalg import expm

from rnnrepro.flynn import extremal_system as ext
from rnnrepro.flynn.bounds import example1_recipe, tau_theorem3
from rnnrepro.flynn.conservatism import crossing_log

REC = example1_recipe(10, 2.0, 0.25)
CONSTS = dict(beta=REC.beta, l_wu=REC.Lwu, l_zh=REC.Lzh, l_wh=REC.Lwh)


def test_path_matches_the_matrix_exponential():
    tau = 0.7 * REC.tau
    t, ratio = ext.invariant_ratio_path(tau, **CONSTS, c=REC.c, n_out=11)
    m = ext.coefficient_matrix(**CONSTS)
    s0 = np.linalg.solve(m, [0.5 * REC.c, 1.0])
    rates = np.diag([1 / tau, 1.0]) @ m
    for t_, r_ in zip(t, ratio):
        u, h = m @ expm(rates * t_) @ s0
        assert r_ == pytest.approx(abs(u) / (REC.c * abs(h)), rel=1e-9)
    assert ratio[0] == pytest.approx(0.5)


def test_long_run_ratio_is_the_stable_root_of_the_riccati_equation():
    # ρ = u/h obeys ρ' = (b/τ)ρ² − (β/τ − d)ρ + a; from below its smaller root ρ₁ it rises to ρ₁
    a, b, d, beta = REC.Lwu, REC.Lzh, REC.Lwh, REC.beta
    for f in (0.8, 0.95):
        tau = f * REC.tau
        p_, q_ = b / tau, -(beta / tau - d)
        rho1 = (-q_ - math.sqrt(q_ * q_ - 4 * p_ * a)) / (2 * p_)
        assert 0.5 * REC.c < rho1 < REC.c
        assert ext.max_invariant_ratio(tau, **CONSTS, c=REC.c) == pytest.approx(rho1 / REC.c, rel=1e-8)


def test_threshold_is_theorem3s_tau_and_the_control_moves_it():
    crossing = crossing_log(lambda t: ext.max_invariant_ratio(t, **CONSTS, c=REC.c), 1.0, REC.tau / 10,
                            10 * REC.tau, rtol=1e-6)
    assert crossing / tau_theorem3(REC.alpha, REC.beta, REC.c, REC.Lwh, REC.Lwu) == pytest.approx(1.0, abs=1e-5)
    flipped = crossing_log(lambda t: ext.max_invariant_ratio(t, **CONSTS, c=REC.c, sign=1.0), 1.0, REC.tau / 10,
                           10 * REC.tau, rtol=1e-6)
    assert flipped / REC.tau == pytest.approx((1 + REC.alpha) / (1 - REC.alpha), abs=1e-5)


def test_rejects_bad_arguments():
    with pytest.raises(ValueError, match="sign"):
        ext.coefficient_matrix(**CONSTS, sign=0.5)
    with pytest.raises(ValueError, match="tau > 0"):
        ext.max_invariant_ratio(-1.0, **CONSTS, c=REC.c)


def test_near_alpha_half_the_invariant_outlives_tau_star():
    # α(cL_w h + 2L_w u) ≥ L_w u: u = ch is the repelling root of u/h, a run from inside never reaches it
    rec = example1_recipe(10, 2.0, 0.49)
    assert rec.alpha * (rec.c * rec.Lwh + 2 * rec.Lwu) >= rec.Lwu
    consts = dict(beta=rec.beta, l_wu=rec.Lwu, l_zh=rec.Lzh, l_wh=rec.Lwh, c=rec.c)
    crossing = crossing_log(lambda t: ext.max_invariant_ratio(t, **consts), 1.0, rec.tau / 10, 10 * rec.tau, rtol=1e-6)
    assert crossing / rec.tau > 1.002


def test_descent_ratio_matches_the_matrix_exponential_and_an_equilibrium_solve():
    tau = 0.7 * REC.tau
    t, ratio = ext.descent_ratio_path(tau, **CONSTS, c=REC.c, n_out=11)
    m = ext.coefficient_matrix(**CONSTS)
    s0 = np.linalg.solve(m, [0.5 * REC.c, 1.0])
    rates = np.diag([1 / tau, 1.0]) @ m
    for t_, r_ in zip(t, ratio):
        z, w = expm(rates * t_) @ s0
        z_star = -m[0, 1] * w / m[0, 0]                    # u(z*, w) = 0
        h, h_star = m[1] @ [z, w], m[1] @ [z_star, w]
        assert r_ == pytest.approx(abs(h - h_star) / abs(h), rel=1e-9)


def test_descent_ratio_is_alpha_times_the_invariant_ratio_and_alpha_is_reached_at_tau_star():
    # 4.4 and the Lipschitz bound on h are equalities here: |h − h*| = (L_z h/β)|u|, so the ratio is α·U/(cH)
    for f in (0.5, 0.9):
        _, inv = ext.invariant_ratio_path(f * REC.tau, **CONSTS, c=REC.c)
        _, desc = ext.descent_ratio_path(f * REC.tau, **CONSTS, c=REC.c)
        np.testing.assert_allclose(desc, REC.alpha * inv, rtol=1e-9)
    tau_star = tau_theorem3(REC.alpha, REC.beta, REC.c, REC.Lwh, REC.Lwu)
    at_star = ext.descent_ratio_path(tau_star, **CONSTS, c=REC.c)[1].max()
    assert REC.alpha * (1 - 1e-6) < at_star <= REC.alpha * (1 + 1e-9)
    assert ext.descent_ratio_path(1.1 * tau_star, **CONSTS, c=REC.c)[1].max() > 1.1 * REC.alpha
    assert ext.max_invariant_ratio(1.1 * tau_star, **CONSTS, c=REC.c) > 1.1
