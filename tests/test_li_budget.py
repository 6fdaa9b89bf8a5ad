"""Tests of rnnrepro.li.budget and of the iteration bounds of the li code: a runaway fails, naming itself."""

import numpy as np
import pytest

from rnnrepro.li import approximation as A
from rnnrepro.li import gradient_flow as GF
from rnnrepro.li import momentum, targets
from rnnrepro.li.budget import CountedCalls, RunawayError, passes

THETA0 = np.array([1.0, 0.0, 1.0, 0.5])


def test_passes_yields_the_bound_then_raises_naming_the_loop():
    seen = []
    with pytest.raises(RunawayError, match=r"my loop: no result after 3 iterations"):
        for k in passes(3, "my loop"):
            seen.append(k)
    assert seen == [1, 2, 3]
    assert next(k for k in passes(3, "x") if k == 2) == 2      # a loop that ends in time is untouched


def test_counted_calls_counts_and_raises_past_the_limit():
    f = CountedCalls(lambda x: 2 * x, 2, "doubling")
    assert f(1) == 2 and f(3) == 6 and f.calls == 2
    with pytest.raises(RunawayError, match="doubling: more than 2 evaluations"):
        f(0)


def test_flow_solver_is_bounded_and_names_the_flow():
    tg = targets.two_part(30.0)
    with pytest.raises(RunawayError, match=r"gradient flow \(hitting time τ₀ \(loss.*GaussBump\(mu=30"):
        GF.hitting_time(THETA0, tg, delta=0.01, tmax=1e13, max_rhs=200)
    with pytest.raises(RunawayError, match="distance at"):
        GF.distance_at(THETA0, tg, 1e7, max_rhs=50)
    with pytest.raises(RunawayError, match="loss curve"):
        GF.loss_curve(THETA0, tg, np.logspace(-2, 7, 10), max_rhs=50)
    # the default bound leaves the chapter's longest solve (1/ω = 30, ≈ 4·10³ evaluations) alone
    assert 1e7 < GF.hitting_time(THETA0, tg, delta=0.01, tmax=1e13) < 1e8


def test_a_ten_percent_gradient_error_no_longer_hangs(monkeypatch):
    """The sensitivity run's perturbation (∇J × 1.1) either finishes or fails fast, never hangs."""
    from rnnrepro.li import diagonal

    grad = diagonal.grad
    monkeypatch.setattr(diagonal, "grad", lambda th, tg: 1.1 * grad(th, tg))
    tau = GF.hitting_time(THETA0, targets.two_part(20.0), delta=0.01, tmax=1e13)
    assert np.isfinite(tau)


def test_gd_loops_raise_instead_of_returning_a_sentinel():
    with pytest.raises(RunawayError, match=r"GD hitting steps \(lr = 1e-06"):
        GF.gd_hitting_steps(THETA0, targets.two_part(8.0), 1e-6, max_steps=100)
    assert GF.gd_hitting_steps(THETA0, targets.two_part(6.0), 0.01) > 0
    with pytest.raises(RunawayError, match="heavy-ball escape"):
        momentum.hb_escape_steps(1e-5, 0.5, 0.9, 1e-3, max_steps=100)
    with pytest.raises(RunawayError, match="GD escape"):
        momentum.gd_escape_steps_iterated(1e-5, 0.5, 1e-3, max_steps=100)
    assert momentum.gd_escape_steps_iterated(1e-2, 0.5, 1e-3) == momentum.gd_escape_steps(1e-2, 0.5, 1e-3)


def test_free_rate_bisection_is_bounded_but_finishes(monkeypatch):
    calls = []
    real = A.free_rate_error

    def counted(*args, **kw):
        calls.append(args[1])
        return real(*args, **kw)

    monkeypatch.setattr(A, "free_rate_error", counted)
    m, _ = A.free_rate_width(1.0, 1e-2, A.power_law_metric(1.0), np.linspace(-20, 0, 11))
    assert 2 < m <= 64 and len(calls) <= 1 + 7     # the m_max evaluation, then ≤ ⌈log₂ 64⌉ + 1 halvings
