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


def _window_brute(d, t, beta, floor=1e-5):
    """Every pair of samples s < t, looped (the reference for window_envelope_ratio)."""
    best, at = -np.inf, None
    for p in range(d.shape[1]):
        for j in range(1, len(t)):
            for i in range(j):
                if d[i, p] >= floor * d[0, p] and d[j, p] >= floor * d[0, p]:
                    r = d[j, p] * np.exp(beta * (t[j] - t[i])) / d[i, p]
                    if r > best:
                        best, at = r, t[j]
    return best, at


def test_window_envelope_ratio_reads_the_whole_run():
    t = np.linspace(0, 10, 101)
    # fast at first (rate 1), then a late stretch at rate 0.05 < β = 0.1: the max over t of the plain
    # envelope ratio is at the first step, the windowed one sees the slow stretch
    rate = np.where(t < 6, 1.0, 0.05)
    d = np.exp(-np.concatenate([[0.0], np.cumsum(rate[:-1] * np.diff(t))]))
    assert mm.envelope_ratio(d, t, 0.1) < 1
    ratio, at = mm.window_envelope_ratio(d, t, 0.1)
    assert ratio == pytest.approx(np.exp(0.05 * 4.0), rel=1e-9) and at == pytest.approx(10.0)
    assert mm.window_envelope_ratio(np.exp(-0.3 * t), t, 0.3)[0] == pytest.approx(1.0)
    rng = np.random.default_rng(1)
    D = np.exp(np.cumsum(rng.normal(-0.2, 0.1, (101, 3)), axis=0))
    D[0] = 1.0
    got, got_at = mm.window_envelope_ratio(D, t, 0.15)
    ref, ref_at = _window_brute(D, t, 0.15)
    assert got == pytest.approx(ref, rel=1e-12) and got_at == ref_at
    D[60:, 1] = 1e-12                                                # below the floor: left out
    assert mm.window_envelope_ratio(D, t, 0.15)[0] == pytest.approx(_window_brute(D, t, 0.15)[0], rel=1e-12)
    with pytest.raises(ValueError, match="positive"):
        mm.window_envelope_ratio(np.zeros(3), np.arange(3.0), 1.0)
