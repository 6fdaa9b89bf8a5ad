"""The ribeiro chapter's figures (matplotlib; every axis labelled). Each function draws arrays the chapter
computed and returns the figure; the chapter saves it with ``ledger.figure``. The steady-state panels of
Figs. 5, 8 and 9 are in :mod:`rnnrepro.ribeiro.steady_state_figures`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from rnnrepro.book.plotting import new_figure
from rnnrepro.ribeiro.steady_state_figures import steady_state_panel


def _shade(axes, band: tuple[float, float]) -> None:
    for ax in axes:
        ax.axvspan(*band, color="C3", alpha=0.08)


def attractor(h: np.ndarray) -> Figure:
    """The chaotic attractor of the two-unit LSTM: h (T, 2) plotted as points in the (h1, h2) plane."""
    fig, ax = new_figure(1, height=3.0, width=3.6)
    ax.plot(h[:, 0], h[:, 1], ",", color="C0", alpha=0.6)
    ax.set(xlabel="$h_1$", ylabel="$h_2$", title=f"chaotic attractor, s = 1 ({len(h)} steps)")
    return fig


def fig1(s: np.ndarray, orbit: np.ndarray, cost: np.ndarray, *, s_lyap: np.ndarray, lyapunov: np.ndarray,
         lyapunov_printed: np.ndarray, band: tuple[float, float]) -> Figure:
    """Paper Fig. 1 with our Lyapunov panel: (a) bifurcation diagram, orbit (P, M) against s (P,);
    (b) the cost (P,) along s·θ_true with the true weights at s = 1; (c) λ(s) for the corrected and the
    printed weights, both (Q,) against s_lyap (Q,). ``band``: the chaotic band, shaded."""
    fig, axes = new_figure(1, 3, height=2.2, sharex=True)
    axes[0].plot(np.repeat(s, orbit.shape[1]), orbit.ravel(), ",", color="k", alpha=0.25)
    axes[0].set(xlabel="s", ylabel="$h_1$ (last 100 samples)", title="(a) bifurcation diagram")
    axes[1].plot(s, cost, lw=0.6)
    axes[1].plot([1.0], [0.0], "o", color="C3", ms=4)
    axes[1].set(xlabel="s", ylabel="MSE cost V(s)", title=r"(b) cost along $\theta(s) = s\,\theta_{\mathrm{true}}$")
    axes[2].plot(s_lyap, lyapunov, ".-", ms=3, lw=0.7, label="corrected weights")
    axes[2].plot(s_lyap, lyapunov_printed, ".-", ms=3, lw=0.7, color="C1", alpha=0.7, label="printed weights")
    axes[2].axhline(0, color="grey", lw=0.7)
    axes[2].set(xlabel="s", ylabel="λ(s) (nats/step)", title="(c) largest Lyapunov exponent (not in the paper)")
    axes[2].legend(loc="lower left")
    _shade(axes, band)
    return fig


def fig7(s1: np.ndarray, s2: np.ndarray, cost: np.ndarray, *, band: tuple[float, float]) -> Figure:
    """Paper Fig. 7: log10 of the cost (P1, P2) on the plane spanned by θ_true (s1, (P1,)) and a random
    direction (s2, (P2,)), the true weights starred and the chaotic band dashed."""
    fig, ax = new_figure(1, height=3.0, width=5.5)
    cs = ax.contourf(s1, s2, np.log10(cost.T + 1e-4), levels=60)
    cb = fig.colorbar(cs, ax=ax, label="log10(V + 1e-4)")
    cb.ax.set_xlabel("cost")
    ax.plot([1], [0], "r*", ms=8)
    for edge in band:
        ax.axvline(edge, color="w", lw=0.7, ls="--")
    ax.set(xlabel=r"$s_1$ (along $\theta_{\mathrm{true}}$)", ylabel=r"$s_2$ (along $\theta_{\mathrm{random}}$)",
           title="MSE cost on the plane (Fig. 7)")
    return fig


def gradient_growth(contractive: tuple[Sequence[int], np.ndarray], rotation: tuple[Sequence[int], np.ndarray],
                    expansive: tuple[Sequence[int], np.ndarray], *, lyapunov_expansive: float) -> Figure:
    """Theorem 1(a): the largest gradient norm against the horizon N for the contractive RNN, the rotation
    RNN (with ∝ N) and the expansive tanh RNN (with ∝ exp(λN)); each argument is (N (K,), G (K,))."""
    (N_c, G_c), (N_r, G_r), (N_e, G_e) = contractive, rotation, expansive
    fig, axes = new_figure(3, height=2.6)
    axes[0].plot(N_c, G_c, "o-")
    axes[0].set(xscale="log", yscale="log", xlabel="horizon N", ylabel=r"$\max_k \|\nabla V_N\|$",
                title="contractive, ‖W‖₂ = 0.8", ylim=(np.min(G_c) / 3, np.max(G_c) * 3))
    axes[1].loglog(N_r, G_r, "o-", label="sup |V'|")
    axes[1].loglog(N_r, G_r[0] * np.asarray(N_r) / N_r[0], "k--", lw=0.8, label="∝ N")
    axes[1].set(xlabel="horizon N", ylabel=r"$\sup_\delta |dV_N/d\omega|$", title=r"rotation RNN, $L_x = 1$")
    axes[1].legend()
    axes[2].semilogy(N_e, G_e, "o-", label="measured")
    axes[2].semilogy(N_e, G_e[0] * np.exp(lyapunov_expansive * (np.asarray(N_e) - N_e[0])), "k--", lw=0.8,
                     label="∝ exp(λN)")
    axes[2].set(xlabel="horizon N", ylabel=r"$\max_k \|\nabla V_N\|$", title="expansive tanh RNN")
    axes[2].legend()
    return fig


def hessian_growth(N: Sequence[int], sups: Mapping[str, np.ndarray], *, s: np.ndarray, slope_at_100: np.ndarray,
                   band: tuple[float, float], rotation: tuple[Sequence[int], np.ndarray]) -> Figure:
    """Theorem 1(b): (left) sup over s of |dV/ds| and |d²V/ds²| inside and outside the chaotic band against
    N (K,), ``sups`` keys g_in, h_in, g_out, h_out, each (K,); (middle) |dV_100/ds| (P,) against s (P,);
    (right) the rotation RNN's sup |V''| against N with ∝ N³ and ∝ N²; ``rotation`` = (N (R,), H (R,))."""
    N_r, H_r = rotation
    fig, axes = new_figure(3, height=2.6)
    axes[0].semilogy(N, sups["g_in"], "o-", label="|dV/ds|, band")
    axes[0].semilogy(N, sups["h_in"], "s-", label="|d²V/ds²|, band")
    axes[0].semilogy(N, sups["g_out"], "o--", label="|dV/ds|, outside")
    axes[0].semilogy(N, sups["h_out"], "s--", label="|d²V/ds²|, outside")
    axes[0].set(xlabel="horizon N", ylabel="sup over s", title=r"chaotic LSTM along $s\,\theta_{\mathrm{true}}$")
    axes[0].legend(fontsize=6)
    axes[1].semilogy(s, np.abs(slope_at_100) + 1e-12, lw=0.6)
    axes[1].axvspan(*band, color="C3", alpha=0.08)
    axes[1].set(xlabel="s", ylabel=r"$|dV_{100}/ds|$", title="N = 100")
    ratio = np.asarray(N_r) / N_r[0]
    axes[2].loglog(N_r, H_r, "o-", label="sup |V''|")
    axes[2].loglog(N_r, H_r[0] * ratio ** 3, "k--", lw=0.8, label="∝ N³ (theorem)")
    axes[2].loglog(N_r, H_r[0] * ratio ** 2, "k:", lw=0.8, label="∝ N²")
    axes[2].set(xlabel="horizon N", ylabel=r"$\sup_\delta |d^2V_N/d\omega^2|$", title="rotation RNN")
    axes[2].legend(fontsize=7)
    return fig


