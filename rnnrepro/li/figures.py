"""The chapter's figures (book style, labelled axes); each function returns the matplotlib figure."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rnnrepro.book.plotting import new_figure
from rnnrepro.core.fits import Fit

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def density(ms: np.ndarray, d: dict, labels: dict[str, str]) -> Figure:
    """Relative L¹ error vs width for each target (log-log), controls dashed."""
    fig, ax = new_figure(height=3.0, width=4.5)
    for i, (key, r) in enumerate(d.items()):
        ax.loglog(ms, r["err"], "o-", color=f"C{i}", label=f"${labels[key]}$")
        ax.loglog(ms, r["control"], ":", color=f"C{i}")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("width m")
    ax.set_ylabel("relative L¹ error")
    ax.legend(title="target (dotted: β fixed at 2)")
    return fig


def curse(c: dict, exp_err: np.ndarray, ms: np.ndarray, eps: float, m_max: int) -> Figure:
    """(a) uniform-grid error vs m per ω; (b) widths vs 1/ω at the same accuracy ε, widths beyond
    ``m_max`` (extrapolated from the fitted rate) as open markers; (c) smallest free rate vs 1/ω."""
    fig, axs = new_figure(3, height=2.8)
    for i, om in enumerate(c["omegas"]):
        axs[0].loglog(ms, c["err"][i], "o-", label=f"ω = {om:g}")
    axs[0].loglog(ms, exp_err, "k--", label="$e^{-t}/(1+t)$")
    axs[0].set_xscale("log", base=2)
    axs[0].set_xlabel("width m")
    axs[0].set_ylabel("relative L¹ error")
    axs[0].legend()
    axs[0].set_title("(a) paper's construction (rates jβ)")
    mu, m_eps = 1 / c["omegas"], c["m_eps"]
    ext = m_eps > m_max
    axs[1].semilogy(mu, m_eps, "-", color="C0")
    axs[1].semilogy(mu[~ext], m_eps[~ext], "o", color="C0", label="rates jβ (paper)")
    if ext.any():
        axs[1].semilogy(mu[ext], m_eps[ext], "o", mfc="none", color="C0", label=f"rates jβ, extrapolated (> {m_max})")
    axs[1].semilogy(1 / c["free_omegas"], c["m_free"], "s-", color="C1", label="placed rates")
    axs[1].axhline(m_max, color="k", lw=0.5, ls=":")
    axs[1].set_xlabel("memory 1/ω")
    axs[1].set_ylabel(f"width for ε = {eps:g}")
    axs[1].legend(loc="upper left", fontsize="small")
    axs[1].set_title("(b) width for accuracy ε")
    axs[2].semilogy(1 / c["free_omegas"], c["w_min"], "s-", color="C1")
    axs[2].set_xlabel("memory 1/ω")
    axs[2].set_ylabel(r"smallest rate $\min_i w_i$")
    axs[2].set_title("(c) placed rates")
    return fig


def plateau_point(pp: dict) -> Figure:
    """(a) Loss, (b) gradient norm and (c) |small Hessian eigenvalue| at θ₀ vs memory, bump vs contrast."""
    fig, axs = new_figure(3, height=2.6)
    mus = pp["mus"]
    for name, style, lab in (("bump", "o-", "delayed bump (20)"), ("tail", "s--", "exp tail (contrast)")):
        r = pp[name]
        axs[0].plot(mus, r["J"], style, label=lab)
        axs[1].semilogy(mus, r["grad"], style, label=lab)
        axs[2].semilogy(mus, np.abs(r["eig"]).min(axis=1), style, label=lab)
    axs[0].set_ylim(0, 1.5 * pp["bump"]["J"].max())
    for ax, yl, title in zip(axs, ("J(θ₀)", "‖∇J(θ₀)‖", "smallest |Hessian eigenvalue|"),
                             ("(a) loss", "(b) gradient norm", "(c) small Hessian eigenvalue")):
        ax.set_xlabel("memory 1/ω")
        ax.set_ylabel(yl)
        ax.set_title(title)
    axs[0].legend()
    return fig


def fig1(runs: dict, band_spans: dict) -> Figure:
    """GD loss curves; the detected plateaus in ``band_spans`` {name: [(start, end)]} shaded."""
    fig, ax = new_figure(height=3.0, width=5.5)
    for i, (name, r) in enumerate(runs.items()):
        ax.semilogy(r["loss"], color=f"C{i}", label=name.replace("_", " t₀="
                                                                  if name.startswith("airy") else " "))
        for (s, e) in band_spans.get(name, []):
            ax.axvspan(s, e, color=f"C{i}", alpha=0.15)
    ax.set_xlabel("GD step")
    ax.set_ylabel("training loss")
    ax.legend()
    return fig


def fig2(taus: np.ndarray, curves: np.ndarray, mus: np.ndarray, level: float) -> Figure:
    """Gradient-flow loss vs log time for increasing memory."""
    fig, ax = new_figure(height=3.0, width=5.0)
    for i, mu in enumerate(mus):
        ax.semilogx(taus, curves[i], label=f"1/ω = {mu:g}", color=f"C{i}")
    ax.axhline(level, color="k", lw=0.6, ls=":")
    ax.set_xlabel("gradient-flow time τ")
    ax.set_ylabel("loss J")
    ax.legend()
    return fig


def fig3(esc: dict, fit_tau: Fit, fit_sep: Fit, fit_mask: np.ndarray, power_law: np.ndarray | None = None) -> Figure:
    """log escape time vs memory with log-linear fits; the contrast target below; optionally the power
    law through the fitted range's end points (dotted, shape (fit_mask.sum(),))."""
    fig, ax = new_figure(height=3.0, width=7.0)
    mus = esc["mus"]
    ax.semilogy(mus, esc["tau"], "o", label="τ₀(δ): loss drop")
    ax.semilogy(mus, esc["sep"], "s", label=r"$\tau_{\mathrm{sep}}$: parameter separation")
    ax.semilogy(mus, esc["control"], "^", label="contrast: undelayed exp tail")
    for (sl, ic), c in ((fit_tau, "C0"), (fit_sep, "C1")):
        ax.semilogy(mus[fit_mask], np.exp(ic + sl * mus[fit_mask]), "-", color=c, lw=0.8)
    if power_law is not None:
        ax.semilogy(mus[fit_mask], power_law, ":", color="k", lw=0.8, label="power law, same end points")
    ax.set_xlabel("memory 1/ω")
    ax.set_ylabel("escape time")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))  # outside: the fits and the power law fill the axes
    return fig


