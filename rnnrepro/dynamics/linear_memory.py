"""The memory of a linear RNN ``h_t = W h_{t-1} + U x_t``, ``y_t = c^T h_t`` (scalar input and output).

Started from ``h_0 = 0`` the output is a convolution ``y_t = sum_k rho_k x_{t-k}`` with the *memory
kernel* ``rho_k = c^T W^k U``. Its tail decays like ``rho(W)^k`` (spectral radius): a stable linear
RNN forgets exponentially, so a target whose memory decays more slowly (a power law) can only be
followed over a horizon K with a rate close to one.
"""

from __future__ import annotations

import torch

from rnnrepro.core.fits import exponential_rate

Tensor = torch.Tensor


def _check_system(W: Tensor, U: Tensor, c: Tensor) -> int:
    if W.dim() != 3 or W.shape[1] != W.shape[2]:
        raise ValueError(f"W must have shape (P, n, n), got {tuple(W.shape)}")
    P, n = W.shape[:2]
    for name, v in (("U", U), ("c", c)):
        if v.shape != (P, n):
            raise ValueError(f"{name} must have shape (P, n) = {(P, n)}, got {tuple(v.shape)}")
    return n


def memory_kernel(W: Tensor, U: Tensor, c: Tensor, n_lags: int) -> Tensor:
    """``rho_k = c^T W^k U`` for k = 0 … n_lags-1: W (P, n, n), U and c (P, n) -> (P, n_lags)."""
    _check_system(W, U, c)
    if n_lags < 1:
        raise ValueError(f"n_lags must be >= 1, got {n_lags}")
    v, out = U, []
    for _ in range(n_lags):
        out.append((c * v).sum(-1))
        v = (W @ v.unsqueeze(-1)).squeeze(-1)
    return torch.stack(out, dim=-1)


def run(W: Tensor, U: Tensor, c: Tensor, x: Tensor) -> Tensor:
    """Outputs ``y_t = c^T h_t`` of the recurrence from ``h_0 = 0``: x (T, P, B) -> y (T, P, B)."""
    _check_system(W, U, c)
    if x.dim() != 3 or x.shape[1] != W.shape[0]:
        raise ValueError(f"x must have shape (T, P={W.shape[0]}, B), got {tuple(x.shape)}")
    h = torch.zeros(x.shape[1], x.shape[2], W.shape[1], dtype=W.dtype)    # (P, B, n)
    ys = []
    for x_t in x:
        h = h @ W.transpose(1, 2) + x_t.unsqueeze(-1) * U.unsqueeze(1)
        ys.append((h * c.unsqueeze(1)).sum(-1))
    return torch.stack(ys)


def convolve(kernel: Tensor, x: Tensor) -> Tensor:
    """``y_t = sum_{k < t} kernel_k x_{t-k}`` (causal, zero before the start): kernel (P, K ≥ T), x (T, P, B)."""
    T = x.shape[0]
    if kernel.dim() != 2 or kernel.shape[1] < T or x.dim() != 3 or x.shape[1] != kernel.shape[0]:
        raise ValueError(f"need kernel (P, K >= T) and x (T, P, B); got {tuple(kernel.shape)} and {tuple(x.shape)}")
    return torch.stack([torch.einsum("pk,kpb->pb", kernel[:, :t + 1].flip(1), x[:t + 1]) for t in range(T)])


def decay_rate(kernel: Tensor, start: int, stop: int, window: int) -> Tensor:
    """Geometric decay rate of a kernel between two lags: ``(E_stop / E_start)^(1/(stop-start))``.

    ``E_k`` is the root-mean-square of the kernel over lags k … k+window-1 (the window averages out
    the oscillation of complex eigenvalues). kernel (P, K) with K ≥ stop + window -> (P,).
    A kernel ``r^k`` gives exactly r; an all-zero window gives nan.
    """
    if not 0 <= start < stop or window < 1 or kernel.shape[-1] < stop + window:
        raise ValueError(f"need 0 <= start < stop and stop + window <= {kernel.shape[-1]} lags, "
                         f"got start={start}, stop={stop}, window={window}")

    def energy(k: int) -> Tensor:   # scaled before squaring: 0.9^3000 squared would underflow
        part = kernel[..., k:k + window]
        top = part.abs().amax(-1, keepdim=True)
        return top.squeeze(-1) * (part / top).pow(2).mean(-1).sqrt()

    return (energy(stop) / energy(start)) ** (1.0 / (stop - start))


def power_law_kernel(n_lags: int, exponent: float) -> Tensor:
    """The long-memory target ``(1 + k)^(-exponent)``, k = 0 … n_lags-1 (float64)."""
    if n_lags < 2 or exponent <= 0:
        raise ValueError(f"need n_lags >= 2 and exponent > 0, got {n_lags}, {exponent}")
    return (1.0 + torch.arange(n_lags, dtype=torch.float64)) ** (-exponent)


def single_rate_fit(target: Tensor, horizon: int) -> float:
    """Rate λ of the best one-unit linear RNN ``a λ^k`` for a positive kernel over lags 0 … horizon-1.

    Best in relative terms (least squares on log ρ_k, every lag weighted alike): λ = exp(slope).
    """
    if not 2 <= horizon <= target.shape[-1]:
        raise ValueError(f"horizon must lie in [2, {target.shape[-1]}], got {horizon}")
    lags = torch.arange(horizon, dtype=torch.float64)
    return float(torch.exp(torch.tensor(exponential_rate(lags, target[:horizon]).slope)))


def max_state_norm(W: Tensor, U: Tensor, x: Tensor) -> Tensor:
    """``max_t ||h_t||_2`` of ``h_t = W h_{t-1} + U x_t`` from ``h_0 = 0``.

    W (P, n, n), U (P, n), x (T, P, B) -> (P, B)."""
    if W.dim() != 3 or U.shape != W.shape[:2] or x.dim() != 3 or x.shape[1] != W.shape[0]:
        raise ValueError(f"need W (P, n, n), U (P, n) and x (T, P, B); got {tuple(W.shape)}, {tuple(U.shape)} and "
                         f"{tuple(x.shape)}")
    h = torch.zeros(x.shape[1], x.shape[2], W.shape[1], dtype=W.dtype)    # (P, B, n)
    top = torch.zeros(x.shape[1], x.shape[2], dtype=W.dtype)
    for x_t in x:
        h = h @ W.transpose(1, 2) + x_t.unsqueeze(-1) * U.unsqueeze(1)
        top = torch.maximum(top, torch.linalg.vector_norm(h, dim=-1))
    return top
