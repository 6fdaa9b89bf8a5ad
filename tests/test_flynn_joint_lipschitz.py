"""Proposition 6's ‖D_z u‖_Z bound: rnnrepro.flynn.joint_lipschitz against hand-built references
(a numpy field written here, exact rational arithmetic, random directions)."""

from fractions import Fraction

import numpy as np
import pytest

from rnnrepro.flynn import joint_lipschitz as jl
from rnnrepro.flynn.bounds import example1_recipe
from rnnrepro.flynn.network import FixedFeedbackNet


def _u_v0(x, y, b, t):
    """Example 1's joint field at v = 0, written out: f = −x + logistic(b), Aᵀy − ∇g = −y − (x − t)."""
    return np.concatenate([-x + 1 / (1 + np.exp(-b)), -y - (x - t)])


def test_prop6_printed_bound_fails_at_v0_by_finite_differences():
    n, rng = 6, np.random.default_rng(0)
    rho, t = rng.standard_normal(3), rng.uniform(0.2, 0.8, n)
    net = FixedFeedbackNet(np.zeros((n, n)), rho, t)
    w = rng.standard_normal((n, 3))
    x, y = rng.uniform(0, 1, n), rng.standard_normal(n)
    rec = example1_recipe(n, 0.0, 0.25)
    assert rec.beta_x == 1.0 and rec.Lx2f == 0.0 and rec.K == 1.0 and 0 < rec.r < 1
    # our field and its FD Jacobian against the hand-written field's FD Jacobian
    eps, z, b = 1e-6, np.concatenate([x, y]), w @ rho
    J_ref = np.array([(_u_v0(*np.split(z + e, 2), b, t) - _u_v0(*np.split(z - e, 2), b, t)) / (2 * eps)
                      for e in eps * np.eye(2 * n)]).T
    J = jl.fd_joint_jacobian(net, x, y, w)
    assert np.abs(J - J_ref).max() < 1e-9
    assert np.abs(J - np.block([[-np.eye(n), 0 * np.eye(n)], [-np.eye(n), -np.eye(n)]])).max() < 1e-9
    # the direction (e₁, 0) alone: ‖D_z u d‖_Z / ‖d‖_Z = 1 + r
    d = np.r_[1.0, np.zeros(2 * n - 1)]
    img = J @ d
    assert np.linalg.norm(img[:n]) + rec.r * np.linalg.norm(img[n:]) == pytest.approx(1 + rec.r, abs=1e-9)
    lo, hi = jl.z_norm_bounds(J, n, rec.r)
    printed, corrected = jl.prop6_bounds(rec, jl.lx_f(0.0))
    assert printed == 1.0 and corrected == pytest.approx(1 + rec.r)
    assert lo == pytest.approx(1 + rec.r, abs=1e-9) and hi == pytest.approx(1 + rec.r, abs=1e-9)
    assert lo > printed * (1 + 0.1)
    # with the loss's curvature removed (∇g frozen: the term the proof drops) the printed bound holds
    J0 = jl.fd_joint_jacobian(net, x, y, w, grad_g=lambda _x: net.grad_g(x))
    assert jl.z_norm_bounds(J0, n, rec.r)[1] == pytest.approx(1.0, abs=1e-9)


def test_prop6_exact_rational_arithmetic():
    """n = 1, v = 0: D_z u = [[−1, 0], [−1, −1]]; on the Z unit ball's extreme points (1, 0) and (0, 1/r)
    the Z-norm of the image is exactly 1 + r and 1, so ‖D_z u‖_Z = 1 + r > 1 = the printed bound."""
    M = [[-1, 0], [-1, -1]]

    def image(a, b):
        return abs(M[0][0] * a + M[0][1] * b), abs(M[1][0] * a + M[1][1] * b)

    for r in (Fraction(3, 10), Fraction(307, 1000), Fraction(1, 2)):
        norms = [i0 + r * i1 for i0, i1 in (image(1, 0), image(0, 1 / r))]
        assert max(norms) == 1 + r > 1


def test_z_norm_bounds_bracket_random_directions():
    rng = np.random.default_rng(3)
    n, r = 4, 0.3
    M = rng.standard_normal((2 * n, 2 * n))
    lo, hi = jl.z_norm_bounds(M, n, r)
    dirs = rng.standard_normal((20000, 2 * n))
    zn = lambda v: np.linalg.norm(v[..., :n], axis=-1) + r * np.linalg.norm(v[..., n:], axis=-1)  # noqa: E731
    sampled = np.max(zn(dirs @ M.T) / zn(dirs))
    assert sampled <= lo * (1 + 1e-9) and lo <= hi
    with pytest.raises(ValueError, match="2n"):
        jl.z_norm_bounds(M[:3], n, r)


def test_corrected_bound_holds_on_example1():
    from rnnrepro.flynn.network import example1_problem
    net, w0 = example1_problem(8, 3, 2.0, 0)
    rec = example1_recipe(8, 2.0, 0.25)
    rng = np.random.default_rng(5)
    printed, corrected = jl.prop6_bounds(rec, jl.lx_f(2.0))
    for _ in range(5):
        x = rng.uniform(0, 1, 8)
        y = rng.standard_normal(8)
        y *= rng.uniform(0, 1) * rec.Lxg / rec.beta_x / np.linalg.norm(y)
        lo, _ = jl.z_norm_bounds(jl.fd_joint_jacobian(net, x, y, w0), 8, rec.r)
        assert lo <= corrected
