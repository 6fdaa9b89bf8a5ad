import math

import numpy as np
import pytest
import torch

from rnnrepro.core.fits import Fit, exponential_rate, linear_fit, power_law_exponent


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


def test_secant_slope_ratio_separates_exponential_from_power_laws():
    from rnnrepro.core.fits import secant_slope_ratio
    x = np.arange(8.0, 31.0, 2.0)
    assert secant_slope_ratio(x, 3 * np.exp(0.7 * x), 6) == pytest.approx(1.0)
    assert secant_slope_ratio(x, np.exp(0.01 * x ** 2), 6) > 1.0          # a rising rate
    for k in (1.0, 6.0, 20.0):                                            # any power: the same ratio < 1
        assert secant_slope_ratio(x, x ** k, 6) == pytest.approx(math.log(30 / 24) / math.log(14 / 8))
    assert secant_slope_ratio(x, np.exp(np.sqrt(x)), 6) < 0.7
    assert secant_slope_ratio(x, np.exp(-0.5 * x), 6) == pytest.approx(1.0)  # decay works too
    with pytest.raises(ValueError):
        secant_slope_ratio(x, np.exp(x), 20)
    with pytest.raises(ValueError):
        secant_slope_ratio(x[::-1], np.exp(x), 6)
    with pytest.raises(ValueError):
        secant_slope_ratio(x, -np.exp(x), 6)


def test_exp_vs_power_and_power_law_through():
    from rnnrepro.core.fits import exp_vs_power, power_law_through
    x = np.arange(8.0, 31.0, 2.0)
    assert exp_vs_power(x, np.exp(0.5 * x) * (1 + 0.01 * np.sin(x))) > 10
    poly = power_law_through(x, 8.0, 2.7, 30.0, 1.7e7)
    assert poly[0] == pytest.approx(2.7) and poly[-1] == pytest.approx(1.7e7)
    assert exp_vs_power(x, poly) < 1e-6
    assert exp_vs_power(x, np.exp(0.5 * x)) == math.inf
    with pytest.raises(ValueError):
        exp_vs_power([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError):
        power_law_through(x, 8.0, 1.0, 8.0, 2.0)


def test_linear_fit_against_scipy_linregress_on_noisy_data():
    """Slope, intercept and R^2 against scipy's independent regression (a 10 % error in any term of R^2
    changes it: the data are noisy, R^2 about 0.9)."""
    from scipy.stats import linregress
    rng = np.random.default_rng(1)
    x = np.linspace(0.0, 10.0, 40)
    y = 1.5 - 0.8 * x + 2.0 * rng.normal(size=40)
    fit, ref = linear_fit(x, y), linregress(x, y)
    assert fit.slope == pytest.approx(ref.slope, rel=1e-10)
    assert fit.intercept == pytest.approx(ref.intercept, rel=1e-10)
    assert fit.r2 == pytest.approx(ref.rvalue ** 2, rel=1e-10) and 0.5 < fit.r2 < 0.95


def test_exp_vs_power_is_the_ratio_of_the_two_least_squares_residuals():
    """Against residual sums computed independently (numpy lstsq on [1, x] and [1, log x]) on data that
    neither model fits exactly."""
    from rnnrepro.core.fits import exp_vs_power
    x = np.arange(2.0, 20.0)
    y = np.exp(0.3 * x) * x ** 1.5 * (1 + 0.05 * np.cos(3 * x))
    ly = np.log(y)

    def ssr(X):
        A = np.column_stack([np.ones_like(X), X])
        coef = np.linalg.lstsq(A, ly, rcond=None)[0]
        return float(np.sum((ly - A @ coef) ** 2))

    assert exp_vs_power(x, y) == pytest.approx(ssr(np.log(x)) / ssr(x), rel=1e-8)
