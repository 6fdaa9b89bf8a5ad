import numpy as np

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.ribeiro import figures


def test_every_figure_has_labelled_axes():
    rng = np.random.default_rng(0)
    s, N = np.linspace(0, 2, 7), [10, 20, 40]
    G = np.array([1.0, 2.0, 4.0])
    bif = {"out": rng.random((7, 3, 2, 6, 2))}
    hist = {"epoch": np.arange(1, 6), "train_acc": rng.random((5, 3)), "val_acc": rng.random((2, 3))}
    lines = {r: {"train": rng.random(7), "val": rng.random(7)} for r in ("good", "bad")}
    ent = {"H": np.array([1.0, 0.5, 0.0, -0.5]), "NlogL": -0.5}
    figs = [figures.attractor(rng.random((50, 2))),
            figures.fig1(s, rng.random((7, 4)), rng.random(7), s_lyap=s, lyapunov=s - 1, lyapunov_printed=s - 1.1,
                         band=(0.5, 1.5)),
            figures.fig7(s, s[:5], rng.random((7, 5)) + 0.1, band=(0.5, 1.5)),
            figures.gradient_growth((N, G), (N, G), (N, G), lyapunov_expansive=0.1),
            figures.hessian_growth(N, dict(g_in=G, h_in=G, g_out=G, h_out=G), s=s, slope_at_100=s, band=(0.5, 1.5),
                                   rotation=(N, G)),
            figures.entropy_figure(np.arange(4), lambda L: 2 * np.log(L), contractive=ent, expansive=ent),
            figures.learning_curves(hist, np.array([1, 5]), seeds=[0, 1, 2], good=1, bad=0, milestones=[2, 4]),
            figures.cost_lines(s, lines, s_zoom=s, zooms=lines, minima=lambda v: v < 0.5),
            figures.steady_states({"good": bif, "bad": bif}, s, inputs=(0, 1, 2), symbols="abc")]
    assert all(unlabelled_axes(f) == [] for f in figs)


def test_drawn_reference_lines_follow_the_data():
    N, G = [10, 20, 40], np.array([1.0, 3.0, 9.0])
    fig = figures.gradient_growth((N, G), (N, G), (N, G), lyapunov_expansive=0.2)
    ref = fig.axes[2].lines[1].get_ydata()                       # G_0 exp(λ (N − N_0))
    assert np.allclose(ref, np.exp(0.2 * np.array([0, 10, 30])))
    fig = figures.entropy_figure(np.arange(4), lambda L: 2 * np.log(L), contractive={"H": np.zeros(4), "NlogL": 0.0},
                                 expansive={"H": np.zeros(4), "NlogL": 0.0})
    exact = fig.axes[0].lines[-1].get_ydata()                    # L = 1.25: H_0 + t log|det|
    assert np.allclose(exact, np.log(4.0) + np.arange(4) * 2 * np.log(1.25))


def test_language_model_figure_puts_updates_on_the_epoch_axis():
    rng = np.random.default_rng(1)
    hist = {"update": list(range(1, 21)), "train_loss": list(rng.random(20)), "epoch": [1, 2, 3, 4],
            "val_loss": list(rng.random(4))}
    fig = figures.language_model(rng.random((5, 2, 3, 4)), np.linspace(0, 1, 5), line=(np.arange(3), rng.random(3)),
                                 zoom=(np.arange(3), rng.random(3)), history=hist)
    assert unlabelled_axes(fig) == []
    x = fig.axes[2].lines[0].get_xdata()
    assert np.isclose(x[-1], 4.0) and np.isclose(x[0], 0.2)       # 20 updates over 4 epochs: 5 per epoch
