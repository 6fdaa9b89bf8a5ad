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
