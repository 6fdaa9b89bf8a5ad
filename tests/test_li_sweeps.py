"""Tests of rnnrepro.li.sweeps and rnnrepro.li.figures on small settings."""

import matplotlib

matplotlib.use("Agg")

import numpy as np

from rnnrepro.li import figures as F
from rnnrepro.li import sweeps as S
from rnnrepro.book.plotting import unlabelled_axes


def test_model_identities_small():
    r = S.model_identities(4, np.random.default_rng(0), n_paths=2000)
    assert 1.7 < r["order_ratio"] < 2.3 and r["shift_gap"] < 1e-12 and r["causal_gap"] == 0
    assert r["sign_ratio"] > 0.99 > r["const_ratio"]


def test_plateau_point_and_escape_small():
    th = np.array([1.0, 0.0, 1.0, 0.5])
    pp = S.plateau_point([4.0, 8.0], th, np.sqrt(np.pi / 2))
    assert pp["bump"]["grad"][1] < pp["bump"]["grad"][0]
    esc = S.escape_times([4.0, 8.0], th, 0.01, np.sqrt(np.pi / 2), 0.5, 1e6)
    assert esc["tau"][1] > esc["tau"][0] and esc["control"][1] < 0.1
    fig = F.plateau_point(pp)
    assert not unlabelled_axes(fig)


def test_appendices_and_figure():
    ad = S.appendix_d(np.random.default_rng(0), n_points=1)
    assert ad["max_grad"] < 1e-10 and ad["n_spaces"] == ad["stirling_count"] == 14
    ae = S.appendix_e([1e-2, 1e-3], 0.5, 1e-3)
    assert abs(ae["exp_gd"] + 1) < 0.05
    assert not unlabelled_axes(F.appendix(ad, ae))


def test_fig1_and_fig4_small():
    t = 0.1 * np.arange(50)
    rhos = S.fig1_targets(t, [6.0], 4, 0)
    assert set(rhos) == {"exp_sum", "airy_6"}
    runs = S.fig1_train(rhos, 4, 0.1, 30, 0.02, 0, 1.1, 2.0, 0.1)
    assert runs["exp_sum"]["loss"].shape == (30,)
    assert not unlabelled_axes(F.fig1(runs, {}))
    cf = S.fig4_closed_form([4.0], 3, 0.1, 8.0, 0, {"gd": ("gd", 0.05, 20), "adam": ("adam", 0.01, 20)})
    sp = S.fig4_sample_paths([4.0], ("linear", "tanh"), 3, 0.2, 8.0, 4, 20, 0.05, 0, 5, clip=5.0)
    assert not unlabelled_axes(F.fig4(cf, sp, [4.0]))


def test_approximation_and_flow_figures_small():
    ms = np.array([2, 4, 8, 12])  # the curse fit uses widths >= 8: two of them
    betas = np.geomspace(0.05, 2, 3)
    dens = S.density(ms, betas)
    assert set(dens) == set(S.DENSITY_TARGETS) and dens["exp_type"]["err"][-1] < dens["exp_type"]["err"][0]
    assert not unlabelled_axes(F.density(ms, dens, {k: v[0] for k, v in S.DENSITY_TARGETS.items()}))
    cur = S.curse([1.0, 0.5], ms, betas, 0.05, 0.05, [1.0, 0.5], np.linspace(-20, 0, 5))
    assert cur["m_eps"][1] > cur["m_eps"][0] and cur["cond13"] > 1e3 >= cur["cond13_exp"]
    assert not unlabelled_axes(F.curse(cur, dens["exp_type"]["err"], ms, 0.05, 12))
    assert not unlabelled_axes(F.curse(cur, dens["exp_type"]["err"], ms, 0.05, 10 ** 6))  # nothing extrapolated
    th = np.array([1.0, 0.0, 1.0, 0.5])
    taus = np.logspace(-2, 2, 5)
    curves = S.flow_curves([4.0, 8.0], th, taus)
    assert curves.shape == (2, 5)
    assert not unlabelled_axes(F.fig2(taus, curves, [4.0, 8.0], np.sqrt(np.pi / 2)))
    esc = S.escape_times([4.0, 6.0, 8.0], th, 0.01, np.sqrt(np.pi / 2), 0.5, 1e6)
    mask = np.array([True, True, True])
    fit = tuple(np.polyfit(esc["mus"], np.log(esc["tau"]), 1))
    assert not unlabelled_axes(F.fig3(esc, fit, fit, mask))
    assert S.gd_vs_flow([6.0], th, 0.01, 0.01) < 0.05
    g, c = S.lemma_c1(np.array([6.0, 8.0]), 1.0)
    assert g[1] < g[0] and c[1] < c[0]
    slope, r2 = S.loglinear([1.0, 2.0, 3.0], np.exp([1.0, 2.0, 3.0]))
    assert abs(slope - 1) < 1e-12 and r2 > 0.999


def test_m0_separation_symmetric_point_stays_on_its_invariant_set():
    pts = S.m0_points(0.5)
    assert set(pts) == {"dead", "coincided", "symmetric"}
    r = S.m0_separation({k: pts[k] for k in ("dead", "symmetric")}, [10.0], 0.01, 0.5, 1e4)
    assert r["dead"]["dist"][0] >= 1 and np.isfinite(r["dead"]["tau"][0])
    assert r["symmetric"]["dist"][0] < 1 and np.isinf(r["symmetric"]["tau"][0])
