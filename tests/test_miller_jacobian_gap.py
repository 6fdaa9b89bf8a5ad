"""Lemma 2's term (c) on the scalar instance: Jacobians by finite differences, the hypotheses, both bounds."""

import pytest
from mpmath import mp, mpf

from rnnrepro.miller import jacobian_gap as jg


def _run(h, lam, eps, c, steps):
    for _ in range(steps):
        h = jg.phi(h, lam, eps, c)
    return h


def test_jacobian_gaps_match_central_finite_differences():
    lam, eps, c, T, k = mpf("0.25"), mpf("0.01"), mpf(2) / 3, 30, 6
    gaps = jg.jacobian_gaps(lam, eps, c, T, k)
    with mp.workdps(80):
        full, trunc = jg.trajectories(lam, eps, c, T, k)
        d = mpf(10) ** -30
        for t, gap in gaps.items():
            fd_full = (_run(full[t] + d, lam, eps, c, T - t) - _run(full[t] - d, lam, eps, c, T - t)) / (2 * d)
            fd_trunc = (_run(trunc[t] + d, lam, eps, c, T - t) - _run(trunc[t] - d, lam, eps, c, T - t)) / (2 * d)
            assert abs(abs(fd_full - fd_trunc) / gap - 1) < mpf(10) ** -20


def test_instance_meets_the_hypotheses():
    lam, eps, c = 0.25, 0.01, 2 / 3
    with mp.workdps(30):
        assert abs(jg.phi(mpf(0), lam, eps, c, x=0)) < mpf(10) ** -25          # φ(0, 0) = 0
        grid = [mpf(-50) + mpf(i) / 10 for i in range(1001)]                  # h in [-50, 50]
        assert max(abs(jg.dphi(h, lam, eps, c)) for h in grid) <= lam        # λ-contractive everywhere
        second = [abs(mp.diff(lambda v: jg.phi(v, lam, eps, c), h, 2)) for h in grid[::10] + [mpf(c)]]
        assert max(second) <= jg.beta_hh(lam, eps) * (1 + mpf(10) ** -15)   # |φ''| <= β_hh
        assert abs(second[-1] / jg.beta_hh(lam, eps) - 1) < 1e-12            # attained at h = c


@pytest.mark.parametrize("lam", [0.25, 0.5, 0.75, 0.9])
@pytest.mark.parametrize("k", [2, 5, 12])
def test_corrected_bound_holds(lam, k):
    assert jg.term_c_ratios(lam, 0.01, T=40, k=k)[1] <= 1


def test_printed_bound_fails_by_nearly_one_over_lambda():
    printed, corrected = jg.term_c_ratios(0.25, 0.01, T=60, k=5)
    assert printed > 2.5 and corrected > 0.6                                  # the printed λ^k is exceeded
    assert printed / corrected == pytest.approx(4.0, rel=1e-12)               # the bounds differ by 1/λ


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="eps"):
        jg.jacobian_gaps(0.5, 2.0, 1.0, 10, 3)
    with pytest.raises(ValueError, match="k < T"):
        jg.jacobian_gaps(0.5, 0.1, 1.0, 10, 10)


# Term (b) on the scalar LDS h_t = a h_{t-1} + x_t (w = a), in exact rationals.

def test_lds_weight_partial_matches_a_central_difference_with_the_state_held():
    from fractions import Fraction as F
    h, a, d = F(7, 3), F(3, 4), F(1, 10 ** 9)
    fd = (jg.lds_phi(h, a + d) - jg.lds_phi(h, a - d)) / (2 * d)              # h held constant
    assert fd == jg.lds_dphi_dw(h, a) == h                                    # exact: φ is linear in a


@pytest.mark.parametrize("lam", ["1/4", "3/4", "9/10"])
@pytest.mark.parametrize("k", [1, 5, 12])
def test_term_b_sum_equals_its_closed_form(lam, k):
    # |h_{t-1} - h^k_{t-1}| = a^{t-1-(T-k)} h_{T-k} and |∂h_T/∂h_t| = a^{T-t}: the sum is k a^{k-1} h_{T-k},
    # with h_{T-k} = (1 - a^{T-k})/(1 - a); an off-by-one in t or a dropped term changes it
    from fractions import Fraction as F
    a, T = F(lam), 40
    assert jg.term_b_sum(a, T, k) == k * a ** (k - 1) * (1 - a ** (T - k)) / (1 - a)


def test_term_b_exceeds_the_printed_bound_by_one_over_lambda():
    from fractions import Fraction as F
    printed, corrected = jg.term_b_ratios(F(3, 4), T=60, k=5)
    assert printed == pytest.approx(4 / 3, rel=1e-6) and printed > 1.33    # the paper's own λ = 0.75
    assert corrected <= 1 and corrected == pytest.approx(1, rel=1e-6)
    assert jg.term_b_ratios(F(1, 4), T=60, k=5)[0] == pytest.approx(4.0, rel=1e-12)
    with pytest.raises(ValueError, match="lam"):
        jg.term_b_sum(1, 10, 3)
    with pytest.raises(ValueError, match="k < T"):
        jg.term_b_sum(F(1, 2), 10, 10)
