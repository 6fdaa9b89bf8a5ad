"""Growth of the Lipschitz constants of V and ∇V with the horizon N (Theorem 1, Ribeiro et al.).

Three regimes:
- vanilla tanh RNN x_{t+1} = tanh(W x_t + U u_t + b), ŷ_t = C x_t (contractive or expansive teacher);
- the rotation RNN x_{t+1} = R(ω) x_t (marginal, closed form);
- the chaotic LSTM along θ(s) = s·θ_true (first and second derivative in s by autograd).
All float64.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
import torch

from rnnrepro.core.cells import affine
from rnnrepro.core.lyapunov import largest_lyapunov
from rnnrepro.ribeiro import chaotic_lstm as cl


def tanh_teacher(n_x: int, gain: float, kind: str, seed: int = 0) -> dict:
    """Teacher parameters dict(W (n,n), U (n,1), b (n,), C (1,n)).

    kind "orthogonal": W = gain·Q (Q orthogonal, ‖W‖₂ = gain); "gaussian": W = gain·G/√n.
    """
    g = torch.Generator().manual_seed(seed)
    G = torch.randn(n_x, n_x, generator=g, dtype=torch.float64)
    if kind == "orthogonal":
        W = gain * torch.linalg.qr(G)[0]
    elif kind == "gaussian":
        W = gain * G / n_x ** 0.5
    else:
        raise ValueError(kind)
    U = torch.randn(n_x, 1, generator=g, dtype=torch.float64)
    C = torch.randn(1, n_x, generator=g, dtype=torch.float64) / n_x ** 0.5
    return dict(W=W, U=U, b=torch.zeros(n_x, dtype=torch.float64), C=C)


def perturb(theta: dict, k: int, radius: float, seed: int = 1) -> dict:
    """k parameter sets θ + radius·ξ/‖ξ‖ (per-tensor unit Gaussian directions); tensors get a leading K dim."""
    g = torch.Generator().manual_seed(seed)
    out = {}
    for name, v in theta.items():
        xi = torch.randn((k,) + tuple(v.shape), generator=g, dtype=v.dtype)
        xi = xi / xi.flatten(1).norm(dim=1).view((k,) + (1,) * v.dim())
        out[name] = v[None] + radius * xi
    return out


def tanh_rnn_outputs(theta: dict, u: torch.Tensor, x0: torch.Tensor) -> torch.Tensor:
    """Outputs ŷ_1..ŷ_N of the batched tanh RNN. theta tensors (K, ...); u (N, 1); x0 (n,). Returns (K, N)."""
    K = theta["W"].shape[0]
    x = x0.expand(K, -1)
    ys = []
    for t in range(u.shape[0]):
        x = torch.tanh(torch.einsum("kij,kj->ki", theta["W"], x) + theta["U"][:, :, 0] * u[t] + theta["b"])
        ys.append(torch.einsum("kij,kj->ki", theta["C"], x)[:, 0])
    return torch.stack(ys, 1)


def grad_sup(theta_k: dict, y: torch.Tensor, u: torch.Tensor, x0: torch.Tensor, Ns: Sequence[int]) -> np.ndarray:
    """G(N) = max_k ‖∇_θ V_N(θ_k)‖ with V_N = mean_t (ŷ_t − y_t)², for each N in Ns. y (N_max,)."""
    out = []
    for N in Ns:
        th = {k: v.clone().requires_grad_(True) for k, v in theta_k.items()}
        V = ((tanh_rnn_outputs(th, u[:N], x0) - y[:N]) ** 2).mean(1)
        grads = torch.autograd.grad(V.sum(), list(th.values()))
        sq = sum(gr.flatten(1).pow(2).sum(1) for gr in grads)
        out.append(float(sq.sqrt().max()))
    return np.array(out)


def curvature_sup(theta_k: dict, y: torch.Tensor, u: torch.Tensor, x0: torch.Tensor, Ns: Sequence[int],
                  seed: int = 0) -> np.ndarray:
    """H(N) = max_k |d²V_N(θ_k + ε d_k)/dε²| at ε = 0, along one random unit direction d_k per θ_k (double
    autograd); a lower bound on the Lipschitz constant of ∇V_N (Theorem 1(b)). Same arguments as grad_sup."""
    g = torch.Generator().manual_seed(seed)
    d = {k: torch.randn(v.shape, generator=g, dtype=v.dtype) for k, v in theta_k.items()}
    norm = sum(v.flatten(1).pow(2).sum(1) for v in d.values()).sqrt()
    d = {k: v / norm.view((-1,) + (1,) * (v.dim() - 1)) for k, v in d.items()}
    out = []
    for N in Ns:
        eps = torch.zeros(norm.shape[0], dtype=norm.dtype, requires_grad=True)
        th = {k: v + eps.view((-1,) + (1,) * (v.dim() - 1)) * d[k] for k, v in theta_k.items()}
        V = ((tanh_rnn_outputs(th, u[:N], x0) - y[:N]) ** 2).mean(1)
        (g1,) = torch.autograd.grad(V.sum(), eps, create_graph=True)
        (g2,) = torch.autograd.grad(g1.sum(), eps)
        out.append(float(g2.abs().max()))
    return np.array(out)


def tanh_lyapunov(theta: dict, u: torch.Tensor, x0: torch.Tensor, burn: int = 100, seed: int = 0) -> np.ndarray:
    """Largest Lyapunov exponent of x_{t+1} = tanh(W x + U u_t + b) along the input sequence u, per θ_k (K,).

    :func:`rnnrepro.core.lyapunov.largest_lyapunov` driven by u (T, 1), with the analytic tangent
    v' = (1 − x'²) ⊙ W v; the first ``burn`` steps are not averaged.
    """
    W, U, b = theta["W"], theta["U"][:, :, 0], theta["b"]

    def tangent(x, v, u_t):
        x1 = torch.tanh(affine(x, W, b) + (U * u_t)[:, None])
        return x1, (1 - x1 * x1) * affine(v, W)

    x = x0.expand(W.shape[0], 1, -1)
    lam = largest_lyapunov(None, x, u.shape[0] - burn, burn, inputs=u, seed=seed, tangent=tangent)
    return lam[:, 0].numpy()


def jacobian_norms(theta: dict, u: torch.Tensor, x0: torch.Tensor) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along the trajectory of one tanh RNN (θ tensors without K dim): per step the state constant
    ‖∂f/∂x‖₂, the bias block ‖∂f/∂b‖₂ and the joint ‖[∂f/∂x, ∂f/∂(W,U,b)]‖₂. Returns three (N,) arrays."""
    W, U, b = theta["W"], theta["U"], theta["b"]
    x = x0
    Lx, Lb, Lj = [], [], []
    for t in range(u.shape[0]):
        xn = torch.tanh(W @ x + U[:, 0] * u[t] + b)
        D = 1 - xn * xn
        A = D[:, None] * W
        Lx.append(float(torch.linalg.matrix_norm(A, 2)))
        Lb.append(float(D.abs().max()))
        # [A, B][A, B]^T = A A^T + diag(D)^2 (‖x‖² + ‖u‖² + 1): B = ∂f/∂(W, U, b)
        M = A @ A.T + torch.diag(D * D) * (x @ x + u[t, 0] ** 2 + 1)
        Lj.append(float(torch.linalg.eigvalsh(M)[-1].sqrt()))
        x = xn
    return np.array(Lx), np.array(Lb), np.array(Lj)


