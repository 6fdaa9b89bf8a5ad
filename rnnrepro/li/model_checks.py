"""Prop. 3.1 and (17): the model identities (Euler order, time homogeneity, causality), the sign input
that attains the L¹ norm, and the Monte Carlo check of the Itô isometry."""

from __future__ import annotations

import math

import numpy as np

from rnnrepro.li import kernels as K
from rnnrepro.li import targets as T


def model_identities(m: int, rng: np.random.Generator, *, dt: float = 0.1, t_end: float = 10.0, shift_steps: int = 50,
                     eta: float = 1e-4, n_paths: int = 20000) -> dict:
    """Euler → continuous kernel order, homogeneity, causality, the sign input and Itô's isometry."""
    W, U, c = K.random_stable(m, rng)
    errs, errs_cn = [], []
    for h in (dt, dt / 2):
        n = int(round(t_end / h))
        ref = K.continuous_kernel(W, U, c, h * np.arange(n))
        errs.append(np.abs(K.euler_kernel(W, U, c, h, n) - ref).max())
        errs_cn.append(np.abs(K.trapezoid_kernel(W, U, c, h, n) - ref).max())
    x = rng.normal(size=300)
    x[:shift_steps] = 0.0
    y = K.simulate_euler(W, U, c, x, dt)
    y_shift = K.simulate_euler(W, U, c, np.concatenate([np.zeros(shift_steps), x]), dt)[shift_steps:]
    Wt = lambda k: W * (1 + 0.5 * math.sin(0.1 * k))
    y_tv = K.simulate_euler(W, U, c, x, dt, Wt=Wt)
    y_tv_shift = K.simulate_euler(W, U, c, np.concatenate([np.zeros(shift_steps), x]), dt, Wt=Wt)[shift_steps:]
    cut = 200
    xp = x.copy()
    xp[cut + 1:] += rng.normal(size=x.size - cut - 1)
    y_p = K.simulate_euler(W, U, c, xp, dt)
    y_rev = K.simulate_euler(W, U, c, x[::-1], dt)[::-1]
    y_rev_p = K.simulate_euler(W, U, c, xp[::-1], dt)[::-1]
    # sign input on a fine grid: ρ = Airy-type target vs the RNN kernel
    hf = 1e-3
    tf = hf * np.arange(int(20 / hf))
    diff = T.airy_kernel(tf, 6.0) - K.continuous_kernel(W, U, c, tf)
    # Itô isometry with the discrete kernels
    k_model = K.euler_kernel(W, U, c, dt, 120)
    k_target = T.airy_kernel(dt * np.arange(120), 6.0)
    mc = K.white_noise_mc(k_model, k_target, dt, n_paths, rng)
    mc_dt = K.white_noise_mc(k_model, k_target, dt, n_paths, rng, scale="dt")
    closed = K.white_noise_loss(k_model, k_target, dt)
    return dict(
        euler_errors=np.array(errs), cn_errors=np.array(errs_cn),
        order_ratio=errs[0] / errs[1], order_ratio_cn=errs_cn[0] / errs_cn[1],
        shift_gap=float(np.abs(y - y_shift).max()), shift_gap_tv=float(np.abs(y_tv - y_tv_shift).max()),
        causal_gap=float(np.abs(y_p[:cut + 1] - y[:cut + 1]).max()),
        causal_gap_rev=float(np.abs(y_rev_p[:cut + 1] - y_rev[:cut + 1]).max()),
        sign_ratio=K.sign_input_ratio(diff, hf, eta),
        const_ratio=float(abs(diff.sum()) / np.abs(diff).sum()),
        mc=mc, mc_dt=mc_dt, closed=closed,
        z=abs(mc[0] - closed) / mc[1], z_dt=abs(mc_dt[0] - closed) / mc_dt[1],
    )
