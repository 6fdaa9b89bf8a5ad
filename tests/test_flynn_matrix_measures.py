import numpy as np
import pytest

from rnnrepro.flynn import matrix_measures as mm


def test_closed_forms_match_definition_and_duality():
    A = np.random.default_rng(0).standard_normal((50, 6, 6))
    for o in mm.ORDS:
        assert np.allclose(mm.measure(A, o), mm.measure_by_definition(A, o, 1e-7), atol=1e-5)
    AT = np.swapaxes(A, -1, -2)
    assert np.allclose(mm.measure(AT, 1), mm.measure(A, np.inf), atol=1e-14)
    assert np.allclose(mm.measure(AT, 2), mm.measure(A, 2), atol=1e-14)
    assert mm.dual_ord(1) == np.inf and mm.dual_ord(np.inf) == 1 and mm.dual_ord(2) == 2


def test_measure_of_known_matrix():
    A = np.array([[-2.0, 1.0], [3.0, -1.0]])
    assert mm.measure(A, np.inf) == pytest.approx(2.0)       # row 2: −1 + 3
    assert mm.measure(A, 1) == pytest.approx(1.0)            # column 1: −2 + 3
    assert mm.measure(A, 2) == pytest.approx(np.linalg.eigvalsh((A + A.T) / 2)[-1])
    assert mm.measure(-np.eye(3), 2) == pytest.approx(-1.0)


def test_certified_rate_and_envelopes():
    W = np.array([[0.0, 2.0], [1.0, 0.0]])
    assert mm.certified_rate(W, np.inf, 0.25) == pytest.approx(0.5)
    t = np.linspace(0, 5, 11)
    d = np.exp(-0.3 * t)
    assert mm.envelope_ratio(d, t, 0.3) == pytest.approx(1.0)
    assert mm.envelope_ratio(d, t, 0.5) == pytest.approx(np.exp(0.2 * 5.0))      # largest at the end
    assert mm.envelope_ratio(d, t, 0.2) == pytest.approx(np.exp(-0.1 * 0.5))     # the start is left out
    assert mm.growth(np.array([1.0, 3.0, 0.5])) == pytest.approx(3.0)
    assert mm.growth(np.array([1.0, 0.9, 0.5])) == pytest.approx(0.9)
    assert mm.vector_norm(np.array([3.0, -4.0]), 1) == pytest.approx(7.0)


def test_errors():
    with pytest.raises(ValueError, match="ord"):
        mm.measure(np.eye(2), 3)
    with pytest.raises(ValueError, match="shape"):
        mm.measure(np.ones(3), 2)
    with pytest.raises(ValueError, match="h must"):
        mm.measure_by_definition(np.eye(2), 1, 0.0)
    with pytest.raises(ValueError, match="positive"):
        mm.envelope_ratio(np.zeros(3), np.arange(3.0), 1.0)