def entropy_figure(t: np.ndarray, log_det: Callable[[float], float], *, contractive: Mapping[str, np.ndarray],
                   expansive: Mapping[str, np.ndarray], h0: float = float(np.log(4.0))) -> Figure:
    """Paper Fig. 2 re-drawn: (a) entropy of the linear maps L·R for L = 0.8, 1, 1.25, exact
    (H_0 + t log|det(L·R)|, ``log_det(L)``) with the corrected bound (9) shaded; (b) the k-NN entropy of the
    tanh maps, ``contractive``/``expansive`` with keys H (T,) and NlogL, against H_0 + t·N_x log L_f."""
    fig, axes = new_figure(2, height=2.8)
    for L, col in ((0.8, "C0"), (1.0, "C2"), (1.25, "C3")):
        line = h0 + 2 * t * np.log(L)
        axes[0].plot(t, line, "--", color=col, lw=0.9)
        axes[0].fill_between(t, line, h0 - 4, color=col, alpha=0.07)
        axes[0].plot(t, h0 + t * log_det(L), "o", color=col, label=rf"{L}·R: $L_f$ = {L}")
    axes[0].set(xlabel="t", ylabel=r"entropy $H_t$ (nats)", title="(a) linear maps, exact; shaded: corrected (9)")
    axes[0].legend(fontsize=7)
    for ent, col, name in ((contractive, "C0", "contractive"), (expansive, "C3", "expansive")):
        axes[1].plot(t, ent["H"], "o-", color=col, label=f"k-NN, {name} tanh map")
        axes[1].plot(t, ent["H"][0] + t * ent["NlogL"], "--", color=col, lw=0.9,
                     label=rf"$H_0 + t N_x \log L_f$ ({name})")
    axes[1].set(xlabel="t", ylabel=r"entropy $H_t$ (nats)", title="(b) tanh maps, k-NN estimate")
    axes[1].legend(fontsize=6)
    return fig


