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
