"""The dynamics chapter's figures (matplotlib; every axis labelled). Each function draws arrays the
chapter computed and returns the figure; the chapter saves it with ``ledger.figure``."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from matplotlib.figure import Figure

from rnnrepro.book.plotting import new_figure


def forgetting(t: torch.Tensor, distances: torch.Tensor, contraction: float, *, n_shown: int = 20) -> Figure:
    """Distances between trajectory pairs: (a) contractive, with the bound L_f^t max_i d_0; (b) expansive.

    t (T+1,) time steps; distances (T+1, 2, P): [:, 0] the contractive net, [:, 1] the expansive one.
    """
    fig, axes = new_figure(2, height=2.8)
    for ax, k, name in zip(axes, (0, 1), ("(a) contractive", "(b) expansive")):
        ax.semilogy(t, distances[:, k, :n_shown], color="C0" if k == 0 else "C3", alpha=0.4)
        if k == 0:
            ax.semilogy(t, distances[0, 0].max() * contraction ** t.double(), "k--", label=r"$L_f^t \max_i d_0$")
            ax.legend()
        ax.set(xlabel="time step t", ylabel="distance between trajectories", title=f"{name} tanh RNN")
    return fig


def truncation(windows: Sequence[int], errors: torch.Tensor, bound: Sequence[float]) -> Figure:
    """Largest truncation error per window k, both networks, with the bound L_f^k sqrt(n).

    windows (K,); errors (K, 2, B): [:, 0] contractive, [:, 1] expansive; bound (K,).
    """
    fig, axes = new_figure(1, height=2.8, width=6.5)
    axes.semilogy(windows, errors[:, 0].amax(dim=1), "o-", color="C0", label="contractive: largest error")
    axes.semilogy(windows, errors[:, 1].amax(dim=1), "s-", color="C3", label="expansive: largest error")
    axes.semilogy(windows, bound, "k--", label=r"bound $L_f^k\sqrt{n}$")
    axes.set(xlabel="window k (inputs seen)", ylabel=r"$\|h_T - h_T^{(k)}\|$", ylim=(1e-17, 1e2))
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))  # outside: the curves fill every corner
    return fig


def edge_of_chaos(gains: Sequence[float], exponent: Sequence[float], log_rho: Sequence[float]) -> Figure:
    """Largest Lyapunov exponent against the gain g, with log rho(gW) at the origin; all (G,)."""
    fig, axes = new_figure(1, height=2.8, width=4.5)
    axes.plot(gains, exponent, "o-", label="tangent propagation")
    axes.plot(gains, log_rho, "k--", label=r"$\log\rho(gW)$ (origin)")
    axes.axhline(0, color="grey", lw=0.8)
    axes.set(xlabel="gain g", ylabel="largest Lyapunov exponent (nats/step)", ylim=(-0.8, 1.2))
    axes.legend()
    return fig


def memory(lags: torch.Tensor, kernels: torch.Tensor, *, horizons: Sequence[int], gap_to_one: dict,
           alpha: float) -> Figure:
    """(a) Memory kernels |c^T W^k U| at rho(W) = 0.9 (first half of ``kernels``) and at 1 (second half);
    (b) 1 - lambda* of the best single-rate fit against the horizon K, with 3 alpha / K.

    lags (L,); kernels (2S, L); horizons (H,); gap_to_one {"power": (H,), "exponential": (H,)}.
    """
    half = kernels.shape[0] // 2
    fig, axes = new_figure(2, height=2.8)
    axes[0].semilogy(lags, kernels[half:].abs().T, color="C3", alpha=0.35, lw=0.8)
    axes[0].semilogy(lags, kernels[:half].abs().T, color="C0", alpha=0.6, lw=0.8)
    axes[0].semilogy(lags, 0.9 ** lags.double(), "k--", label=r"$0.9^k$")
    axes[0].set(xlabel="lag k", ylabel=r"$|\rho_k| = |c^\top W^k U|$", title=r"(a) $\rho(W) = 0.9$ (blue), $1$ (red)")
    axes[0].legend()
    axes[1].loglog(horizons, gap_to_one["power"], "o-", color="C0", label=rf"power law $(1+k)^{{-{alpha:g}}}$")
    axes[1].loglog(horizons, gap_to_one["exponential"], "s-", color="C3", label=r"exponential $0.95^k$")
    axes[1].loglog(horizons, [3 * alpha / K for K in horizons], "k--", label=r"$3\alpha/K$")
    axes[1].set(xlabel="horizon K (lags fitted)", ylabel=r"$1 - \lambda^*$", title="(b) best single rate")
    axes[1].legend()
    return fig
