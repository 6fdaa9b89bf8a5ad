import pytest

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
