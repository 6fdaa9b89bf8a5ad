import pytest
import mpmath as mp

from rnnrepro.miller import counterexamples as cx


def test_impulse_truncation_error():
    assert cx.impulse_truncation_error(2.0, 2, 5) == [0.0, 0.0, 4.0, 8.0, 16.0]
    with pytest.raises(ValueError):
        cx.impulse_truncation_error(2.0, 0, 5)


def test_eq6_matches_the_recursion_and_a_closed_case():
    for a in (0.3, -0.7, 1.5, 2.0):
        assert abs(cx.grad_eq6(a, 7) / cx.grad_recursion(a, 7) - 1) < 1e-40
    # T = 2: h = a + 1, loss ½ a², derivative a
    assert abs(cx.grad_recursion(0.25, 2) - 0.25) < 1e-40


def test_gradient_descent_diverges_and_projection_stays_in_box():
    its, grads = cx.gradient_descent(1.5, 10, 3)
    logs = cx.log10_abs(its)
    assert logs[3] > 1000 and len(grads) == 3
    its_p, _ = cx.gradient_descent(1.5, 10, 5, box=0.9)
    assert all(abs(float(a)) <= 0.9 for a in its_p[1:])


def _exact_gradient(a, T):
    """d/da ½(1 − h_T)², h_T = 1 + a + … + a^{T−1}, in exact rationals (independent of the module)."""
    from fractions import Fraction
    a = Fraction(a)
    h = sum(a ** j for j in range(T))
    dh = sum(j * a ** (j - 1) for j in range(1, T))
    return (h - 1) * dh


def test_leading_term_in_both_limits_against_exact_rationals():
    """Prop. 4's erratum: at fixed a = 3/2 and large T the gradient over the printed T a^{2T−3} tends to
    a²/(a−1)² = 9 (8.73 at T = 100), which T a^{2T−1}/(a−1)² captures to O(1/T); at fixed T and large a the
    coefficient is T − 1."""
    from fractions import Fraction
    a = Fraction(3, 2)
    for T, printed_ratio in ((10, 6.18), (100, 8.73)):
        g = _exact_gradient(a, T)
        assert float(g / (T * a ** (2 * T - 3))) == pytest.approx(printed_ratio, abs=0.005)
        rel = abs(float(g / (T * a ** (2 * T - 1) / (a - 1) ** 2)) - 1)
        assert rel < 1.1 * float(a / (a - 1)) / T
        assert float(cx.leading_term(1.5, T, "large_T")) == pytest.approx(float(T * a ** (2 * T - 1) / (a - 1) ** 2),
                                                                           rel=1e-14)
    big = Fraction(10 ** 6)
    g = _exact_gradient(big, 10)
    assert abs(float(g / (9 * big ** 17)) - 1) < 3e-6
    assert abs(float(g / (10 * big ** 17)) - 0.9) < 1e-5
    assert float(cx.leading_term(10 ** 6, 10, "large_a") / (9 * mp.mpf(10) ** 102)) == pytest.approx(1, rel=1e-14)
    with pytest.raises(ValueError, match="regime"):
        cx.leading_term(2.0, 10, "large")