def fig4(cf: dict, sp: dict, sp_mus: list[float]) -> Figure:
    """(a) closed-form GD, (b) Adam, (c) linear sample paths, (d) tanh sample paths (2 × 2 panels)."""
    fig, axs = new_figure(2, nrows=2, height=2.4)
    axs = axs.ravel()
    for ax, name in zip(axs[:2], ("gd", "adam")):
        for i, (mu, L) in enumerate(cf[name].items()):
            ax.plot(L, color=f"C{i}", label=f"1/ω = {mu:g}")
        ax.set_title({"gd": "(a) full W, GD", "adam": "(b) full W, Adam"}[name])
        ax.set_xlabel("step")
        ax.set_ylabel("loss (run stops at L₀/2)")
        ax.legend()
    for ax, act, tag in zip(axs[2:], ("linear", "tanh"), ("(c)", "(d)")):
        for i, mu in enumerate(sp_mus):
            ax.plot(sp[(act, mu)], color=f"C{i}", label=f"1/ω = {mu:g}")
        ax.set_title(f"{tag} {act}, sample paths, SGD")
        ax.set_xlabel("step")
        ax.set_ylabel("smoothed batch loss")
        ax.legend()
    return fig


def appendix(ad: dict, ae: dict) -> Figure:
    """(a) λ_min along Prop. D.1's critical line, two targets; (b) App. E escape steps vs ε."""
    fig, axs = new_figure(2, height=2.8)
    for name, lab in (("cm", "$e^{-t} + e^{-3t}$"), ("mixed", "$e^{-t} - 0.5e^{-3t}$")):
        axs[0].plot(ad["s"], ad["lines"][name], label=lab)
    axs[0].axvline(0, color="k", lw=0.5)
    axs[0].axvline(1, color="k", lw=0.5)
    axs[0].set_xlabel("s on the line (s·â, (1−s)·â, ŵ, ŵ)")
    axs[0].set_ylabel("smallest Hessian eigenvalue")
    axs[0].set_title("(a) Prop. D.1: the critical line")
    axs[0].legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2)  # below: the curves fill the panel
    for key, lab in (("gd", "GD"), ("hb", "heavy ball β = 0.9"), ("hb_tuned", "heavy ball, tuned β")):
        axs[1].loglog(ae["eps"], ae[key], "o-", label=lab)
    axs[1].set_xlabel("negative curvature ε")
    axs[1].set_ylabel("steps to escape")
    axs[1].set_title("(b) App. E: escape with momentum")
    axs[1].legend()
    return fig
