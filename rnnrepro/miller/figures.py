"""The miller chapter's figures (matplotlib; every axis labelled). Each function draws arrays the chapter
computed and returns the figure; the chapter saves it with ``ledger.figure``. Paper Fig. 3's panels are in
:mod:`rnnrepro.miller.weight_distance_plot`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import torch
from matplotlib.figure import Figure

from rnnrepro.book.plotting import FULL_WIDTH, new_figure, use_book_style


def _positive(x) -> np.ndarray:
    """x with its non-positive entries as NaN (not drawn on a log axis)."""
    x = np.asarray(x, dtype=float)
    return np.where(x > 0, x, np.nan)


def lemma1_truncation(ks: Sequence[int], errors: Mapping[str, torch.Tensor], bound: torch.Tensor) -> Figure:
    """Lemma 1: the median over instances of sup_t ‖h_t − h_t^k‖ against k for the systems ``lds``, ``tanh``,
    ``lds_unstable`` and ``tanh_unstable`` (each (K, n)), with the bound (K,). The legend sits outside the axes:
    the curves reach every corner."""
    fig, ax = new_figure(1, height=3.0, width=6.5)
    for name, style in (("lds", "C0-"), ("tanh", "C1-"), ("lds_unstable", "C3:"), ("tanh_unstable", "C4:")):
        ax.semilogy(ks, errors[name].median(dim=1).values, style, label=name.replace("_", ", "))
    ax.semilogy(ks, bound, "k--", label=r"bound $\lambda^k L_x B_x/(1-\lambda)$")
    ax.set(xlabel="truncation length k", ylabel=r"$\sup_t \|h_t - h^k_t\|$ (median)", ylim=(1e-16, 1e12))
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig


def gradient_gaps(ks: Sequence[int], gaps: Mapping[str, torch.Tensor], lam: float, k0: int = 10) -> Figure:
    """Paper Fig. 1(a): the median gradient gap ‖∇p_T − ∇p_T^k‖ against k, as printed (panel (a):
    ``literal_lds``, ``literal_tanh``) and calibrated (panel (b): ``orth_lds``, ``calibrated_tanh``), each (n, K),
    with kλ^k drawn through the first system's median at k = 5. Panel (c) shows what decides the verdict: the
    median over instances of [gap/λ^k](k) / [gap/λ^k](k0) for the two linear systems, k ≥ k0, against kλ^k's
    k/k0 and λ^k's 1 (the ratio R of the text is its value at k = 60)."""
    use_book_style()
    kk = torch.tensor(ks, dtype=torch.float64)
    fig = plt.figure(figsize=(FULL_WIDTH, 6.0))
    grid = fig.add_gridspec(2, 2)
    axes = [fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, :])]
    for ax, panel, names in ((axes[0], "(a) literal (as printed)", ("literal_lds", "literal_tanh")),
                             (axes[1], "(b) calibrated U/√d; LDS with W = λQ", ("orth_lds", "calibrated_tanh"))):
        for name, style in zip(names, ("C0-", "C1-")):
            med = gaps[name].median(dim=0).values
            ax.semilogy(kk[med > 0], med[med > 0], style, label=name.split("_", 1)[1].replace("_", " "))
        ref = gaps[names[0]].median(dim=0).values[ks.index(5)] / (5 * lam ** 5)
        ax.semilogy(kk, ref * kk * lam ** kk, "k--", label=r"$k\lambda^k$ (through k = 5)")
        ax.set(xlabel="truncation length k", ylabel=r"$\|\nabla_w p_T - \nabla_w p^k_T\|$ (median)", title=panel,
               ylim=(1e-16, 1e6))
        ax.legend(fontsize=7)
    ax, i0, tail = axes[2], ks.index(k0), kk >= k0
    for name, style, label in (("literal_lds", "C0o-", "LDS as printed"), ("orth_lds", "C2s-", "LDS, W = λQ")):
        scaled = gaps[name] / lam ** kk                                              # (n, K)
        ax.semilogy(kk[tail], (scaled / scaled[:, i0:i0 + 1]).median(dim=0).values[tail], style, ms=3, label=label)
    ax.semilogy(kk[tail], kk[tail] / k0, "k--", label=r"$k\lambda^k$: $k/%d$" % k0)
    ax.semilogy(kk[tail], torch.ones(int(tail.sum())), "k:", label=r"$\lambda^k$: 1")
    ax.set(xlabel="truncation length k", ylabel=r"gap$/\lambda^k$, relative to k = %d" % k0,
           title=r"(c) what decides the verdict: gap/$\lambda^k$ (median)")
    ax.legend(fontsize=7)
    return fig


