"""Appendix B, eq. (12)-(13) and (22): forward sensitivities of the chaotic LSTM vs autograd."""

from __future__ import annotations

from collections.abc import Sequence

import torch

from rnnrepro.ribeiro import chaotic_lstm as cl


def _f(x, w):
    """The LSTM as a 4-D map: x = (h, c) (4,), w (16,) -> (4,)."""
    h, c = cl.step(x[None, :2], x[None, 2:], w.view(1, 8, 2))
    return torch.cat([h, c], 1)[0]


def forward_sensitivity_grad(w: torch.Tensor, N: int, y: torch.Tensor, jacobians_after_step: bool = False
                             ) -> tuple[torch.Tensor, list[torch.Tensor], list[tuple[torch.Tensor, torch.Tensor]]]:
    """∇V by eq. (12)-(13): D_{t+1} = A_t D_t + B_t, J_t = C D_t, ∇V = (1/N) Σ J_tᵀ l'.

    w (16,); y (N, 2) targets for h_1..h_N; l = ‖ŷ − y‖², ŷ_t = h_t = C x_t with C = [I 0].
    ``jacobians_after_step`` evaluates A_t, B_t at x_{t+1} instead of x_t (a deliberate error, used as a
    negative control). Returns (grad (16,), list of J_t (N of (2, 16)), list of (A_t, B_t))."""
    x = torch.tensor([0.5, 0.5, 0.5, 0.5], dtype=w.dtype)
    D = torch.zeros(4, w.numel(), dtype=w.dtype)
    grad = torch.zeros_like(w)
    Js, AB = [], []
    for t in range(N):
        xn = _f(x, w)
        A, B = torch.func.jacrev(_f, argnums=(0, 1))(xn if jacobians_after_step else x, w)
        AB.append((A, B))
        D = A @ D + B
        x = xn
        J = D[:2]
        Js.append(J)
        grad += J.T @ (2 * (x[:2] - y[t]))
    return grad / N, Js, AB


def autograd_grad(w: torch.Tensor, N: int, y: torch.Tensor) -> torch.Tensor:
    """∇V of V = (1/N) Σ ‖h_t − y_t‖² by reverse-mode autograd."""
    w = w.clone().requires_grad_(True)
    x = torch.tensor([0.5, 0.5, 0.5, 0.5], dtype=w.dtype)
    V = 0.0
    for t in range(N):
        x = _f(x, w)
        V = V + ((x[:2] - y[t]) ** 2).sum()
    (g,) = torch.autograd.grad(V / N, w)
    return g


def unrolled_J(AB: Sequence[tuple[torch.Tensor, torch.Tensor]], t: int) -> torch.Tensor:
    """Eq. (22): J_t = C Σ_{ℓ=1}^{t} (Π_{j=1}^{t−ℓ} A_{t−j+1}) B_ℓ (1-based t, F_t = 0, C = [I 0])."""
    total = torch.zeros_like(AB[0][1])
    for ell in range(1, t + 1):
        P = torch.eye(4, dtype=total.dtype)
        for j in range(1, t - ell + 1):
            P = P @ AB[t - j][0]          # A_{t-j+1} is AB[t-j] (0-based list of A_0..A_{N-1})
        total = total + P @ AB[ell - 1][1]
    return total[:2]
