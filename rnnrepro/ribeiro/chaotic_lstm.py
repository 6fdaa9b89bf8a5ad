"""The bias-free, input-free 2-unit LSTM of Ribeiro et al., App. A.1 (Figs. 1 and 7).

State (h, c) with h, c in R^2; parameters W (8, 2) = [W_hi; W_hf; W_hg; W_ho] (torch gate order).
Everything is batched over a leading parameter dimension P and runs in float64.
Gate pre-activations are computed elementwise (no matmul) so that a row of a batch gives
bit-identical results whatever the batch size: V(θ_true) is then exactly 0.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
import torch

from rnnrepro.core.lyapunov import largest_lyapunov

#: A.1 weights with the signs of the authors' code (W_hi[0,1] = -4, W_ho[1,1] = -7).
W_HI = [[-1.0, -4.0], [-3.0, -2.0]]
W_HF = [[-2.0, 6.0], [0.0, -6.0]]
W_HG = [[-1.0, -6.0], [6.0, -9.0]]
W_HO = [[4.0, 1.0], [-9.0, -7.0]]
#: the two entries whose minus sign was lost in the printed A.1: (row in the 8x2 stack, column).
PRINTED_SIGN_LOSSES = ((0, 1), (7, 1))
H0 = (0.5, 0.5)


def theta_true(printed: bool = False) -> torch.Tensor:
    """The 8x2 recurrent matrix [W_hi; W_hf; W_hg; W_ho] (float64); ``printed`` flips the two lost signs."""
    w = torch.tensor(W_HI + W_HF + W_HG + W_HO, dtype=torch.float64)
    if printed:
        for r, c in PRINTED_SIGN_LOSSES:
            w[r, c] = abs(w[r, c])
    return w


def step(h: torch.Tensor, c: torch.Tensor, W: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """One LSTM step. h, c: (P, 2); W: (P, 8, 2). Returns (h', c')."""
    z = W[:, :, 0] * h[:, None, 0] + W[:, :, 1] * h[:, None, 1]          # (P, 8)
    i, f, g, o = torch.sigmoid(z[:, 0:2]), torch.sigmoid(z[:, 2:4]), torch.tanh(z[:, 4:6]), torch.sigmoid(z[:, 6:8])
    c = f * c + i * g
    return o * torch.tanh(c), c


def simulate(W: torch.Tensor, n_steps: int, h0: ArrayLike | torch.Tensor = H0,
             c0: ArrayLike | torch.Tensor = H0) -> torch.Tensor:
    """Hidden states h_1..h_N for parameter batch W (P, 8, 2); returns (P, N, 2)."""
    P = W.shape[0]
    h = torch.as_tensor(h0, dtype=W.dtype).expand(P, 2) if not torch.is_tensor(h0) or h0.dim() == 1 else h0
    c = torch.as_tensor(c0, dtype=W.dtype).expand(P, 2) if not torch.is_tensor(c0) or c0.dim() == 1 else c0
    out = []
    for _ in range(n_steps):
        h, c = step(h, c, W)
        out.append(h)
    return torch.stack(out, 1)


def line_cost(s: ArrayLike, W0: torch.Tensor, n_steps: int = 200, burn: int = 100,
              chunk: int = 4096) -> tuple[np.ndarray, np.ndarray]:
    """MSE cost V(s) of θ(s) = s·W0 against data simulated at W0 (samples burn+1..n_steps).

    s: (S,) array; returns (V (S,), steady-state h[:, burn:, 0] (S, n_steps-burn)) as numpy.
    """
    s = torch.as_tensor(np.asarray(s, dtype=np.float64))
    y = simulate(W0[None], n_steps)[:, burn:]
    V, traj = [], []
    for k in range(0, len(s), chunk):
        yh = simulate(s[k:k + chunk, None, None] * W0[None], n_steps)[:, burn:]
        V.append(((yh - y) ** 2).mean((1, 2)))
        traj.append(yh[:, :, 0])
    return torch.cat(V).numpy(), torch.cat(traj).numpy()


def plane_cost(s1: ArrayLike, s2: ArrayLike, W0: torch.Tensor, Wr: torch.Tensor, n_steps: int = 200,
               burn: int = 100) -> np.ndarray:
    """V on the grid θ = s1·W0 + s2·Wr; s1 (A,), s2 (B,); returns (A, B) numpy."""
    S1, S2 = np.meshgrid(np.asarray(s1, float), np.asarray(s2, float), indexing="ij")
    a = torch.as_tensor(S1.ravel())[:, None, None]
    b = torch.as_tensor(S2.ravel())[:, None, None]
    y = simulate(W0[None], n_steps)[:, burn:]
    W = a * W0[None] + b * Wr[None]
    V = []
    for k in range(0, W.shape[0], 8192):
        V.append(((simulate(W[k:k + 8192], n_steps)[:, burn:] - y) ** 2).mean((1, 2)))
    return torch.cat(V).numpy().reshape(S1.shape)


def step_tangent(h: torch.Tensor, c: torch.Tensor, vh: torch.Tensor, vc: torch.Tensor,
                 W: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """One step of the LSTM and of a tangent vector (vh, vc) (analytic Jacobian-vector product).

    h, c, vh, vc: (P, 2); W: (P, 8, 2). Returns (h', c', vh', vc').
    """
    z = W[:, :, 0] * h[:, None, 0] + W[:, :, 1] * h[:, None, 1]
    dz = W[:, :, 0] * vh[:, None, 0] + W[:, :, 1] * vh[:, None, 1]
    i, f, g, o = torch.sigmoid(z[:, 0:2]), torch.sigmoid(z[:, 2:4]), torch.tanh(z[:, 4:6]), torch.sigmoid(z[:, 6:8])
    c1 = f * c + i * g
    tc = torch.tanh(c1)
    vc1 = (f * (1 - f) * dz[:, 2:4]) * c + f * vc + (i * (1 - i) * dz[:, 0:2]) * g + i * (1 - g * g) * dz[:, 4:6]
    vh1 = o * (1 - o) * dz[:, 6:8] * tc + o * (1 - tc * tc) * vc1
    return o * tc, c1, vh1, vc1


def lyapunov(W: torch.Tensor, n_steps: int = 3000, burn: int = 500, seed: int = 0) -> np.ndarray:
    """Largest Lyapunov exponent (per step) of the 4-D map (h, c) for each W (P, 8, 2).

    :func:`rnnrepro.core.lyapunov.largest_lyapunov` on the state z = [h, c] (P, 1, 4) from (h0, c0), with
    the analytic tangent step :func:`step_tangent`; the first ``burn`` steps are not averaged.
    Returns (P,) numpy.
    """
    def tangent(z, v):
        h, c, vh, vc = step_tangent(z[:, 0, :2], z[:, 0, 2:], v[:, 0, :2], v[:, 0, 2:], W)
        return torch.cat([h, c], -1)[:, None], torch.cat([vh, vc], -1)[:, None]

    z0 = torch.full((W.shape[0], 1, 4), H0[0], dtype=W.dtype)
    return largest_lyapunov(None, z0, n_steps, burn, seed=seed, tangent=tangent)[:, 0].numpy()


def s_grid(n: int, lo: float = 0.5, hi: float = 2.0) -> np.ndarray:
    """n points in [lo, hi] (np.linspace) with the point nearest to 1 replaced by exactly 1.0."""
    s = np.linspace(lo, hi, n)
    s[np.argmin(np.abs(s - 1.0))] = 1.0
    return s


def exponent_at(s: ArrayLike, s_lyap: ArrayLike, lam: ArrayLike) -> np.ndarray:
    """The exponent at each point of ``s`` (S,), read off the nearest point of the grid ``s_lyap`` (L,) on which
    ``lam`` (L,) was measured: (S,)."""
    s, s_lyap = np.asarray(s, float), np.asarray(s_lyap, float)
    return np.asarray(lam, float)[np.abs(s[:, None] - s_lyap[None]).argmin(1)]


def separation_time(W: torch.Tensor, eps: float = 1e-10, thresh: float = 1e-3, n_steps: int = 400) -> int:
    """First step at which two trajectories started eps apart in h[0] differ by > thresh (-1 if never)."""
    h0 = torch.tensor([[0.5, 0.5], [0.5 + eps, 0.5]], dtype=W.dtype)
    y = simulate(W.expand(2, 8, 2), n_steps, h0=h0, c0=torch.full((2, 2), 0.5, dtype=W.dtype))
    d = (y[0] - y[1]).norm(dim=1)
    idx = torch.nonzero(d > thresh)
    return int(idx[0, 0]) + 1 if len(idx) else -1


def long_run_spread(W: torch.Tensor, n_starts: int = 200, n_steps: int = 2000,
                    seed: int = 0) -> tuple[float, float]:
    """From n_starts random (h0, c0) ~ U[-1,1]^2 at one W (8, 2): returns (min over starts of the
    temporal std of h[0] over the second half, spread (max-min) of final h[0] across starts)."""
    g = torch.Generator().manual_seed(seed)
    h0 = 2 * torch.rand(n_starts, 2, generator=g, dtype=W.dtype) - 1
    c0 = 2 * torch.rand(n_starts, 2, generator=g, dtype=W.dtype) - 1
    y = simulate(W.expand(n_starts, 8, 2), n_steps, h0=h0, c0=c0)[:, n_steps // 2:, 0]
    return float(y.std(1).min()), float(y[:, -1].max() - y[:, -1].min())


def jacobian(h: torch.Tensor, c: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    """Jacobian of the 4-D map (h, c) -> (h', c') at each state: h, c (P, 2), W (P, 8, 2) -> (P, 4, 4).

    Column j is :func:`step_tangent` applied to the j-th unit vector of (h, c) (all four in one batched call)."""
    P = h.shape[0]
    V = torch.eye(4, dtype=h.dtype).repeat(P, 1)                                   # (P*4, 4)
    rep = lambda x: x.repeat_interleave(4, 0)
    _, _, vh, vc = step_tangent(rep(h), rep(c), V[:, :2], V[:, 2:], rep(W))
    return torch.cat([vh, vc], -1).reshape(P, 4, 4).transpose(1, 2)


def lyapunov_spectrum(W: torch.Tensor, n_steps: int = 3000, burn: int = 500) -> tuple[np.ndarray, np.ndarray]:
    """All four Lyapunov exponents (per step, descending) of the map (h, c) from (h0, c0) for each W (P, 8, 2),
    by QR re-orthonormalisation of a tangent frame (Benettin), and the mean of log|det J_t| over the same steps.

    The first ``burn`` steps are not averaged. Returns (exponents (P, 4), mean log|det J| (P,)) as numpy; on an
    invariant measure the exponents sum to the mean log-determinant (the mean volume change per step)."""
    if n_steps <= burn:
        raise ValueError(f"n_steps ({n_steps}) must exceed burn ({burn})")
    P = W.shape[0]
    h = torch.full((P, 2), H0[0], dtype=W.dtype)
    c = torch.full((P, 2), H0[1], dtype=W.dtype)
    Q = torch.eye(4, dtype=W.dtype).expand(P, 4, 4).clone()
    logr = torch.zeros(P, 4, dtype=W.dtype)
    logdet = torch.zeros(P, dtype=W.dtype)
    for t in range(n_steps):
        J = jacobian(h, c, W)
        h, c = step(h, c, W)
        Q, R = torch.linalg.qr(J @ Q)
        if t >= burn:
            logr += torch.log(torch.diagonal(R, dim1=-2, dim2=-1).abs())
            logdet += torch.linalg.slogdet(J)[1]
    lam = (logr / (n_steps - burn)).numpy()
    return -np.sort(-lam, axis=1), (logdet / (n_steps - burn)).numpy()


def log_det_jacobian(h: torch.Tensor, c: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    """log|det ∂(h', c')/∂(h, c)| in closed form, h, c (P, 2), W (P, 8, 2) -> (P,).

    With D = ∂c'/∂c = diag(f) and ∂h'/∂c = diag(o·sech²c')·D, the Schur complement of D leaves
    diag(tanh c')·∂o/∂h, so det J = Π f · Π tanh(c') · Π o(1 − o) · det W_ho (no Jacobian is formed)."""
    z = W[:, :, 0] * h[:, None, 0] + W[:, :, 1] * h[:, None, 1]
    i, f, g, o = torch.sigmoid(z[:, 0:2]), torch.sigmoid(z[:, 2:4]), torch.tanh(z[:, 4:6]), torch.sigmoid(z[:, 6:8])
    c1 = f * c + i * g
    return (torch.log(f).sum(1) + torch.log(torch.tanh(c1).abs()).sum(1) + torch.log(o * (1 - o)).sum(1)
            + torch.log(torch.linalg.det(W[:, 6:8, :]).abs()))


def mean_log_det(W: torch.Tensor, n_steps: int = 3000, burn: int = 500) -> np.ndarray:
    """Mean of :func:`log_det_jacobian` along the orbit from (h0, c0) over steps burn..n_steps − 1 (the steps
    :func:`lyapunov_spectrum` averages): the mean change of the state's differential entropy per step. (P,) numpy."""
    if n_steps <= burn:
        raise ValueError(f"n_steps ({n_steps}) must exceed burn ({burn})")
    P = W.shape[0]
    h = torch.full((P, 2), H0[0], dtype=W.dtype)
    c = torch.full((P, 2), H0[1], dtype=W.dtype)
    total = torch.zeros(P, dtype=W.dtype)
    for t in range(n_steps):
        if t >= burn:
            total += log_det_jacobian(h, c, W)
        h, c = step(h, c, W)
    return (total / (n_steps - burn)).numpy()
