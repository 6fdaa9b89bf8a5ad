"""The WikiText-2 experiments of §7.2 (stable vs unconstrained RNN, Fig. 2, Fig. 3): configurations and runs.

``small`` is the CPU size shipped with the book (trained by :mod:`rnnrepro.miller.train_artifacts`);
``full`` is the paper's (A.5): embedding 1024 / hidden 256 for the stable-model comparison, 1500 units
for Figs. 2–3, 40 epochs, the whole vocabulary (and the official splits when train.txt is present).
"""

from __future__ import annotations

import numpy as np
import torch

from rnnrepro.core import language_model as lm
from rnnrepro.miller import input_gradients as ig
from rnnrepro.miller import truncated_training as tt

KS = [5, 10, 15, 25, 35, 50, 64]   #: Fig. 3's truncation lengths
K_REF = 65                          #: "we assume k = 65 well captures the full-recurrent model"

SIZES = {
    "small": dict(
        vocab=2000,
        wt2=lm.LMConfig(cell="rnn", vocab=2000, emb=64, hidden=64, dropout=0.25, lr=2.0, bptt=35, batch=20, epochs=3),
        fig2_rnn=lm.LMConfig(cell="rnn", vocab=2000, emb=64, hidden=64, dropout=0.65, lr=5.0, bptt=65, batch=20,
                             epochs=3),
        fig2_lstm=lm.LMConfig(cell="lstm", vocab=2000, emb=64, hidden=64, dropout=0.2, lr=20.0, bptt=65, batch=20,
                              epochs=3),
        fig3_rnn=lm.LMConfig(cell="rnn", vocab=2000, emb=64, hidden=64, dropout=0.0, lr=5.0, batch=10),
        fig3_lstm=lm.LMConfig(cell="lstm", vocab=2000, emb=64, hidden=64, dropout=0.0, lr=20.0, batch=10),
        fig3_L=20, fig3_updates=300, fig3_log_every=10, tbptt_tokens=60_000, tbptt_logs=10, n_windows=400),
    "full": dict(
        vocab=None,
        wt2=lm.LMConfig(cell="rnn", vocab=1, emb=1024, hidden=256, dropout=0.25, lr=2.0, bptt=35, batch=20, epochs=40),
        fig2_rnn=lm.LMConfig(cell="rnn", vocab=1, emb=1500, hidden=1500, dropout=0.65, lr=5.0, bptt=65, batch=20,
                             epochs=40),
        fig2_lstm=lm.LMConfig(cell="lstm", vocab=1, emb=1500, hidden=1500, dropout=0.2, lr=20.0, bptt=65, batch=20,
                              epochs=40),
        fig3_rnn=lm.LMConfig(cell="rnn", vocab=1, emb=1500, hidden=1500, dropout=0.0, lr=5.0, batch=20),
        fig3_lstm=lm.LMConfig(cell="lstm", vocab=1, emb=1500, hidden=1500, dropout=0.0, lr=20.0, batch=20),
        fig3_L=65, fig3_updates=600, fig3_log_every=20, tbptt_tokens=600 * 65 * 20, tbptt_logs=20, n_windows=2000),
}


def load_corpus(size: str) -> lm.Corpus:
    """The corpus of a size: the split substitution (small; full too unless train.txt is present)."""
    from rnnrepro.data import wikitext
    full = size == "full"
    return lm.corpus(SIZES[size]["vocab"], train_split=full and wikitext.training_split_available())


def config(size: str, name: str, corpus: lm.Corpus) -> lm.LMConfig:
    """SIZES[size][name] with the vocabulary size of ``corpus``."""
    from dataclasses import replace
    return replace(SIZES[size][name], vocab=len(corpus.vocab))


