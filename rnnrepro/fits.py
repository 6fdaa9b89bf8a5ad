"""Growth-rate fits: exponential (log y vs N) and power law (log y vs log N)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Fit(NamedTuple):
    """Least-squares line ``Y = intercept + slope * X`` in the transformed coordinates."""

    slope: float
    intercept: float
    r2: float
    n: int


def _as_1d(name: str, values) -> np.ndarray:
    if hasattr(values, "detach"):
        values = values.detach().cpu().numpy()
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains non-finite values")
    return arr


def _positive(name: str, arr: np.ndarray) -> np.ndarray:
    if np.any(arr <= 0):
        raise ValueError(f"{name} must be positive to take its logarithm (min {arr.min():.3g})")
    return arr


def linear_fit(X, Y) -> Fit:
    """Least-squares line through (X, Y), 1-D arrays of the same length >= 2, with R^2."""
    X, Y = _as_1d("X", X), _as_1d("Y", Y)
    if X.shape != Y.shape:
        raise ValueError(f"X and Y must have the same length, got {X.size} and {Y.size}")
    if X.size < 2 or np.ptp(X) == 0:
        raise ValueError("need at least two distinct abscissae")
    slope, intercept = np.polyfit(X, Y, 1)
    ss_res = float(np.sum((Y - (intercept + slope * X)) ** 2))
    ss_tot = float(np.sum((Y - Y.mean()) ** 2))
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0
    return Fit(float(slope), float(intercept), float(r2), int(X.size))


def exponential_rate(N, y) -> Fit:
    """Fit ``y ~ exp(intercept + slope * N)``: slope is the rate per unit of N (nats). y > 0."""
    return linear_fit(_as_1d("N", N), np.log(_positive("y", _as_1d("y", y))))


def power_law_exponent(N, y) -> Fit:
    """Fit ``y ~ exp(intercept) * N**slope``. N > 0, y > 0."""
    return linear_fit(np.log(_positive("N", _as_1d("N", N))), np.log(_positive("y", _as_1d("y", y))))