def hessian_norms(lengths: Sequence[int], hessians: Mapping[str, torch.Tensor]) -> Figure:
    """Lemma 3: the median ‖∇²_W p_T‖₂ against T for ``lds_0.5``, ``lds_0.9``, ``tanh_0.9``, ``lds_1.02``
    (each (n, len(lengths)))."""
    fig, ax = new_figure(1, height=3.0, width=5.0)
    for name, style in (("lds_0.5", "C0o-"), ("lds_0.9", "C2o-"), ("tanh_0.9", "C1s-"), ("lds_1.02", "C3^:")):
        ax.loglog(lengths, hessians[name].median(dim=0).values, style, label=name.replace("_", ", λ = "))
    ax.set(xlabel="sequence length T", ylabel=r"$\|\nabla^2_W p_T\|_2$ (median)")
    ax.legend(fontsize=7)
    return fig


def counterexample_errors(t: np.ndarray, errors: Mapping[float, Sequence], *, ks: Sequence[int],
                          log10_a: Sequence[float]) -> Figure:
    """Props. 3–4: (a) |y_t − y_t^k| against t (T,) for a = 2 at each k of ``ks`` and for a = 0.5 at
    ``ks[1]`` (``errors[a]``: one (T,) row per k; zeros not drawn); (b) log10 log10 |a_i| of unconstrained
    gradient descent, ``log10_a`` (I,)."""
    fig, axes = new_figure(2, height=2.8)
    for e, k in zip(errors[2.0], ks):
        axes[0].semilogy(t, _positive(e), label=f"a = 2, k = {k}")
    axes[0].semilogy(t, _positive(errors[0.5][1]), "k:", label=f"a = 0.5, k = {ks[1]}")
    axes[0].set(xlabel="time t", ylabel=r"$|y_t - y^k_t|$", ylim=(1e-20, 1e20), title="(a) Prop. 3: truncation error")
    axes[0].legend(fontsize=7)
    axes[1].plot(range(len(log10_a)), np.log10(np.maximum(np.abs(log10_a), 1e-3)), "C3o-", label="unconstrained")
    axes[1].set(xlabel="GD step i", ylabel=r"$\log_{10}\log_{10}|a_i|$", title="(b) Prop. 4: unconstrained GD")
    axes[1].legend(fontsize=7)
    return fig


def lstm_distances(distances: Mapping[str, torch.Tensor], *, d0: float, lam_inf: float) -> Figure:
    """Prop. 5: the largest ‖s_t − s'_t‖∞ against t for the LSTMs ``stable``, ``big``, ``bias10`` (each
    (T, n), t = 1..T), with λ∞^t d0. The legend sits outside the axes (the stable curve runs through the lower left)."""
    n_steps = distances["stable"].shape[0]
    t = np.arange(1, n_steps + 1)
    fig, ax = new_figure(1, height=3.0, width=6.0)
    for name, style in (("stable", "C0-"), ("big", "C1-"), ("bias10", "C3-")):
        ax.semilogy(t, distances[name].max(dim=1).values.clamp(min=1e-17), style, label=name)
    ax.semilogy(t, d0 * lam_inf ** t, "k--", label=r"$\lambda_\infty^t d_0$")
    ax.set(xlabel="time step t", ylabel=r"largest $\|s_t - s'_t\|_\infty$")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig


