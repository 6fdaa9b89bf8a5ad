"""The chapter's figures (matplotlib; every axis labelled)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from rnnrepro.book.plotting import new_figure

NAMES = {1: "1-norm", 2: "2-norm", np.inf: "∞-norm"}


def contraction(t: np.ndarray, dists: dict, beta: float, t_star: np.ndarray, star: dict) -> Figure:
    """(a) ‖x₁ − x₂‖_p / ‖·‖(0) per certified norm with e^{−βt}; (b) the star network in ∞ and 1."""
    fig, (a, b) = new_figure(2, height=2.8)
    for o, d in dists.items():
        a.semilogy(t, d / d[0], label=f"W certified in the {NAMES[o]}")
    a.semilogy(t, np.exp(-beta * t), "k--", label=r"$e^{-\beta t}$")
    a.set(xlabel="time t", ylabel="relative distance", title="(a) Table 1 certificates")
    a.legend()
    for o, d in star.items():
        b.plot(t_star, d / d[0], label=NAMES[o])
    b.plot(t_star, np.exp(-beta * t_star), "k--", label=r"$e^{-\beta t}$")
    b.set(xlabel="time t", ylabel="relative distance", title="(b) star network (‖W‖∞ < 4, ‖W‖₁ > 4)")
    b.legend()
    return fig


def descent(t: ArrayLike, curves: dict, alpha: float) -> Figure:
    """Main run: (a) L*(t) per τ; (b) ratio ‖h − h*‖/‖h‖ per τ with the α line."""
    return training_runs(t, curves, alpha, "Example 1")


def tau_sweep(taus: ArrayLike, max_ratio: ArrayLike, tau_star: float, alpha: float, taus_dev: ArrayLike,
              dev: ArrayLike) -> Figure:
    """(a) max-ratio vs τ (log-log) with τ* and α; (b) ‖w_τ(T) − w_gf(T)‖ vs τ."""
    fig, (a, b) = new_figure(2, height=2.8)
    a.loglog(taus, max_ratio, "o-")
    a.axvline(tau_star, color="C3", ls=":", label="τ* (recipe)")
    a.axhline(alpha, color="k", ls="--", label="α")
    a.set(xlabel="τ", ylabel=r"$\max_t \|h - h^*\| / \|h\|$", title="(a) how conservative is τ*")
    a.legend()
    b.loglog(taus_dev, dev, "o-")
    b.set(xlabel="τ", ylabel=r"$\|w_\tau(T) - w_{\mathrm{gf}}(T)\|_F$", title="(b) distance to the exact gradient flow")
    return fig


def perturbed_flows(runs: dict) -> Figure:
    """(a) v(z(t)) and (b) ‖∇v‖ for the Theorem 2 / Corollary 1 runs (label -> (t, v, grad_norm)); the legend
    sits below the panels, since the curves fill both."""
    fig, (a, b) = new_figure(2, height=3.4)
    for label, (t, v, g) in runs.items():
        a.plot(t, v, label=label)
        b.semilogy(t, np.maximum(g, 1e-16), label=label)
    a.set(xlabel="time t", ylabel="v(z(t))", title="(a) objective", xscale="log")
    b.set(xlabel="time t", ylabel="‖∇v(z(t))‖", title="(b) gradient norm", xscale="log")
    fig.legend(*b.get_legend_handles_labels(), loc="outside lower center", ncols=4, fontsize=7)
    return fig


def squashing(t: ArrayLike, curves: dict, bound: float, dashed: dict | None = None) -> Figure:
    """Example 3: (a) loss at equilibrium and (b) ∞-norm certificate along training; label -> (loss, cert).

    ``dashed`` (label -> (loss, cert)), if given, is drawn dashed in the colours of ``curves``, in order.
    """
    fig, (a, b) = new_figure(2, height=2.8)
    for k, (label, (loss, cert)) in enumerate(curves.items()):
        a.semilogy(t, loss, color=f"C{k}", label=label)
        b.plot(t, cert, color=f"C{k}", label=label)
    for k, (label, (loss, cert)) in enumerate((dashed or {}).items()):
        a.semilogy(t, loss, color=f"C{k}", ls="--", label=label)
        b.plot(t, cert, color=f"C{k}", ls="--", label=label)
    b.axhline(0.0, color="k", lw=0.8)
    b.axhline(bound, color="k", ls=":", label=r"$-\beta_x$")
    a.set(xlabel="training time t", ylabel="g(x*(w))", title="(a) loss")
    b.set(xlabel="training time t", ylabel=r"$-1 + L_{\sigma'} \|\omega\|_\infty$", title="(b) ∞-norm certificate")
    a.legend(fontsize=7)
    b.legend(fontsize=7)
    return fig


def conservatism(beta_x: ArrayLike, tau_star: ArrayLike, tau_desc: ArrayLike) -> Figure:
    """τ* (recipe) and the empirical descent threshold τ_desc against β_x (log-log)."""
    fig, ax = new_figure(1, height=2.8, width=4.5)
    ax.loglog(beta_x, tau_star, "o-", label="τ* (recipe)")
    ax.loglog(beta_x, tau_desc, "s-", label="largest τ keeping ratio ≤ α")
    ax.set(xlabel=r"contraction rate $\beta_x = 1 - \|v\|_F/4$", ylabel="τ", title="conservatism of τ*")
    ax.legend()
    return fig


def adjoint_and_joint(t_adj: np.ndarray, d_adj: dict, *, t_ball: ArrayLike, y_over_R: ArrayLike, t_joint: ArrayLike,
                      joint_ratio: ArrayLike, beta_adj: float) -> Figure:
    """Props. 1–3: (a) adjoint distances in the dual (1) and primal (∞) norms; (b) ‖y(t)‖/R; (c) joint distance /
    envelope."""
    fig, (a, b, c) = new_figure(3, height=2.6)
    for o, d in d_adj.items():
        a.plot(t_adj, d / d[0], label=NAMES[o])
    a.plot(t_adj, np.exp(-beta_adj * t_adj), "k--", label=r"$e^{-\beta t}$")
    a.set(xlabel="time t", ylabel="‖y₁ − y₂‖ / ‖·‖(0)", title="(a) Prop. 1: adjoint copies")
    a.legend()
    b.plot(t_ball, y_over_R, color="C0", alpha=0.5)
    b.axhline(1.0, color="k", ls="--")
    b.set(xlabel="time t", ylabel="‖y(t)‖₂ / R", title="(b) Prop. 2: ball of radius R")
    c.plot(t_joint, joint_ratio, color="C2", alpha=0.5)
    c.axhline(1.0, color="k", ls="--")
    c.set(xlabel="time t", ylabel=r"distance / ($e^{-\beta t}$ distance(0))", title="(c) Prop. 3: joint (x, y)")
    return fig


def alpha_tradeoff(alphas: ArrayLike, tau_star: ArrayLike, alphas_emp: ArrayLike, tau_desc: ArrayLike,
                   tau_inv: float | None = None, alpha_inv: float | None = None) -> Figure:
    """τ*(α) (recipe) and the empirical largest τ keeping the descent condition, against α (log-log);
    optionally the bisected invariant threshold at one α."""
    fig, ax = new_figure(1, height=2.8, width=4.5)
    ax.loglog(alphas, tau_star, "o-", label="τ*(α) (recipe)")
    ax.loglog(alphas_emp, tau_desc, "s-", label="largest τ keeping ratio ≤ α")
    if tau_inv is not None:
        ax.loglog([alpha_inv], [tau_inv], "k^", label="largest τ keeping U ≤ cH")
    ax.axvline(0.5, color="k", ls=":", lw=0.8)
    ax.set(xlabel="descent tolerance α", ylabel="τ", title="the α–τ trade-off")
    ax.legend(fontsize=7)
    return fig


def training_runs(t: ArrayLike, curves: dict, alpha: float, title: str) -> Figure:
    """(a) Loss at equilibrium and (b) gradient error of optimisation-system runs; label -> (loss, ratio)."""
    fig, (a, b) = new_figure(2, height=2.8)
    for label, (loss, ratio) in curves.items():
        a.semilogy(t, loss, label=label)
        b.semilogy(t, ratio, label=label)
    b.axhline(alpha, color="k", ls="--", label="α")
    a.set(xlabel="weight time t", ylabel="g(x*(w(t)))", title=f"(a) {title}: loss at the fixed point")
    b.set(xlabel="weight time t", ylabel="‖h − h*‖ / ‖h‖", title=f"(b) {title}: gradient error")
    a.legend(fontsize=7)
    b.legend(fontsize=7)
    return fig
