import numpy as np

from rnnrepro.flynn import figures as F
from rnnrepro.book.plotting import unlabelled_axes


def test_figures_have_labelled_axes():
    t = np.linspace(0, 1, 5)
    d = np.exp(-t)
    figs = [F.contraction(t, {1: d, np.inf: d}, 0.1, t, {1: d, np.inf: d}),
            F.descent(t, {"a": (d, d)}, 0.25),
            F.tau_sweep(t + 1, d, 1.5, 0.25, t + 1, d),
            F.perturbed_flows({"a": (t + 1, d, d)})]
    assert all(unlabelled_axes(f) == [] for f in figs)


def test_adjoint_and_joint_and_other_figures_labelled():
    t = np.linspace(0, 1, 5)
    d = np.exp(-t)
    figs = [F.adjoint_and_joint(t, {1: d, np.inf: d}, t_ball=t, y_over_R=np.ones((5, 2)), t_joint=t,
                                 joint_ratio=np.ones((5, 2)), beta_adj=0.1),
            F.squashing(t, {"a": (d, -d)}, -0.1),
            F.squashing(t, {"a": (d, -d)}, -0.1, {"b": (d, d)}),
            F.conservatism(t + 1, d, d),
            F.alpha_tradeoff(t + 1, d, t + 1, d, 1.0, 0.25),
            F.alpha_tradeoff(t + 1, d, t + 1, d),
            F.training_runs(t, {"a": (d, d)}, 0.25, "x")]
    assert all(unlabelled_axes(f) == [] for f in figs)


def _panel_titles(fig):
    return [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.has_data()]


def test_panels_are_lettered_in_order_and_no_text_is_below_7pt():
    """Multi-panel figures title each panel "(a) …", "(b) …" in order (the captions name them so);
    single-panel figures carry no letter; no text is smaller than 7 pt."""
    from matplotlib.text import Text

    t = np.linspace(0, 1, 5)
    d = np.exp(-t)
    many = [F.contraction(t, {1: d, np.inf: d}, 0.1, t, {1: d, np.inf: d}),
            F.descent(t, {"a": (d, d)}, 0.25),
            F.tau_sweep(t + 1, d, 1.5, 0.25, t + 1, d),
            F.perturbed_flows({"a": (t + 1, d, d)}),
            F.adjoint_and_joint(t, {1: d, np.inf: d}, t_ball=t, y_over_R=np.ones((5, 2)), t_joint=t,
                                joint_ratio=np.ones((5, 2)), beta_adj=0.1),
            F.squashing(t, {"a": (d, -d)}, -0.1, {"b": (d, d)}),
            F.training_runs(t, {"a": (d, d)}, 0.25, "x")]
    one = [F.conservatism(t + 1, d, d), F.alpha_tradeoff(t + 1, d, t + 1, d, 1.0, 0.25)]
    for fig in many:
        titles = [s[:4] for s in _panel_titles(fig)]
        assert titles == ["(a) ", "(b) ", "(c) "][:len(titles)] and len(titles) >= 2, titles
    assert len(_panel_titles(many[4])) == 3
    for fig in one:
        assert not any(s.startswith("(") for s in _panel_titles(fig))
    for fig in many + one:
        assert min(x.get_fontsize() for x in fig.findobj(Text) if x.get_text()) >= 7