def rotation_derivative_sups(Ns: Sequence[int], delta_max: float = 0.05, n_grid: int = 20001,
                             chunk: int = 2001) -> tuple[np.ndarray, np.ndarray]:
    """Rotation RNN with ŷ = x, x0 = (1, 0), V_N(δ) = 2 − (2/N) Σ_{t=1}^N cos(tδ) (δ = ω − ω*).

    Returns (G, H): sup over a δ-grid of |V_N'| and |V_N''| for each N in Ns (closed forms
    V' = (2/N) Σ t sin(tδ), V'' = (2/N) Σ t² cos(tδ))."""
    d = np.linspace(-delta_max, delta_max, n_grid)
    G, H = [], []
    for N in Ns:
        t = np.arange(1, N + 1, dtype=float)
        g1 = h1 = 0.0
        for k in range(0, n_grid, chunk):
            td = np.outer(d[k:k + chunk], t)
            g1 = max(g1, np.abs((2 / N) * (np.sin(td) * t).sum(1)).max())
            h1 = max(h1, np.abs((2 / N) * (np.cos(td) * t * t).sum(1)).max())
        G.append(g1)
        H.append(h1)
    return np.array(G), np.array(H)


def rotation_autograd_derivative(omega: float, omega_star: float, N: int) -> tuple[float, float]:
    """dV_N/dω by autograd through a simulated rotation RNN and by the closed form; returns both."""
    w = torch.tensor(omega, dtype=torch.float64, requires_grad=True)
    ws = torch.tensor(omega_star, dtype=torch.float64)
    x = torch.tensor([1.0, 0.0], dtype=torch.float64)
    y = x.clone()
    V = 0.0
    for _ in range(N):
        x = torch.stack([torch.cos(w) * x[0] - torch.sin(w) * x[1], torch.sin(w) * x[0] + torch.cos(w) * x[1]])
        y = torch.stack([torch.cos(ws) * y[0] - torch.sin(ws) * y[1], torch.sin(ws) * y[0] + torch.cos(ws) * y[1]])
        V = V + ((x - y) ** 2).sum()
    V = V / N
    (g,) = torch.autograd.grad(V, w)
    t = np.arange(1, N + 1)
    return float(g), float((2 / N) * (t * np.sin(t * (omega - omega_star))).sum())


