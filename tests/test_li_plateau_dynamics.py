"""rnnrepro.li.plateau_dynamics on small settings."""

import matplotlib

matplotlib.use("Agg")

import numpy as np

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.li import figures
from rnnrepro.li import plateau_dynamics

LEVEL = np.sqrt(np.pi / 2)
THETA0 = np.array([1.0, 0.0, 1.0, 0.5])


def test_plateau_point_and_escape_small():
    pp = plateau_dynamics.plateau_point([4.0, 8.0], THETA0, LEVEL)
    assert pp["bump"]["grad"][1] < pp["bump"]["grad"][0]
    esc = plateau_dynamics.escape_times([4.0, 8.0], THETA0, delta=0.01, level=LEVEL, delta_theta=0.5, tmax=1e6)
    assert esc["tau"][1] > esc["tau"][0] and esc["control"][1] < 0.1
    assert esc["sep"][1] > esc["sep"][0] and np.all(esc["sep_control"] < 1.0)   # the undelayed target separates at once
    assert not unlabelled_axes(figures.plateau_point(pp))


def test_flow_figures_and_reductions_small():
    taus = np.logspace(-2, 2, 5)
    curves = plateau_dynamics.flow_curves([4.0, 8.0], THETA0, taus)
    assert curves.shape == (2, 5)
    assert not unlabelled_axes(figures.fig2(taus, curves, [4.0, 8.0], LEVEL))
    esc = plateau_dynamics.escape_times([4.0, 6.0, 8.0], THETA0, delta=0.01, level=LEVEL, delta_theta=0.5, tmax=1e6)
    fit = tuple(np.polyfit(esc["mus"], np.log(esc["tau"]), 1))
    assert not unlabelled_axes(figures.fig3(esc, fit, fit, np.array([True, True, True])))
    assert plateau_dynamics.gd_vs_flow([6.0], THETA0, 0.01, 0.01) < 0.05
    g, c = plateau_dynamics.lemma_c1(np.array([6.0, 8.0]), 1.0)
    assert g[1] < g[0] and c[1] < c[0]
    slope, r2 = plateau_dynamics.loglinear([1.0, 2.0, 3.0], np.exp([1.0, 2.0, 3.0]))
    assert abs(slope - 1) < 1e-12 and r2 > 0.999


def test_m0_separation_symmetric_point_stays_on_its_invariant_set():
    pts = plateau_dynamics.m0_points(0.5)
    assert set(pts) == {"dead", "coincided", "symmetric"}
    r = plateau_dynamics.m0_separation({k: pts[k] for k in ("dead", "symmetric")}, [10.0], delta=0.01,
                                       delta_theta=0.5, tmax=1e4)
    assert r["dead"]["dist"][0] >= 1 and np.isfinite(r["dead"]["tau"][0])
    assert r["symmetric"]["dist"][0] < 1 and np.isinf(r["symmetric"]["tau"][0])
