import numpy as np

from rnnrepro.miller.weight_distance_plot import weight_distance_panels


def test_weight_distance_panels_draw_every_k_and_the_floor():
    n, ks = 4, [5, 10]
    f3 = {f"{a}_{c}": v for c in ("rnn", "lstm") for a, v in
          (("dist", np.ones((n, 2))), ("floor", np.full(n, 1e-3)), ("update", np.arange(n) * 10.0))}
    f3.update(tbptt_dist=np.ones((n, 2)), tbptt_rows=np.arange(n, dtype=float))
    fig = weight_distance_panels(f3, ks, batch=20)
    axes = fig.axes
    assert [len(ax.lines) for ax in axes] == [3, 3, 2]
    assert axes[2].lines[0].get_xdata()[-1] == 3 * 20


def test_weight_distance_panels_are_lettered_and_no_text_is_below_7pt():
    """The three panels are titled (a), (b), (c) in the order the captions name them; the shared legend (every k
    and the floor) is a figure legend; no text is smaller than 7 pt."""
    from matplotlib.text import Text

    n, ks = 4, [5, 10]
    f3 = {f"{a}_{c}": v for c in ("rnn", "lstm") for a, v in
          (("dist", np.ones((n, 2))), ("floor", np.full(n, 1e-3)), ("update", np.arange(n) * 10.0))}
    f3.update(tbptt_dist=np.ones((n, 2)), tbptt_rows=np.arange(n, dtype=float))
    fig = weight_distance_panels(f3, ks, batch=20)
    assert [ax.get_title()[:4] for ax in fig.axes] == ["(a) ", "(b) ", "(c) "]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["k = 5", "k = 10", "floor"]
    assert min(x.get_fontsize() for x in fig.findobj(Text) if x.get_text()) >= 7
