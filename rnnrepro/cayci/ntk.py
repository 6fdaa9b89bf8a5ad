"""The recurrent NTK of Prop. 2: finite-width kernels at initialisation and the infinite-width limit κ_T."""

from __future__ import annotations

import torch

from rnnrepro.cayci.elman import Activation, grad_features
from rnnrepro.cayci.transport import qmc_sample


def feature_kernel(X: torch.Tensor, w: torch.Tensor, U: torch.Tensor, act: Activation, *,
                   drop_k0: bool = False) -> torch.Tensor:
    """(1/m) Σ_i ⟨∂_{Θ_i}H_T(X_j), ∂_{Θ_i}H_T(X_k)⟩ at the last time: (..., n, n).

    With c_i² = 1 and the 1/√m readout this is Σ_i ⟨∂_{Θ_i}F_T(X_j), ∂_{Θ_i}F_T(X_k)⟩ (Prop. 2).
    """
    gw, gu = grad_features(X, w, U, act, drop_k0=drop_k0)
    fw, fu = gw[..., -1, :], gu[..., -1, :, :]
    m = w.shape[-1]
    return (torch.einsum("...jm,...km->...jk", fw, fw) + torch.einsum("...jmd,...kmd->...jk", fu, fu)) / m


def limit_kernel(X: torch.Tensor, act: Activation, alpha: float, M: int = 2 ** 12, seed: int = 0, *,
                 drop_k0: bool = False) -> torch.Tensor:
    """κ_T(X_j, X_k) by quasi-Monte Carlo (w₀ enumerated, antithetic Sobol u₀): (n, n).

    ``drop_k0`` gives the kernel as printed in Prop. 2 (sums from k, ℓ = 1).
    """
    w, U = qmc_sample(X.shape[-1], alpha, M, seed)
    return feature_kernel(X, w, U, act, drop_k0=drop_k0)


def kernel_diagonal(X: torch.Tensor, act: Activation, alpha: float, M: int = 2 ** 12, seed: int = 0, *,
                    drop_k0: bool = False,
                    chunk: int = 4) -> float:
    """mean_j κ_T(X_j, X_j): the mean over the n sequences of X (n, T, d) of the limit kernel's diagonal at the
    last time, by :func:`limit_kernel` on ``chunk`` sequences at a time (memory: chunk·T·4M·d floats)."""
    diag = [limit_kernel(X[i:i + chunk], act, alpha, M, seed, drop_k0=drop_k0).diagonal()
            for i in range(0, X.shape[0], chunk)]
    return float(torch.cat(diag).mean())
