"""Appendix C: Lemma 1 (sums/products of Lipschitz functions), Lemma 2 (loss properties), eq. (18)."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F


def product_bound_ratio(x: np.ndarray, z: np.ndarray, fs, L, M) -> float:
    """Lemma 1(b) on pairs (x, z) of shape (n,): max |Π f_i(x) − Π f_i(z)| / |x − z| divided by the lemma's
    constant Σ_i M_1⋯M_{i−1} L_i M_{i+1}⋯M_n (≤ 1 when the lemma holds; near 1 where it is attained)."""
    L, M = np.asarray(L, float), np.asarray(M, float)
    bound = sum(L[i] * np.prod(np.delete(M, i)) for i in range(len(L)))
    p = np.abs(np.prod([f(x) for f in fs], 0) - np.prod([f(z) for f in fs], 0)) / np.abs(x - z)
    return float(p.max() / bound)


def lemma1_ratios(n_pairs: int = 100_000, seed: int = 0) -> tuple[float, float]:
    """f1 = sin 3x (L 3, M 1), f2 = tanh 2x (L 2, M 1), f3 = x/2 (L 0.5, M 0.5) on [-1, 1].

    Returns (max |Δ sum|/|Δx| / 5.5, max |Δ product|/|Δx| / 3.0): ratios to Lemma 1's bounds."""
    rng = np.random.default_rng(seed)
    x, z = rng.uniform(-1, 1, n_pairs), rng.uniform(-1, 1, n_pairs)
    # add close pairs near 0 where the sum bound is attained
    x = np.concatenate([x, rng.uniform(-1e-4, 1e-4, 1000)])
    z = np.concatenate([z, x[-1000:] + 1e-7])
    fs = [lambda v: np.sin(3 * v), lambda v: np.tanh(2 * v), lambda v: 0.5 * v]
    dx = np.abs(x - z)
    s = np.abs(sum(f(x) for f in fs) - sum(f(z) for f in fs)) / dx
    return float(s.max() / 5.5), product_bound_ratio(x, z, fs, [3, 2, 0.5], [1, 1, 0.5])


def lemma1_product_attained(n_pairs: int = 100_000, seed: int = 0) -> float:
    """Lemma 1(b) where its bound is attained: f1 = f2 = f3 = x on [0, 1] (L_i = M_i = 1, bound 3), whose product
    x³ has slope x² + xz + z² → 3 as x, z → 1. Uniform pairs plus close pairs (1e-6 apart) in [0.999, 1].
    Returns the largest ratio to the bound (:func:`product_bound_ratio`): ≤ 1, and within about 2e-3 of 1."""
    rng = np.random.default_rng(seed)
    near = rng.uniform(0.999, 1 - 1e-6, 1000)
    x = np.concatenate([rng.uniform(0, 1, n_pairs), near])
    z = np.concatenate([rng.uniform(0, 1, n_pairs), near + 1e-6])
    ident = lambda v: v
    return product_bound_ratio(x, z, [ident] * 3, [1, 1, 1], [1, 1, 1])


