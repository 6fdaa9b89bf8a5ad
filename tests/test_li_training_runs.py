"""rnnrepro.li.training_runs (Figs 1 and 4) on small settings."""

import math

import pytest

import matplotlib

matplotlib.use("Agg")

import numpy as np

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.li import figures
from rnnrepro.li import training_runs


def test_fig1_and_fig4_small():
    t = 0.1 * np.arange(50)
    rhos = training_runs.fig1_targets(t, [6.0], 4, 0)
    assert set(rhos) == {"exp_sum", "airy_6"}
    runs = training_runs.fig1_train(rhos, m=4, dt=0.1, steps=30, lr=0.02, seed=0, band=1.1, drop=2.0, min_frac=0.1)
    assert runs["exp_sum"]["loss"].shape == (30,)
    assert not unlabelled_axes(figures.fig1(runs, {}))
    cf = training_runs.fig4_closed_form([4.0], m=3, dt=0.1, horizon=8.0, seed=0,
                                        runs={"gd": ("gd", 0.05, 20), "adam": ("adam", 0.01, 20)})
    sp = training_runs.fig4_sample_paths([4.0], ("linear", "tanh"), m=3, dt=0.2, horizon=8.0, batch=4, steps=20,
                                         lr=0.05, seed=0, window=5, clip=5.0)
    assert not unlabelled_axes(figures.fig4(cf, sp, [4.0]))


def test_undelayed_targets_have_unit_norm_and_decay():
    t = 0.1 * np.arange(200)
    rhos = training_runs.fig1_undelayed_targets(t, [6.0, 10.0])
    assert set(rhos) == {"exp_6", "exp_10"}
    for t0, rho in zip((6.0, 10.0), rhos.values()):
        assert 0.1 * rho @ rho == pytest.approx(1.0)
        assert rho[1] / rho[0] == pytest.approx(math.exp(-0.1 / t0))


def test_sample_paths_train_on_the_target_given():
    """The sample-path runs use ``target(mu)``: the same seed on another target gives another curve, and the
    default is the two-part target."""
    from rnnrepro.li import targets

    kw = dict(m=3, dt=0.2, horizon=8.0, batch=4, steps=10, lr=0.05, seed=0, window=1, clip=5.0)
    default = training_runs.fig4_sample_paths([4.0], ("linear",), **kw)[("linear", 4.0)]
    two = training_runs.fig4_sample_paths([4.0], ("linear",), target=targets.two_part, **kw)[("linear", 4.0)]
    other = training_runs.fig4_sample_paths([4.0], ("linear",), target=lambda mu: targets.exp_tail_control(mu, 1.0),
                                            **kw)[("linear", 4.0)]
    np.testing.assert_array_equal(default, two)
    assert not np.allclose(default, other)
