"""The derivative entries the paper prints for Example 1 (Table 2, eq. 7.2) and Table 3's D²_x f, and central
differences of f itself to check them against.

Example 1: f = −x + σ(v x + w ρ), u = v x + w ρ; Table 2 prints (D_w f)_{i,(i,k)} = σ'(u_i)ρ_k,
(D²_{x,w} f)_{i,j,(i,r)} = σ''(u_i)v_ij ρ_r, (D²_w f)_{i,(i,k),(i,r)} = σ''(u_i)ρ_kρ_r and
(D²_x f)_{i,j,k} = σ''(u_i)v_ij v_ik. Table 3 prints (D²_x f)_{i,j,k} = σ''(u_i)ω_ij ω_ik for Example 3.
Weights are flattened row-major (index (i, k) -> i·m + k), as :func:`fd_second_derivatives` does.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.flynn.activations import ddsigma, dsigma
from rnnrepro.flynn.network import FixedFeedbackNet


def fd_dx2(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray, eps: float = 1e-4) -> np.ndarray:
    """D²_x f (n, n, n) by central second differences of f(x) -> (n,) (error O(ε²) + O(1e-16/ε²))."""
    n = x.shape[0]
    E = eps * np.eye(n)
    return np.stack([np.stack([(f(x + a + b) - f(x + a - b) - f(x - a + b) + f(x - a - b)) / (4 * eps ** 2)
                               for b in E], axis=1) for a in E], axis=1)


def table2_printed(net: FixedFeedbackNet, x: np.ndarray, w: ArrayLike) -> dict[str, np.ndarray]:
    """Table 2's entries as printed: 'dwf' (n, n·m), 'dxwf' (n, n, n·m), 'dw2f' (n, n·m, n·m), 'dx2f' (n, n, n)."""
    n, m, rho, v = net.n, net.m, net.rho, net.v
    u = net.pre(x, w)
    s1, s2, i = dsigma(u), ddsigma(u), np.arange(n)
    dwf = np.zeros((n, n, m))
    dwf[i, i, :] = s1[:, None] * rho[None, :]
    dxwf = np.zeros((n, n, n, m))
    dxwf[i, :, i, :] = s2[:, None, None] * v[:, :, None] * rho[None, None, :]
    dw2f = np.zeros((n, n, m, n, m))
    dw2f[i, i, :, i, :] = s2[:, None, None] * rho[None, :, None] * rho[None, None, :]
    dx2f = s2[:, None, None] * v[:, :, None] * v[:, None, :]
    return {"dwf": dwf.reshape(n, n * m), "dxwf": dxwf.reshape(n, n, n * m),
            "dw2f": dw2f.reshape(n, n * m, n * m), "dx2f": dx2f}


def table3_printed_dx2(omega: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Table 3's (D²_x f)_{i,j,k} = σ''(u_i) ω_ij ω_ik (n, n, n), for ω (n, n) and pre-activations u (n,)."""
    return ddsigma(u)[:, None, None] * omega[:, :, None] * omega[:, None, :]
