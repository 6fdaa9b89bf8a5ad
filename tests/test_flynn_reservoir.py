import numpy as np
import pytest

from rnnrepro.core import matrix_measures as mm
from rnnrepro.flynn import reservoir as rs


def test_hierarchy_contracts_for_saturated_readout():
    rng = np.random.default_rng(0)
    v = rng.standard_normal((6, 6))
    np.fill_diagonal(v, 0.0)
    v *= 2.0 / np.linalg.norm(v, 2)
    assert rs.reservoir_rate(v) == pytest.approx(0.5)
    k = rs.coupling_bound(2, 6)
    assert k == pytest.approx(0.25 * np.sqrt(12))
    w = 10 * rng.standard_normal((2, 6))
    assert 0.25 * np.linalg.norm(np.tanh(w)) <= k
    x1 = rng.uniform(0, 1, (3, 2))
    t, X1, X2 = rs.pair_distances(v, rng.standard_normal((6, 2)), rng.standard_normal(2), w,
                                  np.concatenate([x1, x1]), rng.uniform(0, 1, (6, 6)), 10.0, 51)
    r = 0.5 / (2 * k)
    d = np.linalg.norm(X2[:, :3] - X2[:, 3:], axis=2) + r * np.linalg.norm(X1[:, :3] - X1[:, 3:], axis=2)
    assert X1.shape == (51, 6, 2) and mm.envelope_ratio(d, t, 0.25) <= 1 + 1e-6
