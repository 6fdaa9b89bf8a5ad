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
