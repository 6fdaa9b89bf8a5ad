"""The logistic sigmoid, its derivatives and their sup-norm bounds (Section 7 of the paper)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

#: sup|σ| , sup|σ'| and sup|σ''| of the logistic function σ(s) = 1/(1 + e^{−s}).
L_SIGMA = 1.0
L_DSIGMA = 0.25
L_DDSIGMA = math.sqrt(3.0) / 18.0


def sigma(s: ArrayLike) -> np.ndarray:
    """Logistic function, elementwise (overflow-safe)."""
    s = np.asarray(s, dtype=np.float64)
    return 0.5 * (1.0 + np.tanh(0.5 * s))


def dsigma(s: ArrayLike) -> np.ndarray:
    """σ'(s) = σ(s)(1 − σ(s))."""
    p = sigma(s)
    return p * (1.0 - p)


def ddsigma(s: ArrayLike) -> np.ndarray:
    """σ''(s) = σ'(s)(1 − 2σ(s))."""
    p = sigma(s)
    return p * (1.0 - p) * (1.0 - 2.0 * p)
