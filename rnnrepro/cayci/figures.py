"""The chapter's figures (matplotlib; every axis labelled)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle

from rnnrepro.book.plotting import new_figure


def architecture() -> Figure:
    """Fig. 1 redrawn: the diagonal Elman RNN unrolled over three steps (schematic, no data)."""
    fig, ax = new_figure(1, height=2.4, width=6.0)
    for k, (t, tx) in enumerate((("t−1", "t−2"), ("t", "t−1"), ("t+1", "t"))):
        x = 1.0 + 2.2 * k
        for y, txt, col in ((0.3, f"X[{tx}]", "#dde"), (1.3, f"H[{t}]", "#ded"), (2.3, f"Y[{t}]", "#edd")):
            ax.add_patch(Rectangle((x - 0.45, y - 0.25), 0.9, 0.5, fc=col, ec="k"))
            ax.text(x, y, txt, ha="center", va="center", fontsize=8)
        ax.add_patch(FancyArrowPatch((x, 0.55), (x, 1.05), arrowstyle="->", mutation_scale=10))
        ax.add_patch(FancyArrowPatch((x, 1.55), (x, 2.05), arrowstyle="->", mutation_scale=10))
        ax.text(x + 0.08, 0.8, "U", fontsize=8)
        ax.text(x + 0.08, 1.8, "c/√m", fontsize=8)
        if k < 2:
            ax.add_patch(FancyArrowPatch((x + 0.45, 1.3), (x + 1.75, 1.3), arrowstyle="->", mutation_scale=10))
            ax.text(x + 1.1, 1.38, "diag W", ha="center", fontsize=8)
    ax.set(xlim=(0, 6.4), ylim=(0, 2.7), xlabel="time (unrolled)", ylabel="layer")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    return fig


def memory_functions(T: ArrayLike, curves: dict, mreq_T: ArrayLike, mreq: dict) -> Figure:
    """F1. (a) μ_T vs T per z = σ₁α_m; (b) Theorem 1's required width vs T per α (ε = 0.1)."""
    fig, (a, b) = new_figure(2, height=2.8)
    for z, mu in curves.items():
        a.semilogy(T, mu, label=rf"$\sigma_1 \alpha_m$ = {z:g}")
    a.semilogy(T, T ** 2 * (T + 1) / 2, "k:", label="T²(T+1)/2")
    a.set(xlabel="T", ylabel=r"$\mu_T = \mu_{0,T} \cdot \mu_{1,T}$", title="(a) memory functions (Remark 5)")
    a.legend()
    for al, m in mreq.items():
        b.semilogy(mreq_T, m, label=f"α = {al:g}")
    b.set(xlabel="T", ylabel="m required by (18), ε = 0.1", title="(b) Theorem 1's width")
    b.legend()
    return fig


def lemma1(t: ArrayLike, emp: dict, printed: dict, corrected: dict, *, Tw: ArrayLike, worst: dict, worst_bound: dict,
           perturbed: ArrayLike) -> Figure:
    """F2. (a, b) max_i ‖∂_{Θ_i}H_t‖ with printed and corrected L_t; (c) worst-case input vs σ₁μ₀,t. The legend of
    (a) and (b) sits below the panels (the measured curve runs under any corner of (a))."""
    fig, axes = new_figure(3, height=3.2)
    for ax, key, letter in zip(axes[:2], emp, "ab"):
        ax.semilogy(t, emp[key], "o-", label="measured max")
        ax.semilogy(t, printed[key], "--", label=r"printed $L_t$")
        ax.semilogy(t, corrected[key], "k-", lw=0.8, label=r"corrected $L_t$")
        ax.set(xlabel="t", ylabel=r"$\max_i \|\partial_{\Theta_i} H_t\|$", title=f"({letter}) {key}")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3, fontsize=7)
    c = axes[2]
    for al, g in worst.items():
        c.semilogy(Tw, g, label=f"α = {al:g}")
        c.semilogy(Tw, worst_bound[al], "k:", lw=0.8)
    c.semilogy(Tw, perturbed, "r--", label="α = 1.5, uᵀx = 1e-6")
    c.set(xlabel="t", ylabel=r"$\|\partial_U H_t\|$ (worst case)", title="(c) tanh, worst-case input")
    c.legend(fontsize=7)
    return fig


def calculators(eps: np.ndarray, m1: ArrayLike, tau1: ArrayLike, m2: ArrayLike, tau2: ArrayLike) -> Figure:
    """F10. Required m and τ vs 1/ε: Theorem 1 (projected) and Theorem 2 (plain GD)."""
    fig, ax = new_figure(1, height=2.8, width=5.0)
    ax.loglog(1 / eps, m1, "C0-", label="Thm 1: m")
    ax.loglog(1 / eps, tau1, "C0--", label="Thm 1: τ")
    ax.loglog(1 / eps, m2, "C1-", label="Thm 2: m")
    ax.loglog(1 / eps, tau2, "C1--", label="Thm 2: τ₀")
    ax.set(xlabel="1/ε", ylabel="required m or τ", title="bound calculators")
    ax.legend()
    return fig


def rate_panels(panels: list[dict]) -> Figure:
    """Generic log-log panels: each dict has x, curves {label: y}, optional guides {label: y} (black, dotted, then
    dashed, then dash-dotted), xlabel, ylabel, title.
    Each legend sits below its panel (the curves and guides fill the axes), two columns when panels stand side by
    side; the figure grows by the legend's rows."""
    ncols = 2 if len(panels) > 1 else max(len(p["curves"]) + len(p.get("guides", {})) for p in panels)
    rows = max(-(-(len(p["curves"]) + len(p.get("guides", {}))) // ncols) for p in panels)
    fig, axes = new_figure(len(panels), height=2.8 + 0.2 * rows)
    axes = np.atleast_1d(axes)
    for ax, p in zip(axes, panels):
        for label, y in p["curves"].items():
            ax.loglog(p["x"], y, "o-", label=label)
        for (label, y), style in zip(p.get("guides", {}).items(), ("k:", "k--", "k-.")):
            ax.loglog(p["x"], y, style, lw=0.8, label=label)
        ax.set(xlabel=p["xlabel"], ylabel=p["ylabel"], title=p.get("title", ""))
        if len(p["x"]) <= 5:
            ax.set_xticks(p["x"], [f"{v:g}" for v in p["x"]])
            ax.minorticks_off()
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=ncols)
    return fig


def gradient_quantiles(t: ArrayLike, curves: dict, worst: ArrayLike, *,
                       ylabel: str = r"$\|\partial_{\Theta_i} H_t\|$") -> Figure:
    """F7(b). Gradient magnitudes vs t (one line per label) and the worst-case input (dashed)."""
    fig, ax = new_figure(1, height=2.8, width=5.0)
    for label, q in curves.items():
        ax.semilogy(t, q, label=label)
    ax.semilogy(t, worst, "k--", label="worst case, α = 1.5")
    ax.set(xlabel="t", ylabel=ylabel, title="gradients above and below the cutoff (tanh)")
    ax.legend(fontsize=7)
    return fig
