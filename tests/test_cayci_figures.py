import numpy as np

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.cayci import figures as F


def test_figures_are_labelled():
    x = np.arange(1.0, 5.0)
    figs = [F.architecture(),
            F.memory_functions(x, {0.5: x, 1.0: x ** 3}, x, {0.5: x}),
            F.calculators(1 / x, x, x, x ** 2, x ** 2),
            F.rate_panels([dict(x=x, curves={"a": x}, guides={"g": x}, xlabel="m", ylabel="e")]),
            F.lemma1(x, {"a": x, "b": x}, {"a": x, "b": x}, {"a": x, "b": x}, Tw=x, worst={0.5: x}, worst_bound={0.5: x},
                     perturbed=x)]
    for fig in figs:
        assert unlabelled_axes(fig) == []


def test_gradient_quantiles_figure():
    x = np.arange(1.0, 5.0)
    assert unlabelled_axes(F.gradient_quantiles(x, {"a": x}, x)) == []
