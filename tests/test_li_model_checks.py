"""rnnrepro.li.model_checks on a small random RNN."""

import numpy as np

from rnnrepro.li import model_checks


def test_model_identities_small():
    r = model_checks.model_identities(4, np.random.default_rng(0), n_paths=2000)
    assert 1.7 < r["order_ratio"] < 2.3 and r["shift_gap"] < 1e-12 and r["causal_gap"] == 0
    assert r["sign_ratio"] > 0.99 > r["const_ratio"]
