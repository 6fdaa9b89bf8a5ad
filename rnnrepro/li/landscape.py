"""Landscape of the diagonal loss J_m along coincided critical sets (App. D).

A k-coincided critical point of J_m is built from a minimiser (â, ŵ) of J_k by splitting each
neuron j into a group of neurons with the same rate ŵ_j whose coefficients sum to â_j (Thm D.1).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from collections.abc import Sequence

import numpy as np
from scipy import optimize

from rnnrepro.li import diagonal
from rnnrepro.li.targets import Target


def stirling2(n: int, k: int) -> int:
    """Stirling number of the second kind S(n, k) (exact int)."""
    return sum((-1) ** j * math.comb(k, j) * (k - j) ** n for j in range(k + 1)) // math.factorial(k)


def two_term_ratio(m: int) -> Fraction:
    """[(m−1)!S(m, m−1) + (m−2)!S(m, m−2)] / m! as an exact Fraction (Thm D.2's count ratio)."""
    f = math.factorial
    return Fraction(f(m - 1) * stirling2(m, m - 1) + f(m - 2) * stirling2(m, m - 2), f(m))


def labelled_partitions(m: int, k: int) -> list[tuple[int, ...]]:
    """All surjective maps {0..m−1} → {0..k−1} (tuples): the k!·S(m, k) coincided affine spaces."""
    return [lab for lab in itertools.product(range(k), repeat=m) if len(set(lab)) == k]


def coincided_point(a_hat: np.ndarray, w_hat: np.ndarray, labels: Sequence[int],
                    rng: np.random.Generator) -> np.ndarray:
    """A random point θ (2m,) of the affine space of ``labels`` (m,): w_i = ŵ_{label i} and the a_i of each
    group are random with sum â_j (â, ŵ: (k,))."""
    labels = np.asarray(labels)
    a = np.empty(labels.size)
    for j, aj in enumerate(a_hat):
        idx = np.nonzero(labels == j)[0]
        r = rng.normal(size=idx.size)
        a[idx] = r - r.mean() + aj / idx.size
    return np.concatenate([a, np.asarray(w_hat)[labels]])


def best_single_exponential(target: Target) -> tuple[np.ndarray, np.ndarray]:
    """Minimiser (â, ŵ) of J_1 (arrays of shape (1,)). For fixed w the best a is 2w·M_0(w), and
    J_1 = ‖ρ‖² − 2w·M_0(w)²; we maximise over a log-w grid, then solve the stationarity condition
    M_0(w) = 2w·M_1(w) to machine precision with brentq."""
    lw = np.linspace(-8, 8, 1601)
    w = np.exp(lw)
    val = 2 * w * target.moment(0, w) ** 2
    k = int(np.argmax(val))
    g = lambda x: float(target.moment(0, math.exp(x)) - 2 * math.exp(x) * target.moment(1, math.exp(x)))
    w = math.exp(optimize.brentq(g, lw[max(k - 1, 0)], lw[min(k + 1, lw.size - 1)], xtol=1e-15, rtol=1e-15))
    return np.array([2 * w * float(target.moment(0, w))]), np.array([w])


def line_min_eigenvalue(target: Target, a_hat: float, w_hat: float, s: float) -> float:
    """Smallest Hessian eigenvalue of J_2 at (s·â, (1−s)·â, ŵ, ŵ) (Prop. D.1's critical line) → float."""
    theta = np.array([s * a_hat, (1 - s) * a_hat, w_hat, w_hat], float)
    return float(np.linalg.eigvalsh(diagonal.hessian(theta, target)).min())


def zero_eigenvalues(H: np.ndarray, tol: float) -> int:
    """Number of eigenvalues of the symmetric H (n, n) with |λ| < tol."""
    return int(np.sum(np.abs(np.linalg.eigvalsh(H)) < tol))
