"""Growth-rate fits: exponential (log y vs N) and power law (log y vs log N), and tests that tell them apart."""

from __future__ import annotations

import math
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


# ---------------------------------------------------------------- telling exponential from power-law growth


def secant_slope_ratio(x, y, span) -> float:
    """Slope of log y over the last ``span`` of x divided by its slope over the first ``span``.

    x increasing (n,), y > 0 (n,); the secants join the end points to the data points nearest
    ``x[0] + span`` and ``x[-1] - span``. An exponential gives 1 (a rate that rises, more); any power
    law y = C·x^k (k ≠ 0) gives log(x_n/(x_n − span)) / log((x_0 + span)/x_0) < 1, whatever k, and so
    does e^{√x}. Needs 2·span ≤ x[-1] − x[0] so that the two secants do not overlap.
    """
    x, ly = _as_1d("x", x), np.log(_positive("y", _as_1d("y", y)))
    if x.size != ly.size or x.size < 3 or np.any(np.diff(x) <= 0):
        raise ValueError("x must be increasing, of the same length as y, with at least 3 points")
    if not 0 < 2 * span <= x[-1] - x[0]:
        raise ValueError(f"span must be positive and at most half of the range ({x[-1] - x[0]:g}), got {span!r}")
    i = int(np.argmin(np.abs(x - (x[0] + span))))
    j = int(np.argmin(np.abs(x - (x[-1] - span))))
    first = (ly[i] - ly[0]) / (x[i] - x[0])
    last = (ly[-1] - ly[j]) / (x[-1] - x[j])
    if first == 0:
        raise ValueError("y does not change over the first span")
    return float(last / first)


def exp_vs_power(x, y) -> float:
    """Residual ratio SSR(log-log fit) / SSR(log-linear fit) of log y, x > 0, y > 0 (1-D, same length ≥ 3).

    > 1: y is better described by an exponential in x than by a power of x; < 1: the reverse.
    Returns inf when the log-linear fit is exact and 0 when the log-log fit is exact.
    """
    x, y = _as_1d("x", x), _as_1d("y", y)
    if x.size < 3:
        raise ValueError("need at least 3 points to compare two-parameter models")
    ly = np.log(_positive("y", y))
    ss = float(np.sum((ly - ly.mean()) ** 2))
    e, p = exponential_rate(x, y), power_law_exponent(x, y)
    ssr_e, ssr_p = (1 - e.r2) * ss, (1 - p.r2) * ss
    tiny = 1e-14 * max(ss, 1e-300)
    if ssr_e <= tiny:
        return math.inf if ssr_p > tiny else 1.0
    return float(max(ssr_p, 0.0) / ssr_e)


def power_law_through(x, x0, y0, x1, y1) -> np.ndarray:
    """The power law C·x^k through (x0, y0) and (x1, y1) (all positive, x0 ≠ x1), evaluated at x (n,)."""
    if min(x0, y0, x1, y1) <= 0 or x0 == x1:
        raise ValueError("power_law_through needs positive points with x0 != x1")
    k = math.log(y1 / y0) / math.log(x1 / x0)
    return y0 * (_positive("x", _as_1d("x", x)) / x0) ** k