def learning_curves(history: Mapping[str, np.ndarray], val_epoch: np.ndarray, *, seeds: Sequence[int], good: int,
                    bad: int, milestones: Sequence[int], solved: Sequence[int] = ()) -> Figure:
    """Paper Fig. 3: accuracies of an example solving and an example memorising seed, and the validation accuracy
    of every seed (the solving seeds, indices ``solved``, in red; default: ``good`` alone).
    history: epoch (E,), train_acc (E, S), val_acc (V, S); val_epoch (V,); good/bad: seed indices."""
    fig, axes = new_figure(3, height=2.6)
    red = set(solved) or {good}
    milestones = [m for m in milestones if m <= np.max(history["epoch"])]
    for ax, k, title in ((axes[0], good, "(a) solving"), (axes[1], bad, "(b) memorising")):
        ax.plot(history["epoch"], history["train_acc"][:, k], lw=0.8, label="train (running)")
        ax.plot(val_epoch, history["val_acc"][:, k], lw=0.8, label="validation")
        ax.set(xscale="log", xlabel="epoch", ylabel="accuracy", title=f"{title}, seed {seeds[k]}", ylim=(0, 1.02))
        ax.legend(loc="center left")
    for k in range(len(seeds)):
        axes[2].plot(val_epoch, history["val_acc"][:, k], lw=0.8, color="C3" if k in red else "grey",
                     alpha=1 if k in red else 0.4, zorder=3 if k in red else 2)
    axes[2].set(xscale="log", xlabel="epoch", ylabel="validation accuracy", title=f"(c) all {len(seeds)} seeds",
                ylim=(0, 1.02))
    for ax in axes:
        ax.axhline(0.25, color="k", lw=0.6, ls=":")
        for m in milestones:
            ax.axvline(m, color="k", lw=0.4, ls="--")
    return fig