def lstm_line_derivatives(s: ArrayLike, Ns: Sequence[int],
                          W0: torch.Tensor | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Chaotic LSTM, V_N(s) = mean_{t≤N} ‖h_t(s·W0) − h_t(W0)‖² (no burn-in).

    Returns (dV (len(Ns), S), d2V (len(Ns), S)): first and second derivatives in s by autograd."""
    W0 = cl.theta_true() if W0 is None else W0
    d1, d2 = [], []
    for N in Ns:
        sv = torch.as_tensor(np.asarray(s, float)).clone().requires_grad_(True)
        y = cl.simulate(W0[None], N)
        V = ((cl.simulate(sv[:, None, None] * W0[None], N) - y) ** 2).sum(2).mean(1)
        (g,) = torch.autograd.grad(V.sum(), sv, create_graph=True)
        (h,) = torch.autograd.grad(g.sum(), sv)
        d1.append(g.detach().numpy())
        d2.append(h.numpy())
    return np.array(d1), np.array(d2)


def lstm_jacobian_sup(s: ArrayLike, n_steps: int = 200) -> float:
    """sup over s and the trajectory from (h0, c0) of ‖∂(h,c)_{t+1}/∂(h,c)_t‖₂ for the chaotic LSTM at s·θ_true.

    The 4x4 Jacobian is assembled from four analytic JVPs (chaotic_lstm.step_tangent)."""
    W = torch.as_tensor(np.asarray(s, float))[:, None, None] * cl.theta_true()[None]
    P = W.shape[0]
    h = torch.full((P, 2), 0.5, dtype=torch.float64)
    c = h.clone()
    eye = torch.eye(4, dtype=torch.float64)
    best = 0.0
    for _ in range(n_steps):
        cols = []
        for k in range(4):
            e = eye[k].expand(P, 4)
            _, _, vh, vc = cl.step_tangent(h, c, e[:, :2], e[:, 2:], W)
            cols.append(torch.cat([vh, vc], 1))
        J = torch.stack(cols, 2)
        best = max(best, float(torch.linalg.matrix_norm(J, 2).max()))
        h, c = cl.step(h, c, W)
    return best





# ---------------------------------------------------------------- expansive linear RNN (Thm. 1(a) attained)

def linear_teacher(n_x: int, norm: float, seed: int = 0) -> dict:
    """A linear RNN x_{t+1} = A x_t + b, ŷ_t = c·x_t whose state constant is known exactly.

    A (n_x, n_x) is symmetric with eigenvalues norm·(1, e_2, ..., e_n), |e_i| ≤ 0.8 (so ‖A‖₂ = ρ(A) = norm and
    the largest Lyapunov exponent is log norm); b (n_x,) and c (n_x,) Gaussian. Returns dict(A, b, c), float64.
    """
    g = torch.Generator().manual_seed(seed)
    Q = torch.linalg.qr(torch.randn(n_x, n_x, generator=g, dtype=torch.float64))[0]
    eig = torch.cat([torch.ones(1, dtype=torch.float64),
                     0.8 * (2 * torch.rand(n_x - 1, generator=g, dtype=torch.float64) - 1)])
    A = norm * (Q * eig) @ Q.T
    A = 0.5 * (A + A.T)
    b = torch.randn(n_x, generator=g, dtype=torch.float64)
    c = torch.randn(n_x, generator=g, dtype=torch.float64) / n_x ** 0.5
    return dict(A=A, b=b, c=c)


def linear_fixed_point(A: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """x* = (I − A)⁻¹ b (n_x,): the teacher's fixed point, the invariant set Theorem 1 asks Ω to contain."""
    return torch.linalg.solve(torch.eye(A.shape[0], dtype=A.dtype) - A, b)


def linear_grad_sup(teacher: dict, b_k: torch.Tensor, Ns: Sequence[int]) -> np.ndarray:
    """G(N) = max_k ‖∇_b V_N(b_k)‖ for the linear RNN, by autograd through the simulation.

    teacher: dict(A (n,n), b (n,), c (n,)); b_k (K, n) student biases (A and c shared). Every run starts at the
    teacher's fixed point x* (so the teacher's outputs are constant, y_t = c·x*); V_N = mean_{t=1..N} (c·x_t − y_t)².
    Returns (len(Ns),).
    """
    A, c = teacher["A"], teacher["c"]
    x_star = linear_fixed_point(A, teacher["b"])
    y = c @ x_star
    out = []
    for N in Ns:
        b = b_k.clone().requires_grad_(True)
        x = x_star.expand_as(b)
        V = 0.0
        for _ in range(N):
            x = x @ A.T + b
            V = V + (x @ c - y) ** 2
        (g,) = torch.autograd.grad((V / N).sum(), b)
        out.append(float(g.norm(dim=1).max()))
    return np.array(out)


def linear_lyapunov(teacher: dict, n_steps: int = 200, burn: int = 50, seed: int = 0) -> float:
    """Largest Lyapunov exponent of x ↦ A x + b on the teacher's fixed point (its invariant set), by
    :func:`rnnrepro.core.lyapunov.largest_lyapunov` with the tangent v ↦ A v. For the symmetric A of
    :func:`linear_teacher` the exact value is log ‖A‖₂ (kept short: the state's round-off grows like ‖A‖₂^t)."""
    A, b = teacher["A"], teacher["b"]

    def tangent(x, v):
        return x @ A.T + b, v @ A.T

    x = linear_fixed_point(A, b).expand(1, 1, -1)
    return float(largest_lyapunov(None, x, n_steps, burn, seed=seed, tangent=tangent)[0, 0])
