"""Figures of steady states along θ(s) (paper Figs. 5, 8, 9): one panel per (input, output) pair, the
outputs after the burn-in scattered against s and coloured by initial state."""

from __future__ import annotations

import string

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.book.plotting import new_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def steady_state_panel(ax: Axes, bif: dict, *, k: int, j: int, s: ArrayLike, title: str | None = None,
                       every: int = 3, markersize: float = 1.0) -> None:
    """Scatter output ``j`` under constant input ``k`` of ``bif["out"]`` (P, K, n_ic, L, R) against ``s`` (P,),
    every ``every``-th steady-state step, coloured by initial state."""
    o = np.asarray(bif["out"])[:, k, :, ::every, j]                    # (P, n_ic, L / every)
    ic = np.broadcast_to(np.arange(o.shape[1])[None, :, None], o.shape).ravel()
    ax.scatter(np.broadcast_to(np.asarray(s)[:, None, None], o.shape).ravel(), o.ravel(), c=ic, cmap="tab10",
               vmin=0, vmax=9, s=markersize, alpha=0.5, linewidths=0, rasterized=True)
    ax.set(xlabel="s", ylabel=f"output {j + 1}")
    if title:
        ax.set_title(title)


def steady_state_grid(bif: dict, s: ArrayLike, symbols: Sequence[str], *, inputs: Sequence[int] | None = None,
                      every: int = 6, fontsize: float = 7.0, first_letter: int = 0, markersize: float = 1.0) -> Figure:
    """The inputs ``inputs`` (rows, indices into ``symbols``; all by default) against every output (columns): a
    figure of len(inputs) × R panels titled row by row from the ``first_letter``-th letter ((a), (b), …), all text
    at ``fontsize`` points, markers of area ``markersize``. Returns the figure."""
    K, R = np.asarray(bif["out"]).shape[1], np.asarray(bif["out"]).shape[4]
    rows = list(range(K)) if inputs is None else list(inputs)
    if not rows or not all(0 <= k < K for k in rows):
        raise ValueError(f"inputs must be a non-empty list of indices below {K}, got {inputs!r}")
    fig, axes = new_figure(R, len(rows), height=1.55 if len(rows) > 2 else 1.9, constrained_layout=True,
                           squeeze=False)
    letters = iter(string.ascii_lowercase[first_letter:])
    for i, k in enumerate(rows):
        for j in range(R):
            ax = axes[i, j]
            steady_state_panel(ax, bif, k=k, j=j, s=s, title=f"({next(letters)}) input {symbols[k]}, out {j + 1}",
                               every=every, markersize=markersize)
            ax.grid(False)
            ax.locator_params(nbins=3)
            ax.title.set_fontsize(fontsize)
            ax.tick_params(labelsize=fontsize)
            ax.xaxis.label.set_fontsize(fontsize)
            ax.yaxis.label.set_fontsize(fontsize)
    return fig