def run_wt2(size: str, seeds: list[int], control_seeds: list[int], corpus: lm.Corpus, device: str = "cpu",
            verbose: bool = False) -> dict:
    """Per seed: the unconstrained RNN and the stable one (W_hh projected onto ‖W‖₂ ≤ 1 after every
    update); for ``control_seeds`` also the radius-0 model (W_hh ≡ 0: no recurrence).

    Returns arrays: test_loss (n_seeds, 2) [unconstrained, stable] at the best-validation epoch,
    val_loss (n_seeds, 2, epochs + 1), norm (n_seeds, 2, updates) ‖W_hh‖₂ after every update,
    train_loss (n_seeds, 2, updates), control_test_loss (n_control,)."""
    cfg = config(size, "wt2", corpus)
    out = {k: [] for k in ("test_loss", "val_loss", "norm", "train_loss")}
    for seed in seeds:
        row = {k: [] for k in out}
        for hook in (None, lm.spectral_projection(1.0)):
            m = lm.new_model(cfg, seed, device)
            h = lm.train(m, corpus.train, corpus.valid, cfg, hook=hook, verbose=verbose)
            row["test_loss"].append(lm.evaluate(m, corpus.test, cfg.bptt))
            row["val_loss"].append(h["val_loss"])
            row["norm"].append(h["norm"])
            row["train_loss"].append(h["train_loss"])
        for k in out:
            out[k].append(row[k])
    ctrl = []
    for seed in control_seeds:
        m = lm.new_model(cfg, seed, device)
        lm.train(m, corpus.train, corpus.valid, cfg, hook=lm.spectral_projection(0.0), record_norm=False)
        ctrl.append(lm.evaluate(m, corpus.test, cfg.bptt))
    res = {k: np.asarray(v, dtype=np.float64) for k, v in out.items()}
    res["control_test_loss"] = np.asarray(ctrl, dtype=np.float64)
    return res


def run_fig2(size: str, seed: int, corpus: lm.Corpus, device: str = "cpu", verbose: bool = False) -> dict:
    """Train the unconstrained RNN and LSTM; the lag profile g(i), i = 0..50, on the validation text at
    initialisation and after every epoch. Returns profile_<cell> (epochs + 1, 51), test_loss_<cell>,
    train_loss_<cell> (updates,), val_loss_<cell> (epochs + 1,), and control_profile (51,): the final
    RNN with the activation removed and an orthogonal W_hh."""
    n_windows = SIZES[size]["n_windows"]
    res = {}
    for cell in ("rnn", "lstm"):
        cfg = config(size, f"fig2_{cell}", corpus)
        m = lm.new_model(cfg, seed, device)
        prof = []

        def profile(model, epoch, prof=prof):
            prof.append(ig.lag_profile(model, corpus.valid, n_windows=n_windows))
        h = lm.train(m, corpus.train, corpus.valid, cfg, record_norm=False, verbose=verbose, on_epoch=profile)
        res[f"profile_{cell}"] = np.stack(prof)
        res[f"test_loss_{cell}"] = np.float64(lm.evaluate(m, corpus.test, cfg.bptt))
        res[f"train_loss_{cell}"] = np.asarray(h["train_loss"])
        res[f"val_loss_{cell}"] = np.asarray(h["val_loss"])
        if cell == "rnn":
            res["control_profile"] = ig.lag_profile(m, corpus.valid, n_windows=n_windows,
                                                    rnn=ig.orthogonal_control(m, seed))
    return res


def run_fig3(size: str, seed: int, corpus: lm.Corpus, device: str = "cpu", updates: int | None = None,
             cells=("rnn", "lstm"), tbptt: bool = True) -> dict:
    """The sliding-window k-sweep for each cell (arrays <key>_<cell> of
    :func:`truncated_training.train_window_sweep`) and the TBPTT variant for the RNN (tbptt_<key>)."""
    S = SIZES[size]
    updates = updates or S["fig3_updates"]
    res = {}
    for cell in cells:
        r = tt.train_window_sweep(config(size, f"fig3_{cell}", corpus), KS, K_REF, corpus.train, seed, updates,
                                  S["fig3_log_every"], L=S["fig3_L"], device=device)
        res.update({f"{k}_{cell}": v for k, v in r.items()})
    if tbptt:
        r = tt.train_tbptt_sweep(config(size, "fig3_rnn", corpus), KS, K_REF, corpus.train, seed,
                                 S["tbptt_tokens"], S["tbptt_logs"], device=device)
        res.update({f"tbptt_{k}": v for k, v in r.items()})
    return res