def cost_lines(s: np.ndarray, lines: Mapping[str, Mapping[str, np.ndarray]], *, s_zoom: np.ndarray,
               zooms: Mapping[str, Mapping[str, np.ndarray]], minima: Callable[[np.ndarray], np.ndarray]) -> Figure:
    """Paper Fig. 4: the cross entropy along θ(s) for the good and the bad run (top, ``lines[run][split]``
    (P,) against s (P,)) and zoomed near s = 0 (bottom, ``zooms[run][split]`` (Z,) against s_zoom (Z,)),
    the strict minima that ``minima`` (a boolean mask (Z,)) finds marked ▼."""
    fig, axes = new_figure(2, 2, height=2.4)
    for col, (name, title) in enumerate((("good", "good run"), ("bad", "bad run"))):
        ax = axes[0, col]
        ax.plot(s, lines[name]["train"], label="train")
        ax.plot(s, lines[name]["val"], label="validation")
        ax.axvline(0, color="grey", lw=0.6, ls=":")
        ax.set(xlabel="s  (0 = final, 1 = initial)", ylabel="cross entropy V(s)", title=f"({'ab'[col]}) {title}")
        ax.legend()
        ax = axes[1, col]
        for k, (split, v) in enumerate(zooms[name].items()):
            ax.plot(s_zoom, v, lw=0.8, color=f"C{k}", label=split)
            ax.plot(s_zoom[minima(v)], v[minima(v)], "v", ms=3, color=f"C{k}")
        ax.set(xlabel="s (zoom)", ylabel="cross entropy V(s)", title=f"({'cd'[col]}) {title}, zoom; ▼ strict minima")
        ax.legend()
    return fig


def steady_states(bifs: Mapping[str, dict], s: np.ndarray, *, inputs: Sequence[int], symbols: Sequence[str]) -> Figure:
    """Paper Fig. 5: output 1's steady states along θ(s) for the good (top) and the bad run (bottom) under
    three constant inputs (columns); ``bifs[run]["out"]`` (P, K, n_ic, L, R), s (P,)."""
    fig, axes = new_figure(3, 2, height=2.0)
    for row, name in enumerate(("good", "bad")):
        for col, k in enumerate(inputs):
            steady_state_panel(axes[row, col], bifs[name], k=k, j=0, s=s,
                               title=f"({'abcdef'[3 * row + col]}) {name} run, input {symbols[k]}")
    return fig


def language_model(logits: np.ndarray, s_bif: np.ndarray, *, line: tuple[np.ndarray, np.ndarray],
                   zoom: tuple[np.ndarray, np.ndarray], history: Mapping[str, Sequence],
                   tokens: Sequence[str] = ("the", "<eos>")) -> Figure:
    """Paper Fig. 6 on our language model: (a) the logit of the input token at steady state under each
    constant input of ``tokens`` (``logits`` (P, len(tokens), n_ic, L)) against s_bif (P,); (b) the validation
    cross entropy along θ(s), ``line`` and ``zoom`` = (s, V); (c) training and validation cross entropy,
    ``history`` with update, train_loss (per update), epoch and val_loss (per epoch)."""
    fig, axes = new_figure(3, height=2.6)
    for k, name in enumerate(tokens):
        o = logits[:, k]
        axes[0].plot(np.repeat(s_bif, o.shape[1] * o.shape[2]), o.ravel(), ".", ms=2, color=f"C{k}",
                     label=f"input '{name}'")
    axes[0].set(xlabel="s  (0 = final, 1 = initial)", ylabel="logit of the input token",
                title="(a) bifurcation diagram")
    axes[0].legend()
    axes[1].plot(*line, "o-", ms=3, label="line")
    axes[1].plot(*zoom, "-", color="C3", lw=1.2, label="zoom")
    axes[1].legend()
    axes[1].set(xlabel="s  (0 = final, 1 = initial)", ylabel="validation cross entropy", title="(b) cost along θ(s)")
    updates_per_epoch = len(history["update"]) / max(history["epoch"])
    axes[2].plot(np.asarray(history["update"]) / updates_per_epoch, history["train_loss"], lw=0.5, alpha=0.6,
                 label="train (per update)")
    axes[2].plot(history["epoch"], history["val_loss"], "o-", label="validation")
    axes[2].set(xlabel="epoch", ylabel="cross entropy", title="(c) training")
    axes[2].legend()
    return fig