def _triples(n: int, n_y: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    scale = 10.0 ** torch.empty(n, 1, dtype=torch.float64).uniform_(-3, 2, generator=g)
    yh = scale * torch.randn(n, n_y, generator=g, dtype=torch.float64)
    zh = scale * torch.randn(n, n_y, generator=g, dtype=torch.float64)
    y = torch.randn(n, n_y, generator=g, dtype=torch.float64)
    yb = (torch.rand(n, n_y, generator=g, dtype=torch.float64) < 0.5).to(torch.float64)
    return yh, zh, y, yb


def lemma2_checks(n: int = 100_000, n_y: int = 5, seed: int = 0) -> dict:
    """Lemma 2 on random triples at scales 1e-3..1e2.

    Returns dict(se_ratio: max |Δl| / ((2‖y‖ + 2 max‖ŷ‖)‖Δŷ‖) for squared error (≤ 1 if property 1 holds),
    bce_ratio: max |Δl| / ‖Δŷ‖₁ for sigmoid-BCE (≤ 1), se_grad_err / bce_grad_err: max |l' − (Ψ(ŷ) − K3 y)|
    against autograd, literal_bce_ratio: |Δl| / (K2 max‖·‖ ‖Δŷ‖) at y = 0, ŷ = −ẑ = 1e-4·1 with K1 = K2 = 2
    (> 1 means the literal form of property 1 fails for BCE), corrected_bce_ratio: the same |Δl| over
    (K_0 + ...)‖Δŷ‖ with K_0 = √N_y (≤ 1), bce_grad_err_wrong_sign: property 2 with K_3 = −1 (control))."""
    yh, zh, y, yb = _triples(n, n_y, seed)
    se = lambda a, t: ((t - a) ** 2).sum(1)
    bce = lambda a, t: F.binary_cross_entropy_with_logits(a, t, reduction="none").sum(1)
    d = (yh - zh).norm(dim=1)
    bound = (2 * y.norm(dim=1) + 2 * torch.maximum(yh.norm(dim=1), zh.norm(dim=1))) * d
    se_ratio = ((se(yh, y) - se(zh, y)).abs() / bound).max()
    bce_ratio = ((bce(yh, yb) - bce(zh, yb)).abs() / (yh - zh).abs().sum(1)).max()
    a = yh.clone().requires_grad_(True)
    (gs,) = torch.autograd.grad(se(a, y).sum(), a)
    (gb,) = torch.autograd.grad(bce(a, yb).sum(), a)
    se_err = (gs - (2 * yh - 2 * y)).abs().max()
    bce_err = (gb - (torch.sigmoid(yh) - yb)).abs().max()
    bce_err_wrong = (gb - (torch.sigmoid(yh) + yb)).abs().max()      # K_3 = -1: must not match
    e = 1e-4 * torch.ones(1, n_y, dtype=torch.float64)
    zero = torch.zeros(1, n_y, dtype=torch.float64)
    dl = (bce(e, zero) - bce(-e, zero)).abs()
    lit = dl / (2 * e.norm() * (2 * e).norm())
    corrected = dl / (n_y ** 0.5 * (2 * e).norm())                   # K_0 = sqrt(N_y) added
    return dict(se_ratio=float(se_ratio), bce_ratio=float(bce_ratio), se_grad_err=float(se_err),
                bce_grad_err=float(bce_err), bce_grad_err_wrong_sign=float(bce_err_wrong),
                literal_bce_ratio=float(lit), corrected_bce_ratio=float(corrected))


def eq18_ratio(n_x: int = 4, n_pairs: int = 10_000, T: int = 50, box: float = 0.5, seed: int = 0,
               scale_S: float = 1.0) -> float:
    """Eq. (18): ‖ŷ_t(θ, x0) − ŷ_t(φ, w0)‖ ≤ L_g S(t) ‖[θ, x0] − [φ, w0]‖ for a tanh RNN, ŷ = C x.

    θ = (W, U, b, C) with entries in [−box, box], x0 in [−1, 1]^n, a common input u_t ~ U[−1, 1].
    L_f = sqrt(max‖W‖² + max‖x‖² + max‖u‖² + 1), L_g = sqrt(max‖C‖² + max‖x‖²) (bounds over the box),
    S(t) = sqrt(Σ_{ℓ≤t} L_f^{2ℓ}). Returns the max over pairs and t ≤ T of LHS / (scale_S · RHS)
    (≤ 1 when (18) holds; scale_S < 1 shrinks the bound, a negative control)."""
    g = torch.Generator().manual_seed(seed)
    n_th = n_x * n_x + n_x + n_x + n_x
    def draw():
        th = (2 * torch.rand(n_pairs, n_th, generator=g, dtype=torch.float64) - 1) * box
        x0 = 2 * torch.rand(n_pairs, n_x, generator=g, dtype=torch.float64) - 1
        return th, x0
    (th1, x1), (th2, x2) = draw(), draw()
    u = 2 * torch.rand(T, generator=g, dtype=torch.float64) - 1
    def unpack(th):
        W = th[:, :n_x * n_x].view(-1, n_x, n_x)
        U, b, C = th[:, n_x * n_x:n_x * n_x + n_x], th[:, n_x * n_x + n_x:n_x * n_x + 2 * n_x], th[:, -n_x:]
        return W, U, b, C
    W_max = box * n_x            # ‖W‖₂ ≤ ‖W‖_F ≤ box·n_x
    x_max2 = float(n_x)          # |x_i| ≤ 1
    L_f = (W_max ** 2 + x_max2 + 1 + 1) ** 0.5
    L_g = ((box * n_x ** 0.5) ** 2 + x_max2) ** 0.5
    dist = torch.cat([th1 - th2, x1 - x2], 1).norm(dim=1)
    (W1, U1, b1, C1), (W2, U2, b2, C2) = unpack(th1), unpack(th2)
    worst = 0.0
    S2 = 1.0
    for t in range(1, T + 1):
        x1 = torch.tanh(torch.einsum("kij,kj->ki", W1, x1) + U1 * u[t - 1] + b1)
        x2 = torch.tanh(torch.einsum("kij,kj->ki", W2, x2) + U2 * u[t - 1] + b2)
        S2 += L_f ** (2 * t)
        lhs = ((C1 * x1).sum(1) - (C2 * x2).sum(1)).abs()
        worst = max(worst, float((lhs / (scale_S * L_g * S2 ** 0.5 * dist)).max()))
    return worst


def eq18_linear_ratios(L: float = 3.0, n_x: int = 4, T: int = 30, seed: int = 0, scale_S: float = 1.0) -> np.ndarray:
    """Eq. (18) where it is nearly attained: the linear RNN x_{t+1} = L·Q x_t, ŷ_t = C x_t with Q, C orthogonal
    (n_x × n_x, from QR of Gaussians), θ held fixed (Ω_θ one point, so the joint constants are L_f = L and
    L_g = 1) and two initial states x_0, w_0 ~ N(0, I), simulated separately in float64.
    Returns (T,) the ratios ‖ŷ_t − ẑ_t‖ / (scale_S · L_g S(t) ‖x_0 − w_0‖) for t = 1..T, S(t) as in (19); in
    closed form L^t / S(t): L / √(1 + L²) at t = 1 (0.949 at L = 3), falling to √(1 − L⁻²) (0.943). ≤ 1 when (18)
    holds; a bound smaller by 6 %, or a sum in S(t) stopping at t − 1, fails. (At t = 0, (18) reads
    ‖C Δx_0‖ ≤ ‖Δx_0‖, an equality for orthogonal C whatever S: left out.) scale_S < 1 shrinks the bound."""
    if L <= 1 or 2 * T * np.log(L) > 600:
        raise ValueError(f"need L > 1 and L^(2T) well inside float64 (got L={L}, T={T}): lower T")
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n_x, n_x)))
    C, _ = np.linalg.qr(rng.standard_normal((n_x, n_x)))
    x, w = rng.standard_normal(n_x), rng.standard_normal(n_x)
    d0 = np.linalg.norm(x - w)
    ratios, S2 = [], 0.0
    for t in range(T + 1):
        S2 += L ** (2 * t)
        if t >= 1:
            ratios.append(np.linalg.norm(C @ x - C @ w) / (scale_S * np.sqrt(S2) * d0))
        x, w = L * (Q @ x), L * (Q @ w)
    return np.asarray(ratios)