#: Validation tokens passed to a replay (within its first epoch validation only runs at initialisation,
#: which neither changes the training nor draws random numbers).
REPLAY_VALID = 2000


def replay_wt2(corpus: lm.Corpus, seed: int, updates: int) -> dict:
    """The first ``updates`` updates of the small wt2 pair of one seed: train_loss, norm (2, updates)."""
    cfg = config("small", "wt2", corpus)
    out = {"train_loss": [], "norm": []}
    for hook in (None, lm.spectral_projection(1.0)):
        h = lm.train(lm.new_model(cfg, seed), corpus.train, corpus.valid[:REPLAY_VALID], cfg, hook=hook,
                     max_updates=updates)
        out["train_loss"].append(h["train_loss"])
        out["norm"].append(h["norm"])
    return {k: np.asarray(v) for k, v in out.items()}


def replay_fig2(corpus: lm.Corpus, seed: int, updates: int, *, twin: bool = False) -> dict:
    """Initial lag profiles profile_<cell> (51,) and the first ``updates`` training losses train_loss_<cell>
    of the small Fig. 2 models. ``twin``: the same with W_hh moved by one last bit (no profile)."""
    out = {}
    for cell in ("rnn", "lstm"):
        cfg = config("small", f"fig2_{cell}", corpus)
        m = lm.new_model(cfg, seed)
        if twin:
            lm.perturb_last_bit(m.w_hh)
        else:
            out[f"profile_{cell}"] = ig.lag_profile(m, corpus.valid, n_windows=SIZES["small"]["n_windows"])
        h = lm.train(m, corpus.train, corpus.valid[:REPLAY_VALID], cfg, record_norm=False, max_updates=updates)
        out[f"train_loss_{cell}"] = np.asarray(h["train_loss"])
    return out


def relative_gap(stable: np.ndarray, unconstrained: np.ndarray) -> np.ndarray:
    """(ppl_stable − ppl_unconstrained) / ppl_unconstrained from mean cross entropies."""
    return np.exp(np.asarray(stable)) / np.exp(np.asarray(unconstrained)) - 1.0


def unamplified_prefix(floor, tol: float) -> int:
    """Number of leading entries of ``floor`` (a last-bit twin's distance, same scale as ``tol``) that stay
    at most tol/10: the stretch of a float32 replay where round-off has not yet been amplified, so a
    fixed tolerance ``tol`` applies on any machine."""
    above = np.flatnonzero(np.asarray(floor, dtype=np.float64) > tol / 10)
    return int(above[0]) if above.size else len(np.asarray(floor))


def max_relative_difference(a, b) -> float:
    """max |a − b| / |b| elementwise (b ≠ 0)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {a.shape} vs {b.shape}")
    return float(np.max(np.abs(a - b) / np.abs(b)))


def seed_everything_cpu() -> None:
    """One thread (the shipped runs were trained that way)."""
    torch.set_num_threads(1)


def paired_t(gaps) -> float:
    """mean / (standard deviation / √n) of per-seed gaps (n ≥ 2): the paired t statistic."""
    g = np.asarray(gaps, dtype=np.float64)
    if g.size < 2:
        raise ValueError("need at least two seeds")
    sd = g.std(ddof=1)
    return float(g.mean() / (sd / np.sqrt(g.size))) if sd > 0 else float(np.sign(g.mean()) * np.inf)


def seed_noise_gaps(losses) -> np.ndarray:
    """Relative perplexity gaps between consecutive seeds of the same model (cyclic): what a gap looks
    like without the projection, (n,) from mean cross entropies (n,)."""
    x = np.asarray(losses, dtype=np.float64)
    return relative_gap(np.roll(x, -1), x)
