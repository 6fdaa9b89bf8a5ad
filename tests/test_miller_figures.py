import numpy as np
import torch

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.miller import figures


def test_every_figure_has_labelled_axes():
    g = torch.Generator().manual_seed(0)
    r = lambda *shape: torch.rand(*shape, generator=g, dtype=torch.float64) + 0.01
    ks = list(range(1, 8))
    errs = {n: r(7, 3) for n in ("lds", "tanh", "lds_unstable", "tanh_unstable")}
    gaps = {n: r(3, 7) for n in ("literal_lds", "literal_tanh", "orth_lds", "calibrated_tanh")}
    hess = {n: r(3, 4) for n in ("lds_0.5", "lds_0.9", "tanh_0.9", "lds_1.02")}
    runs = {"lds": {"delta": r(6, 3, 3, 2), "twin": r(6, 3, 3)}, "literal": {"delta": r(6, 3, 1, 1)}}
    final = {"lds": r(3, 3, 2), "lds_unstable": r(3, 3, 2), "tanh": r(3, 3, 3)}
    figs = [figures.lemma1_truncation(ks, errs, r(7)),
            figures.gradient_gaps(ks, gaps, 0.9, k0=3),
            figures.hessian_norms([10, 20, 40, 80], hess),
            figures.counterexample_errors(np.arange(1, 6), {2.0: np.random.rand(4, 5), 0.5: np.random.rand(4, 5)},
                                          ks=(1, 5, 10, 20), log10_a=[1.0, 2.0, 4.0]),
            figures.lstm_distances({n: r(9, 2) for n in ("stable", "big", "bias10")}, d0=1.0, lam_inf=0.9),
            figures.weight_gaps(runs, ("1/t", "1/sqrt(t)", "constant"), diameter=2.0, ks=[5, 10], final_gaps=final,
                                tanh_ks=[5, 10, 15], lam=0.9),
            figures.language_model_training(np.random.rand(2, 2, 4), np.random.rand(2, 30), seeds=[0, 1]),
            figures.input_gradient_profiles({"rnn": np.random.rand(3, 6), "lstm": np.random.rand(3, 6)}, np.ones(6))]
    assert all(unlabelled_axes(f) == [] for f in figs)


def test_reference_lines_pass_through_k5_and_d0():
    ks = list(range(1, 8))
    med = torch.tensor([[1.0, 0.5, 0.3, 0.2, 0.1, 0.05, 0.02]], dtype=torch.float64)
    gaps = {n: med for n in ("literal_lds", "literal_tanh", "orth_lds", "calibrated_tanh")}
    ref = figures.gradient_gaps(ks, gaps, 0.8, k0=3).axes[0].lines[-1].get_ydata()
    assert np.isclose(ref[4], 0.1)                                      # kλ^k drawn through the median at k = 5
    assert np.isclose(ref[5] / ref[4], 6 * 0.8 ** 6 / (5 * 0.8 ** 5))
    fig = figures.lstm_distances({n: torch.ones(4, 2) for n in ("stable", "big", "bias10")}, d0=2.0, lam_inf=0.5)
    assert np.allclose(fig.axes[0].lines[-1].get_ydata(), 2.0 * 0.5 ** np.arange(1, 5))


def _all_figures():
    """(multi-panel, single-panel) figures drawn from synthetic inputs."""
    g = torch.Generator().manual_seed(1)
    r = lambda *shape: torch.rand(*shape, generator=g, dtype=torch.float64) + 0.01  # noqa: E731
    ks = list(range(1, 8))
    gaps = {n: r(3, 7) for n in ("literal_lds", "literal_tanh", "orth_lds", "calibrated_tanh")}
    runs = {"lds": {"delta": r(6, 3, 3, 2), "twin": r(6, 3, 3)}, "literal": {"delta": r(6, 3, 1, 1)}}
    final = {"lds": r(3, 3, 2), "lds_unstable": r(3, 3, 2), "tanh": r(3, 3, 3)}
    multi = {"gradient_gaps": (figures.gradient_gaps(ks, gaps, 0.9, k0=3), 3),
             "counterexample_errors": (figures.counterexample_errors(
                 np.arange(1, 6), {2.0: np.random.rand(4, 5), 0.5: np.random.rand(4, 5)}, ks=(1, 5, 10, 20),
                 log10_a=[1.0, 2.0, 4.0]), 2),
             "weight_gaps": (figures.weight_gaps(runs, ("1/t", "1/sqrt(t)", "constant"), diameter=2.0, ks=[5, 10],
                                                 final_gaps=final, tanh_ks=[5, 10, 15], lam=0.9), 2),
             "language_model_training": (figures.language_model_training(np.random.rand(2, 2, 4), np.random.rand(2, 30),
                                                                         seeds=[0, 1]), 2),
             "input_gradient_profiles": (figures.input_gradient_profiles(
                 {"rnn": np.random.rand(3, 6), "lstm": np.random.rand(3, 6)}, np.ones(6)), 2)}
    single = {"lemma1_truncation": figures.lemma1_truncation(
                  ks, {n: r(7, 3) for n in ("lds", "tanh", "lds_unstable", "tanh_unstable")}, r(7)),
              "hessian_norms": figures.hessian_norms(
                  [10, 20, 40, 80], {n: r(3, 4) for n in ("lds_0.5", "lds_0.9", "tanh_0.9", "lds_1.02")}),
              "lstm_distances": figures.lstm_distances({n: r(9, 2) for n in ("stable", "big", "bias10")}, d0=1.0,
                                                       lam_inf=0.9)}
    return multi, single


def test_panels_are_lettered_in_order_and_no_text_is_below_7pt():
    """Multi-panel figures title each panel "(a) …", "(b) …" in order (the captions name them so); single-panel
    figures carry no letter; no text is smaller than 7 pt."""
    from matplotlib.text import Text

    multi, single = _all_figures()
    for name, (fig, n) in multi.items():
        titles = [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.has_data()]
        assert [s[:4] for s in titles] == [f"({c}) " for c in "abcdefgh"[:n]], (name, titles)
    for name, fig in single.items():
        assert not any(ax.get_title().startswith("(") for ax in fig.axes), name
    for name, fig in {**{k: f for k, (f, _) in multi.items()}, **single}.items():
        assert min(x.get_fontsize() for x in fig.findobj(Text) if x.get_text()) >= 7, name


def test_fig1a_panel_c_shows_the_ratio_R_against_both_rivals():
    """Panel (c) draws median [gap/λ^k](k)/[gap/λ^k](k0): a gap exactly k λ^k lies on the k/k0 line, one exactly
    λ^k on the line at 1."""
    ks, lam = list(range(1, 13)), 0.75
    kk = torch.tensor(ks, dtype=torch.float64)
    gaps = {"literal_lds": (lam ** kk).repeat(3, 1), "orth_lds": (kk * lam ** kk).repeat(3, 1),
            "literal_tanh": (lam ** kk).repeat(3, 1), "calibrated_tanh": (lam ** kk).repeat(3, 1)}
    ax = figures.gradient_gaps(ks, gaps, lam, k0=10).axes[2]
    lines = {ln.get_label(): ln.get_ydata() for ln in ax.lines}
    assert np.allclose(lines["LDS as printed"], 1.0)
    assert np.allclose(lines["LDS, W = λQ"], np.array([10, 11, 12]) / 10)
