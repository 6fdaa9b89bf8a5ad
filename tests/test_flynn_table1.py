import numpy as np

from rnnrepro.flynn import table1
from rnnrepro.flynn import trajectories as tj


def test_certified_network_contracts_and_star_expands_in_one_norm():
    W = tj.zero_diagonal_weights(5, np.inf, 3.6, 0)
    bias = np.zeros(5)
    assert table1.sampled_measure_sup(W, bias, np.inf, 200, np.random.default_rng(0)) <= -0.1 + 1e-12
    x0 = np.random.default_rng(1).uniform(-1, 1, (2, 5))
    t, d = table1.pair_distances(tj.table1_net(W), bias[:, None], x0, T=5.0, ords=[np.inf])
    assert np.all(d[np.inf] <= d[np.inf][0] * np.exp(-0.1 * t) * (1 + 1e-6))
    Ws = tj.star_weights(5, 3.6)
    b = np.r_[0.0, np.full(4, -1.8)]
    net = tj.table1_net(Ws)
    xs = net.fixed_point(b[:, None])
    t, d = table1.pair_distances(net, b[:, None], np.stack([xs, xs + 1e-3 * np.eye(5)[0]]), T=5.0, ords=[1, np.inf])
    assert d[1].max() > 1.5 * d[1][0] and d[np.inf].max() <= d[np.inf][0] * (1 + 1e-9)
    t, dy = table1.adjoint_pair_distances(net, b[:, None], xs, y1=np.zeros(5), y2=1e-3 * np.r_[0, 1, 1, 1, 1], T=5.0,
                                           ords=[1])
    assert np.all(dy[1] <= dy[1][0] * np.exp(-0.1 * t) * (1 + 1e-6))


def test_soderlind_ratios_against_a_hand_computed_logistic_network():
    # W = (J − I)·3.6/(n − 1), b = −W1/2: x* = 1/2, u* = 0; along 1 the field is −ε + σ(3.6ε) − 1/2 per node
    import pytest

    n, beta = 4, 0.1
    W = tj.uniform_weights(n, 3.6)
    b = -W @ np.full(n, 0.5)
    net = tj.table1_net(W)
    for eps in (1e-3, 0.3):
        x1, x2 = np.full((1, n), 0.5 + eps), np.full((1, n), 0.5)
        field = -eps + 1 / (1 + np.exp(-3.6 * eps)) - 0.5            # every node alike
        for o in (1, 2, np.inf):
            got = table1.soderlind_ratios(net, b[:, None], x1, x2, beta=beta, ord=o)[0]
            assert got == pytest.approx(beta * eps / abs(field), rel=1e-9)
    # near x* the ratio is 1 − O(ε²): tight, so a β 10 % too large breaks the inequality
    x1, x2 = np.full((1, n), 0.5 + 1e-3), np.full((1, n), 0.5)
    assert 1 - 1e-5 < table1.soderlind_ratios(net, b[:, None], x1, x2, beta=beta, ord=2)[0] <= 1 + 1e-9
    assert table1.soderlind_ratios(net, b[:, None], x1, x2, beta=1.1 * beta, ord=2)[0] > 1.09
    # a pair along e₁ − e₂ (eigenvalue −1 − 3.6/(n − 1)·¼ of D_x f): ratio β/(1 + 0.3)
    d = 1e-4 * np.r_[1.0, -1.0, 0.0, 0.0]
    got = table1.soderlind_ratios(net, b[:, None], (0.5 + d)[None], np.full((1, n), 0.5), beta=beta, ord=2)[0]
    assert got == pytest.approx(beta / (1 + 0.25 * 3.6 / (n - 1)), rel=1e-6)
    with pytest.raises(ValueError, match="beta"):
        table1.soderlind_ratios(net, b[:, None], x1, x2, beta=0.0, ord=2)
    with pytest.raises(ValueError, match="P, n"):
        table1.soderlind_ratios(net, b[:, None], x1, x2[:, :2], beta=beta, ord=2)
