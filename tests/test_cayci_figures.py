import numpy as np

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.cayci import figures as F


def test_figures_are_labelled():
    x = np.arange(1.0, 5.0)
    figs = [F.architecture(),
            F.memory_functions(x, {0.5: x, 1.0: x ** 3}, x, {0.5: x}),
            F.calculators(1 / x, x, x, x ** 2, x ** 2),
            F.rate_panels([dict(x=x, curves={"a": x}, guides={"g": x}, xlabel="m", ylabel="e")]),
            F.lemma1(x, {"a": x, "b": x}, {"a": x, "b": x}, {"a": x, "b": x}, Tw=x, worst={0.5: x},
                     worst_bound={0.5: x}, perturbed=x)]
    for fig in figs:
        assert unlabelled_axes(fig) == []


def test_gradient_quantiles_figure():
    x = np.arange(1.0, 5.0)
    assert unlabelled_axes(F.gradient_quantiles(x, {"a": x}, x)) == []


def test_panels_are_lettered_in_order_and_no_text_is_below_7pt():
    """Multi-panel figures title each panel "(a) …", "(b) …" in order (the captions name them so), single-panel ones
    carry no letter; the legends of rate_panels sit below their panels; no text is smaller than 7 pt."""
    from matplotlib.text import Text

    x = np.arange(1.0, 5.0)
    panel = lambda title: dict(x=x, curves={"a": x, "b": x}, guides={"g": x}, xlabel="m", ylabel="e", title=title)  # noqa: E731
    multi = [F.memory_functions(x, {0.5: x, 1.0: x ** 3}, x, {0.5: x}),
             F.lemma1(x, {"a": x, "b": x}, {"a": x, "b": x}, {"a": x, "b": x}, Tw=x, worst={0.5: x},
                      worst_bound={0.5: x}, perturbed=x),
             F.rate_panels([panel("(a) one"), panel("(b) two"), panel("(c) three")])]
    single = [F.architecture(), F.calculators(1 / x, x, x, x ** 2, x ** 2), F.gradient_quantiles(x, {"a": x}, x),
              F.rate_panels([panel("Remark 6")])]
    for fig in multi:
        titles = [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.has_data()]
        assert [s[:4] for s in titles] == ["(a) ", "(b) ", "(c) "][:len(titles)] and len(titles) > 1, titles
    for fig in single:
        assert not any(ax.get_title().startswith("(") for ax in fig.axes)
    multi[2].canvas.draw()
    for ax in multi[2].axes:
        legend = ax.get_legend()
        assert legend.get_window_extent().y1 < ax.get_window_extent().y0    # below the axes, not on the data
    for fig in multi + single:
        assert min(t.get_fontsize() for t in fig.findobj(Text) if t.get_text()) >= 7
