"""The distances ‖W_k − W_65‖₂ between truncated and reference hidden-to-hidden matrices during training,
drawn as paper Fig. 3 (three panels)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from rnnrepro.book.plotting import new_figure

_TINY = 1e-12   # distances of exactly 0 (the first log) drawn at the bottom of the log axis


def weight_distance_panels(f3: dict, ks: list[int], batch: int) -> plt.Figure:
    """Sliding-window sweeps of the tanh RNN and the LSTM (each k, and the round-off floor dotted), and the
    TBPTT variant against training words. ``f3``: the arrays of a shipped ``fig3`` artefact (dist_<cell>
    (n_log, len(ks)), floor_<cell> and update_<cell> (n_log,), tbptt_dist, tbptt_rows); ``batch``: the
    sequences per update (training words = rows × batch). The legend (the k's, shared by the three panels, and
    the floor) sits below the panels, since the curves fill them."""
    fig, axes = new_figure(3, height=3.4)
    colours = [plt.cm.plasma(j / len(ks)) for j in range(len(ks))]
    for ax, c, name in ((axes[0], "rnn", "(a) RNN, sliding window"), (axes[1], "lstm", "(b) LSTM, sliding window")):
        upd = f3[f"update_{c}"][1:]
        for j, k in enumerate(ks):
            ax.semilogy(upd, np.maximum(f3[f"dist_{c}"][1:, j], _TINY), color=colours[j], label=f"k = {k}")
        ax.semilogy(upd, np.maximum(f3[f"floor_{c}"][1:], _TINY), "k:", label="floor")
        ax.set(xlabel="update", ylabel=r"$\|W_k - W_{65}\|_2$", title=name)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=len(ks) + 1, fontsize=7)
    words = f3["tbptt_rows"][1:] * batch
    for j in range(len(ks)):
        axes[2].semilogy(words, np.maximum(f3["tbptt_dist"][1:, j], _TINY), color=colours[j])
    axes[2].set(xlabel="training words", ylabel=r"$\|W_k - W_{65}\|_2$", title="(c) RNN, truncated BPTT")
    return fig
