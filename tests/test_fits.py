import math

import numpy as np
import pytest
import torch

from rnnrepro.fits import Fit, exponential_rate, linear_fit, power_law_exponent


def test_linear_fit_exact_and_noisy():
    fit = linear_fit([0, 1, 2, 3], [1, 3, 5, 7])
    assert isinstance(fit, Fit) and fit == pytest.approx((2.0, 1.0, 1.0, 4))
    rng = np.random.default_rng(0)
    x = np.arange(50.0)
    noisy = linear_fit(x, 0.5 * x + rng.normal(size=50))
    assert abs(noisy.slope - 0.5) < 0.05 and 0.8 < noisy.r2 < 1.0
    assert linear_fit([0, 1, 2], [2, 2, 2]).r2 == 1.0  # constant data: perfect fit


def test_exponential_rate():
    N = np.arange(1, 30)
    fit = exponential_rate(N, 3.0 * np.exp(0.7 * N))
    assert fit.slope == pytest.approx(0.7) and fit.intercept == pytest.approx(math.log(3.0))
    assert fit.r2 == pytest.approx(1.0) and fit.n == 29
    t = exponential_rate(torch.arange(1.0, 10.0, dtype=torch.float64), torch.exp(-torch.arange(1.0, 10.0)))
    assert t.slope == pytest.approx(-1.0)


def test_power_law_exponent():
    N = np.array([10, 20, 50, 100, 200])
    fit = power_law_exponent(N, 0.1 * N ** 2.0)
    assert fit.slope == pytest.approx(2.0) and math.exp(fit.intercept) == pytest.approx(0.1)
    assert fit.r2 == pytest.approx(1.0)


@pytest.mark.parametrize("call, match", [
    (lambda: exponential_rate([1, 2], [1, 0]), "y must be positive"),
    (lambda: power_law_exponent([0, 1], [1, 2]), "N must be positive"),
    (lambda: exponential_rate([1, 2, 3], [1, 2]), "same length"),
    (lambda: exponential_rate([1], [1]), "two distinct"),
    (lambda: exponential_rate([1, 1], [1, 2]), "two distinct"),
    (lambda: exponential_rate([[1, 2]], [[1, 2]]), "one-dimensional"),
    (lambda: exponential_rate([1, 2], [1, float("nan")]), "non-finite"),
])
def test_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()
