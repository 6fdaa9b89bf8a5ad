"""Empirical Lipschitz / contraction estimates of maps ``h -> f(h)``.

``f`` acts row-wise on a batch of points ``(..., M, D) -> (..., M, D')``: row ``m`` of the output
depends only on row ``m`` of the input (true of every step in ``rnnrepro.core.cells`` with x fixed).
"""

from __future__ import annotations

from typing import Callable

import torch

from rnnrepro.core.lyapunov import reverse_jvp

Tensor = torch.Tensor


def _reduce_max(values: Tensor, return_all: bool) -> Tensor:
    return values if return_all else values.amax(dim=-1)


def pairwise_lipschitz(f: Callable[[Tensor], Tensor], x: Tensor, y: Tensor, *,
                       return_all: bool = False) -> Tensor:
    """Max over sampled pairs of ``||f(x) - f(y)|| / ||x - y||`` (Euclidean norms).

    x, y: (..., M, D), pair ``m`` is ``(x[..., m, :], y[..., m, :])``. Returns (...) (the max over
    the M pairs), or all ratios (..., M) with ``return_all``. A lower bound on the Lipschitz constant.
    """
    if x.shape != y.shape or x.dim() < 2:
        raise ValueError(f"x and y must have the same shape (..., M, D), got {tuple(x.shape)} and {tuple(y.shape)}")
    dist = torch.linalg.vector_norm(x - y, dim=-1)
    if bool((dist == 0).any()):
        raise ValueError("some pairs have x == y; the ratio is undefined")
    ratios = torch.linalg.vector_norm(f(x) - f(y), dim=-1) / dist
    return _reduce_max(ratios, return_all)


def jacobians(f: Callable[[Tensor], Tensor], xs: Tensor) -> Tensor:
    """Jacobians of a row-wise map at every point: xs (..., M, D) -> (..., M, D', D).

    Uses D Jacobian-vector products (``reverse_jvp``), each over the whole batch.
    """
    if xs.dim() < 2:
        raise ValueError(f"xs must have shape (..., M, D), got {tuple(xs.shape)}")
    tangent = reverse_jvp(f)
    eye = torch.eye(xs.shape[-1], dtype=xs.dtype, device=xs.device)
    columns = [tangent(xs, eye[j].expand_as(xs))[1] for j in range(xs.shape[-1])]
    return torch.stack(columns, dim=-1)


def jacobian_norm_sup(f: Callable[[Tensor], Tensor], xs: Tensor, *, return_all: bool = False) -> Tensor:
    """Max over sample points of the spectral norm of the Jacobian of ``f``.

    xs: (..., M, D). Returns (...) (max over the M points), or all norms (..., M) with ``return_all``.
    """
    norms = torch.linalg.matrix_norm(jacobians(f, xs), ord=2)
    return _reduce_max(norms, return_all)


def contraction_bound_tanh(W_hh: Tensor) -> Tensor:
    """``||W_hh||_2``: the map ``h -> tanh(W_hh h + u)`` is a contraction (for every u) if it is < 1,
    since ``|tanh'| <= 1``. W_hh (..., H, H) -> (...)."""
    if W_hh.dim() < 2 or W_hh.shape[-1] != W_hh.shape[-2]:
        raise ValueError(f"W_hh must have shape (..., H, H), got {tuple(W_hh.shape)}")
    return torch.linalg.matrix_norm(W_hh, ord=2)


def project_spectral_norm(W: Tensor, radius: float) -> Tensor:
    """Euclidean (Frobenius) projection of W (..., m, n) onto {||W||_2 <= radius}: clip the singular values.

    ``U diag(min(s, radius)) V^T``; the nearest matrix in Frobenius norm with spectral norm at most
    ``radius`` (a convex set, so the map is non-expansive). Returns a tensor of W's shape.
    """
    if not radius > 0:
        raise ValueError(f"radius must be positive, got {radius!r}")
    if W.dim() < 2:
        raise ValueError(f"W must have shape (..., m, n), got {tuple(W.shape)}")
    U, s, Vh = torch.linalg.svd(W, full_matrices=False)
    return (U * s.clamp(max=radius).unsqueeze(-2)) @ Vh


