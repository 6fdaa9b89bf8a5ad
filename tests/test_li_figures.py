"""rnnrepro.li.figures: the panels carry the letters the captions name, in order, and no text is below 7 pt.
(The figures' axis labels are tested beside the helpers that compute their data.)"""

import matplotlib

matplotlib.use("Agg")

import numpy as np
from matplotlib.text import Text

from rnnrepro.li import figures

X = np.linspace(1.0, 4.0, 4)


def _panel_titles(fig):
    return [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.has_data()]


def _smallest_text(fig):
    return min(x.get_fontsize() for x in fig.findobj(Text) if x.get_text())


def _multi_panel():
    ms = np.array([2, 4, 8, 16])
    curse = {"omegas": np.array([1.0, 0.5]), "err": np.array([1 / ms, 2 / ms]), "m_eps": np.array([4.0, 40.0]),
             "free_omegas": np.array([1.0, 0.5]), "m_free": np.array([3, 5]), "w_min": np.array([0.1, 0.01])}
    point = {"mus": X, "bump": {"J": X, "grad": 1 / X, "eig": np.c_[X, -1 / X]},
             "tail": {"J": X, "grad": 2 / X, "eig": np.c_[X, 1 / X]}}
    cf = {"gd": {4.0: X}, "adam": {4.0: X}}
    sp = {("linear", 4.0): X, ("tanh", 4.0): X}
    ad = {"s": X, "lines": {"cm": X, "mixed": -X}}
    ae = {"eps": X, "gd": X, "hb": X, "hb_tuned": X}
    return {"curse": (figures.curse(curse, 1 / ms, ms, 0.05, 12), 3),
            "plateau_point": (figures.plateau_point(point), 3),
            "fig4": (figures.fig4(cf, sp, [4.0]), 4),
            "appendix": (figures.appendix(ad, ae), 2)}


def _single_panel():
    esc = {"mus": X, "tau": np.exp(X), "sep": np.exp(X), "control": X}
    return [figures.density(np.array([2, 4, 8, 16]), {"a": {"err": 1 / X, "control": 2 / X}}, {"a": "e^{-t}"}),
            figures.fig1({"exp_sum": {"loss": 1 / X}, "airy_6": {"loss": 2 / X}}, {"airy_6": [(1, 2)]}),
            figures.fig2(X, np.array([1 / X, 2 / X]), np.array([4.0, 8.0]), 0.5),
            figures.fig3(esc, (1.0, 0.0), (1.0, 0.0), np.array([True, True, False, False]), np.exp(X[:2]))]


def test_multi_panel_figures_letter_their_panels_in_order():
    for name, (fig, n) in _multi_panel().items():
        titles = _panel_titles(fig)
        assert [s[:4] for s in titles] == ["(a) ", "(b) ", "(c) ", "(d) "][:n] and len(titles) == n, (name, titles)


def test_single_panel_figures_carry_no_letter():
    for fig in _single_panel():
        assert not any(s.startswith("(") for s in _panel_titles(fig))


def test_no_text_below_7pt():
    for fig in [f for f, _ in _multi_panel().values()] + _single_panel():
        assert _smallest_text(fig) >= 7