def weight_gaps(runs: Mapping[str, dict], schedules: Sequence[str], *, diameter: float, ks: Sequence[int],
                final_gaps: Mapping[str, torch.Tensor], tanh_ks: Sequence[int], lam: float) -> Figure:
    """Paper Fig. 1(b): (a) the median ‖W_t^trunc − W_t^recurr‖_F against GD step t for the LDS under each
    step-size schedule (``runs["lds"]["delta"]`` (N+1, n, S, K) at the last k; thick: its untruncated twin
    ``runs["lds"]["twin"]`` (N+1, n, S)) and the literal LDS (``runs["literal"]["delta"]``); (b) δ_N against
    k (``final_gaps[system]`` (n, S, K); tanh at ``tanh_ks``), with λ^k through k = 5. Each legend sits below its
    panel (the curves come close to every corner)."""
    n_steps = runs["lds"]["delta"].shape[0] - 1
    steps = np.arange(n_steps + 1)
    fig, axes = new_figure(2, height=3.6)
    for j, (sname, style) in enumerate(zip(schedules, ("C0-", "C1-", "C3-"))):
        axes[0].semilogy(steps, runs["lds"]["delta"][:, :, j, -1].median(dim=1).values.clamp(min=1e-17), style,
                         label=f"LDS, α{'' if sname == 'constant' else '·' + sname}")
        axes[0].semilogy(steps, runs["lds"]["twin"][:, :, j].median(dim=1).values.clamp(min=1e-17), style,
                         alpha=0.4, lw=3)
    axes[0].semilogy(steps, runs["literal"]["delta"][:, :, 0, 0].median(dim=1).values, "k:", label="LDS literal, α/t")
    axes[0].axhline(diameter, color="grey", lw=0.8)
    axes[0].set(xlabel="GD step t", ylabel=r"$\|W_t^{\mathrm{trunc}} - W_t^{\mathrm{recurr}}\|_F$ (median)",
                title=f"(a) k = {ks[-1]} (thick: untruncated twin)")
    axes[0].legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2)
    axes[1].semilogy(ks, final_gaps["lds"][:, 0].median(dim=0).values, "C0o-", label="LDS, α/t")
    axes[1].semilogy(ks, final_gaps["lds_unstable"][:, 0].median(dim=0).values, "C3s:", label="unstable, α/t")
    axes[1].semilogy(tanh_ks, final_gaps["tanh"][:, 0].median(dim=0).values.clamp(min=1e-17), "C1^-",
                     label="tanh, α/t")
    axes[1].semilogy(ks, float(final_gaps["lds"][:, 0, 0].median()) * lam ** (np.array(ks) - 5.0), "k--",
                     label=r"$\lambda^k$ (through k = 5)")
    axes[1].set(xlabel="truncation length k", ylabel=r"$\delta_N$ (median)", title=f"(b) after N = {n_steps} steps")
    axes[1].legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2)
    return fig


def language_model_training(val_loss: np.ndarray, norm: np.ndarray, *, seeds: Sequence[int]) -> Figure:
    """§7.2: (a) validation perplexity per epoch, unconstrained (solid) and stable (dashed), one colour per
    seed, ``val_loss`` (S, 2, E+1) with epoch 0 not drawn; (b) ‖W‖₂ per update of the first seed, ``norm``
    (2, U), with the unit line."""
    fig, axes = new_figure(2, height=3.0)
    ep = np.arange(1, val_loss.shape[2])
    for s in range(val_loss.shape[0]):
        axes[0].plot(ep, np.exp(val_loss[s, 0, 1:]), f"C{s}-o", ms=3, label=f"seed {seeds[s]}")
        axes[0].plot(ep, np.exp(val_loss[s, 1, 1:]), f"C{s}--o", ms=3)
    axes[0].set(xlabel="epoch", ylabel="validation perplexity", xticks=ep, title="(a) every seed")
    axes[0].legend(fontsize=7)
    axes[1].plot(norm[0], "C3-", lw=0.8, label="unconstrained")
    axes[1].plot(norm[1], "C0-", lw=0.8, label="stable (projected)")
    axes[1].axhline(1.0, color="k", ls=":", lw=0.8)
    axes[1].set(xlabel="update", ylabel=r"$\|W\|_2$", title=f"(b) seed {seeds[0]}")
    axes[1].legend(fontsize=7)
    return fig


def input_gradient_profiles(profiles: Mapping[str, np.ndarray], control: np.ndarray) -> Figure:
    """Paper Fig. 2: ‖∇_{x_{s−i}} p_s‖ against the lag i = 1..L for the tanh RNN and the LSTM, one line per
    epoch (``profiles[cell]`` (E, L+1), lag 0 not drawn), the RNN with its control profile (L+1,) dotted."""
    fig, axes = new_figure(2, height=3.0, sharey=True)
    for ax, c, name in ((axes[0], "rnn", "(a) tanh RNN"), (axes[1], "lstm", "(b) LSTM")):
        lags = np.arange(1, profiles[c].shape[1])
        E = profiles[c].shape[0]
        for e in range(E):
            ax.semilogy(lags, profiles[c][e, 1:], color=plt.cm.viridis(1 - e / max(E - 1, 1)), label=f"epoch {e}")
        if c == "rnn":
            ax.semilogy(lags, control[1:], "k:", label="control")
        ax.set(xlabel="lag i", ylabel=r"$\|\nabla_{x_{s-i}} p_s\|$", title=name)
        ax.legend(fontsize=7)
    return fig