def jacobian_top_singular(f: Callable[[Tensor], Tensor], h: Tensor, *, iters: int = 500, seed: int = 0) -> float:
    """Largest singular value of the Jacobian of ``f`` at one point ``h`` (D,): power iteration on JᵀJ with
    forward- and reverse-mode products (``torch.func.jvp`` / ``vjp``), no SVD. Converges like
    (σ₂/σ₁)^(2·iters); returns ‖J v‖ for the last unit iterate v."""
    from torch.func import jvp, vjp
    v = torch.randn(h.shape, generator=torch.Generator().manual_seed(seed), dtype=h.dtype)
    v = v / v.norm()
    _, pullback = vjp(f, h)
    for _ in range(iters):
        Jv = jvp(f, (h,), (v,))[1]
        w = pullback(Jv)[0]
        v = w / w.norm()
    return float(jvp(f, (h,), (v,))[1].norm())


def feasible_perturbations(P: Tensor, radius: float, *, count: int, step: float, generator: torch.Generator) -> Tensor:
    """``count`` feasible matrices near each P (..., m, n): ``c (P + step·E)`` with E Gaussian of unit Frobenius
    norm and ``c = min(1, radius/‖P + step·E‖₂)``, the rescaling onto {‖·‖₂ ≤ radius} (which needs no SVD and is
    not the clip). Returns (..., count, m, n)."""
    if not (radius > 0 and step > 0 and count >= 1):
        raise ValueError(f"need radius > 0, step > 0 and count >= 1, got {radius!r}, {step!r}, {count!r}")
    E = torch.randn(*P.shape[:-2], count, *P.shape[-2:], generator=generator, dtype=P.dtype)
    Z = P.unsqueeze(-3) + step * E / torch.linalg.matrix_norm(E, keepdim=True)
    return Z * (radius / torch.linalg.matrix_norm(Z, ord=2, keepdim=True)).clamp(max=1)


def projection_inequality(A: Tensor, P: Tensor, Z: Tensor) -> float:
    """Largest cosine ⟨A − P, Z − P⟩ / (‖A − P‖_F ‖Z − P‖_F) over the candidates Z (..., C, m, n) of each
    A, P (..., m, n). P is the Euclidean projection of A onto a convex set that holds every Z only if this
    is ≤ 0 (the variational inequality); a feasible candidate closer to A makes it positive. Candidates equal
    to P are skipped."""
    if P.shape != A.shape or Z.dim() != A.dim() + 1 or Z.shape[-2:] != A.shape[-2:] or Z.shape[:-3] != A.shape[:-2]:
        raise ValueError(f"need A, P of shape (..., m, n) and Z of (..., C, m, n), got {tuple(A.shape)}, "
                         f"{tuple(P.shape)}, {tuple(Z.shape)}")
    R, D = (A - P).unsqueeze(-3), Z - P.unsqueeze(-3)
    dist = torch.linalg.matrix_norm(D)
    if bool((dist == 0).all()):
        raise ValueError("every candidate equals P: the inequality says nothing")
    rnorm = torch.linalg.matrix_norm(R).expand_as(dist)
    cos = (R * D).sum((-2, -1)) / (rnorm * dist).clamp(min=torch.finfo(A.dtype).tiny)
    cos = torch.where(rnorm > 0, cos, torch.zeros_like(cos))          # A in the set: P = A, equality
    return float(torch.where(dist > 0, cos, -torch.inf).max())        # a candidate equal to P is skipped


def unclipped_moves(A: Tensor, radius: float, *, rel: float = 0.05) -> Tensor:
    """Two feasible matrices per A (..., m, n) on which the projection's variational inequality is tight:
    A's singular values below ``radius`` moved by the factors 1 − rel and 1 + rel (capped at ``radius``), those
    at or above it set to ``radius``. Z − Π(A) then lies on the unclipped singular pairs, orthogonal to
    A − Π(A). Returns (..., 2, m, n)."""
    if not (radius > 0 and 0 < rel < 1):
        raise ValueError(f"need radius > 0 and 0 < rel < 1, got {radius!r}, {rel!r}")
    U, s, Vh = torch.linalg.svd(A, full_matrices=False)
    moved = [torch.where(s < radius, (s * f).clamp(max=radius), torch.full_like(s, radius)) for f in (1 - rel, 1 + rel)]
    return torch.stack([(U * m.unsqueeze(-2)) @ Vh for m in moved], dim=-3)
