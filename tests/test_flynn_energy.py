import numpy as np
import pytest

from rnnrepro.flynn.energy import comparison_solution, u_norms
from rnnrepro.flynn.network import example1_problem


def test_u_norms_match_single_evaluation_and_comparison_solution():
    net, w0 = example1_problem(5, 2, 2.0, 0)
    rng = np.random.default_rng(0)
    X, Y = rng.uniform(0, 1, (3, 5)), rng.standard_normal((3, 5))
    U = u_norms(net, X, Y, w0, 1.0, 0.1)
    assert U == pytest.approx([net.u_norm(x, y, w0, 1.0, 0.1) for x, y in zip(X, Y)])
    t = np.linspace(0, 3, 7)
    I = comparison_solution(t, [2.0], 0.5, 0.0, lambda s: 1.0)
    assert I[:, 0] == pytest.approx(2.0 * np.exp(-0.5 * t), rel=1e-8)
    I = comparison_solution(t, [0.0], 0.5, 1.0, lambda s: 1.0)
    assert I[:, 0] == pytest.approx(2.0 * (1 - np.exp(-0.5 * t)), rel=1e-8, abs=1e-12)
