"""Table 2's entries and Table 3's D²_x f against derivatives written out here (numpy, independent of the
module's formulas) and central differences."""

import numpy as np

from rnnrepro.flynn.network import FixedFeedbackNet
from rnnrepro.flynn.printed_derivatives import fd_dx2, table2_printed, table3_printed_dx2
from rnnrepro.flynn.squashed_network import fd_jacobians, fd_second_derivatives


def _logistic(s):
    return 1 / (1 + np.exp(-s))


def test_table2_entries_match_finite_differences():
    rng = np.random.default_rng(2)
    n, m = 4, 3
    v = rng.standard_normal((n, n))
    np.fill_diagonal(v, 0.0)
    net = FixedFeedbackNet(v, rng.standard_normal(m), rng.uniform(0, 1, n))
    x, w = rng.uniform(0, 1, n), rng.standard_normal((n, m))
    pr = table2_printed(net, x, w)
    _, jw = fd_jacobians(net, x, w)
    dxw, dww = fd_second_derivatives(net, x, w)
    dx2 = fd_dx2(lambda x_: net.f(x_, w), x)
    assert np.abs(jw - pr["dwf"]).max() < 1e-8
    assert np.abs(dxw - pr["dxwf"]).max() < 1e-6 and np.abs(dww - pr["dw2f"]).max() < 1e-6
    assert np.abs(dx2 - pr["dx2f"]).max() < 1e-6
    # one entry by hand: σ''(u_1) v_12 v_13, with σ'' = σ(1 − σ)(1 − 2σ)
    u = v @ x + w @ net.rho
    sg = _logistic(u[1])
    assert np.isclose(pr["dx2f"][1, 2, 3], sg * (1 - sg) * (1 - 2 * sg) * v[1, 2] * v[1, 3], rtol=1e-12)
    # a wrong entry (σ' for σ'') is caught by the differences
    assert np.abs(dx2 - pr["dx2f"] / (1 - 2 * _logistic(u))[:, None, None]).max() > 1e-3


def test_fd_dx2_of_a_quadratic_is_exact():
    A = np.random.default_rng(0).standard_normal((3, 3, 3))
    A = 0.5 * (A + np.swapaxes(A, 1, 2))
    f = lambda x: 0.5 * np.einsum("ijk,j,k->i", A, x, x)  # noqa: E731
    assert np.allclose(fd_dx2(f, np.ones(3)), A, atol=1e-7)
    om, u = np.arange(9.0).reshape(3, 3), np.zeros(3)
    assert np.all(table3_printed_dx2(om, u) == 0.0)           # σ''(0) = 0
