"""rnnrepro.li.critical_sets and the appendix figure on small settings."""

import matplotlib

matplotlib.use("Agg")

import numpy as np

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.li import figures
from rnnrepro.li import critical_sets, momentum


def test_appendices_and_figure():
    ad = critical_sets.appendix_d(np.random.default_rng(0), n_points=1)
    assert ad["max_grad"] < 1e-10 and ad["n_spaces"] == ad["stirling_count"] == 14
    ae = momentum.appendix_e([1e-2, 1e-3], 0.5, 1e-3)
    assert abs(ae["exp_gd"] + 1) < 0.05
    assert not unlabelled_axes(figures.appendix(ad, ae))
