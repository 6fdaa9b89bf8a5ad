"""Lemma 5 / Proposition 5: the paper's bias-free LSTM, its ℓ∞ stability construction and controls.

State s = (h, c) ∈ R^{2d}; input x ∈ R^m. Gates f, i, o = σ(W h + U x), z = tanh(W_z h + U_z x);
c' = i∘z + f∘c, h' = o∘tanh(c'). Weights: dicts of (d, d) matrices W_* and (d, m) matrices U_*.
"""

from __future__ import annotations

import math

import torch

Tensor = torch.Tensor
GATES = ("i", "f", "o", "z")


def inf_norm(A: Tensor) -> Tensor:
    """Induced ℓ∞ norm (largest absolute row sum) of A (..., r, c)."""
    return A.abs().sum(-1).amax(-1)


def _row_normalised(d: int, cols: int, norm: float, gen: torch.Generator) -> Tensor:
    A = torch.randn(d, cols, generator=gen, dtype=torch.float64)
    return A * (norm / A.abs().sum(-1, keepdim=True))


def construct(d: int, m: int, fbar: float, gen: torch.Generator, margin: float = 0.98) -> dict[str, Tensor]:
    """Weights meeting Prop. 5 with forget-gate bound f̄ when ‖x‖∞ ≤ 1 (every row at the norm bound).

    ‖W_i‖∞ = ‖W_o‖∞ = margin(1 − f̄), ‖W_z‖∞ = margin(1 − f̄)/4, ‖W_f‖∞ = margin(1 − f̄)^2, and
    ‖U_f‖∞ = σ^{-1}(f̄) − ‖W_f‖∞, which keeps f ≤ f̄ since ‖h‖∞ ≤ 1. U_i, U_o, U_z are Gaussian.
    """
    if not 0 < fbar < 1:
        raise ValueError(f"fbar must lie in (0, 1), got {fbar}")
    g = 1 - fbar
    w = {"i": margin * g, "o": margin * g, "z": margin * g / 4, "f": margin * g ** 2}
    params = {f"W_{k}": _row_normalised(d, d, v, gen) for k, v in w.items()}
    params["U_f"] = _row_normalised(d, m, math.log(fbar / g) - w["f"], gen)
    for k in ("i", "o", "z"):
        params[f"U_{k}"] = torch.randn(d, m, generator=gen, dtype=torch.float64) / math.sqrt(m)
    return params


def gaussian(d: int, m: int, scale: float, gen: torch.Generator) -> dict[str, Tensor]:
    """Gaussian weights N(0, scale^2/d) for every W_* and U_* (the big-weight control)."""
    return {f"{w}_{k}": scale / math.sqrt(d) * torch.randn(d, d if w == "W" else m, generator=gen,
                                                           dtype=torch.float64)
            for w in ("W", "U") for k in GATES}


def step(params: dict[str, Tensor], h: Tensor, c: Tensor, x: Tensor, forget_bias: float = 0.0):
    """One step; h, c (B, d), x (B, m). Returns (h', c', f) with f the forget gate (B, d)."""
    def pre(k):
        return h @ params[f"W_{k}"].T + x @ params[f"U_{k}"].T
    f = torch.sigmoid(pre("f") + forget_bias)
    c2 = torch.sigmoid(pre("i")) * torch.tanh(pre("z")) + f * c
    return torch.sigmoid(pre("o")) * torch.tanh(c2), c2, f


def lambda_inf(params: dict[str, Tensor], fbar: float) -> float:
    """The proof's one-step ℓ∞ factor κ + f̄, κ = (‖W_i‖ + ‖c‖∞‖W_f‖ + ‖W_o‖)/4 + ‖W_z‖, ‖c‖∞ ≤ 1/(1 − f̄)."""
    n = {k: float(inf_norm(params[f"W_{k}"])) for k in GATES}
    return (n["i"] + n["f"] / (1 - fbar) + n["o"]) / 4 + n["z"] + fbar


def one_step_ratios(params: dict[str, Tensor], h: Tensor, c: Tensor, *, h2: Tensor, c2: Tensor, x: Tensor,
                    forget_bias: float = 0.0) -> Tensor:
    """‖φ(s) − φ(s')‖∞ / ‖s − s'‖∞ per pair (B,) for states s = (h, c), s' = (h2, c2), same input x."""
    a, b, _ = step(params, h, c, x, forget_bias)
    a2, b2, _ = step(params, h2, c2, x, forget_bias)
    num = torch.cat([a - a2, b - b2], -1).abs().amax(-1)
    return num / torch.cat([h - h2, c - c2], -1).abs().amax(-1)


def run(params: dict[str, Tensor], h: Tensor, c: Tensor, xs: Tensor, forget_bias: float = 0.0):
    """Trajectories from (h, c) (B, d) under inputs xs (T, B, m): states (T, B, 2d) and max forget gate."""
    states, fmax = [], 0.0
    for x in xs:
        h, c, f = step(params, h, c, x, forget_bias)
        states.append(torch.cat([h, c], -1))
        fmax = max(fmax, float(f.max()))
    return torch.stack(states), fmax


def iterations_for_l2(lam_inf: float, dim: int) -> int:
    """Smallest r with lam_inf^r · sqrt(dim) < 1 (ℓ∞ contraction of φ^r turned into ℓ2 on R^dim)."""
    if not 0 < lam_inf < 1:
        raise ValueError(f"lam_inf must lie in (0, 1), got {lam_inf}")
    return math.floor(math.log(math.sqrt(dim)) / math.log(1 / lam_inf)) + 1
