"""One plotting style for the whole book.

Figures have an explicit white background (readable on the light and the dark theme), a fixed
size family and labelled axes. Chapters call :func:`new_figure` and label every axis.
"""

from __future__ import annotations

import matplotlib.pyplot as plt

#: Width of a full-width figure, in inches; heights are chosen per figure.
FULL_WIDTH = 7.5

STYLE = {
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.4,
    "figure.constrained_layout.use": True,
    "image.cmap": "viridis",
}


def use_book_style() -> None:
    """Apply the book's matplotlib style (idempotent)."""
    plt.rcParams.update(STYLE)


def new_figure(ncols: int = 1, nrows: int = 1, *, height: float = 3.0, width: float = FULL_WIDTH, **kwargs):
    """``plt.subplots`` with the book's sizes: returns ``(fig, axes)`` (axes squeezed as in matplotlib)."""
    use_book_style()
    return plt.subplots(nrows, ncols, figsize=(width, height * nrows), **kwargs)


def unlabelled_axes(fig) -> list[str]:
    """Titles/indices of axes in ``fig`` that lack an x or y label (used by the ledger's checks)."""
    missing = []
    for i, ax in enumerate(fig.get_axes()):
        if ax.get_visible() and ax.has_data() and not (ax.get_xlabel() and ax.get_ylabel()):
            missing.append(ax.get_title() or f"axes {i}")
    return missing
