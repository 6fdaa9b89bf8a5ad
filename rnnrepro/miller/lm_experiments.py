"""The WikiText-2 experiments of §7.2 (stable vs unconstrained RNN, Fig. 2, Fig. 3): configurations and runs.

``small`` is the CPU size shipped with the book (trained by :mod:`rnnrepro.miller.train_artifacts`);
``full`` is the paper's (A.5): embedding 1024 / hidden 256 for the stable-model comparison, 1500 units
for Figs. 2–3, 40 epochs, the whole vocabulary (and the official splits when train.txt is present).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np
import torch
from numpy.typing import ArrayLike

from rnnrepro.core import language_model as lm
from rnnrepro.miller.spectral_ball import spectral_projection
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


class Resume(NamedTuple):
    """Where and how often the runs of an experiment checkpoint (one file per model or sweep in ``folder``;
    an existing file is resumed from, bit for bit): ``every`` updates besides every epoch or log, and when
    ``stop()`` returns True (it raises :class:`~rnnrepro.core.language_model.TrainingInterrupted`)."""
    folder: Path
    every: int | None = None
    stop: Callable[[], bool] | None = None

    def kw(self, name: str) -> dict:
        """Keyword arguments of :func:`~rnnrepro.core.language_model.train` (or a sweep) for run ``name``."""
        return dict(checkpoint=Path(self.folder) / f"{name}.pt", checkpoint_every=self.every, stop=self.stop)


def _kw(resume: Resume | None, name: str) -> dict:
    return resume.kw(name) if resume is not None else {}


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
            verbose: bool = False, *, resume: Resume | None = None) -> dict:
    """Per seed: the unconstrained RNN and the stable one (W_hh projected onto ‖W‖₂ ≤ 1 after every
    update); for ``control_seeds`` also the radius-0 model (W_hh ≡ 0: no recurrence). ``resume``:
    checkpoints ``wt2_<size>_s<seed>_{unconstrained,stable,radius0}.pt``.

    Returns arrays: test_loss (n_seeds, 2) [unconstrained, stable] at the best-validation epoch,
    val_loss (n_seeds, 2, epochs + 1), norm (n_seeds, 2, updates) ‖W_hh‖₂ after every update,
    train_loss (n_seeds, 2, updates), control_test_loss (n_control,)."""
    cfg = config(size, "wt2", corpus)
    out = {k: [] for k in ("test_loss", "val_loss", "norm", "train_loss")}
    for seed in seeds:
        row = {k: [] for k in out}
        for hook, name in ((None, "unconstrained"), (spectral_projection(1.0), "stable")):
            m = lm.new_model(cfg, seed, device)
            h = lm.train(m, corpus.train, corpus.valid, cfg, hook=hook, verbose=verbose,
                         **_kw(resume, f"wt2_{size}_s{seed}_{name}"))
            row["test_loss"].append(lm.evaluate(m, corpus.test, cfg.bptt))
            row["val_loss"].append(h["val_loss"])
            row["norm"].append(h["norm"])
            row["train_loss"].append(h["train_loss"])
        for k in out:
            out[k].append(row[k])
    ctrl = []
    for seed in control_seeds:
        m = lm.new_model(cfg, seed, device)
        lm.train(m, corpus.train, corpus.valid, cfg, hook=spectral_projection(0.0), record_norm=False,
                 **_kw(resume, f"wt2_{size}_s{seed}_radius0"))
        ctrl.append(lm.evaluate(m, corpus.test, cfg.bptt))
    res = {k: np.asarray(v, dtype=np.float64) for k, v in out.items()}
    res["control_test_loss"] = np.asarray(ctrl, dtype=np.float64)
    return res


def run_fig2(size: str, seed: int, corpus: lm.Corpus, device: str = "cpu", verbose: bool = False, *,
             resume: Resume | None = None) -> dict:
    """Train the unconstrained RNN and LSTM; the lag profile g(i), i = 0..50, on the validation text at
    initialisation and after every epoch. Returns profile_<cell> (epochs + 1, 51), test_loss_<cell>,
    train_loss_<cell> (updates,), val_loss_<cell> (epochs + 1,), and control_profile (51,): the final
    RNN with the activation removed and an orthogonal W_hh. ``resume``: checkpoints
    ``fig2_<size>_s<seed>_<cell>.pt``."""
    n_windows = SIZES[size]["n_windows"]
    res = {}
    for cell in ("rnn", "lstm"):
        cfg = config(size, f"fig2_{cell}", corpus)
        m = lm.new_model(cfg, seed, device)

        def profile(model, epoch):
            return torch.as_tensor(ig.lag_profile(model, corpus.valid, n_windows=n_windows))
        h = lm.train(m, corpus.train, corpus.valid, cfg, record_norm=False, verbose=verbose, on_epoch=profile,
                     **_kw(resume, f"fig2_{size}_s{seed}_{cell}"))
        res[f"profile_{cell}"] = np.stack([np.asarray(q) for q in h["on_epoch"]])
        res[f"test_loss_{cell}"] = np.float64(lm.evaluate(m, corpus.test, cfg.bptt))
        res[f"train_loss_{cell}"] = np.asarray(h["train_loss"])
        res[f"val_loss_{cell}"] = np.asarray(h["val_loss"])
        if cell == "rnn":
            res["control_profile"] = ig.lag_profile(m, corpus.valid, n_windows=n_windows,
                                                    rnn=ig.orthogonal_control(m, seed))
    return res


def run_fig3(size: str, seed: int, corpus: lm.Corpus, *, device: str = "cpu", updates: int | None = None,
             cells: tuple[str, ...] = ("rnn", "lstm"), tbptt: bool = True, resume: Resume | None = None) -> dict:
    """The sliding-window k-sweep for each cell (arrays <key>_<cell> of
    :func:`truncated_training.train_window_sweep`) and the TBPTT variant for the RNN (tbptt_<key>).
    ``resume``: checkpoints ``fig3_<size>_s<seed>_{window_<cell>,tbptt}.pt``."""
    S = SIZES[size]
    updates = updates or S["fig3_updates"]
    res = {}
    for cell in cells:
        r = tt.train_window_sweep(config(size, f"fig3_{cell}", corpus), KS, K_REF, ids=corpus.train, seed=seed,
                                  updates=updates, log_every=S["fig3_log_every"], L=S["fig3_L"], device=device,
                                  **_kw(resume, f"fig3_{size}_s{seed}_window_{cell}"))
        res.update({f"{k}_{cell}": v for k, v in r.items()})
    if tbptt:
        r = tt.train_tbptt_sweep(config(size, "fig3_rnn", corpus), KS, K_REF, ids=corpus.train, seed=seed,
                                 tokens=S["tbptt_tokens"], n_logs=S["tbptt_logs"], device=device,
                                 **_kw(resume, f"fig3_{size}_s{seed}_tbptt"))
        res.update({f"tbptt_{k}": v for k, v in r.items()})
    return res


#: Validation tokens passed to a replay (within its first epoch validation only runs at initialisation,
#: which neither changes the training nor draws random numbers).
REPLAY_VALID = 2000


def replay_wt2(corpus: lm.Corpus, seed: int, updates: int, *, twin: bool = False) -> dict:
    """The first ``updates`` updates of the small wt2 pair of one seed: train_loss, norm (2, updates).
    ``twin``: the same with every initial weight moved by one last bit (a last-bit twin)."""
    cfg = config("small", "wt2", corpus)
    out = {"train_loss": [], "norm": []}
    for hook in (None, spectral_projection(1.0)):
        m = lm.new_model(cfg, seed)
        if twin:
            perturb_all_last_bit(m)
        h = lm.train(m, corpus.train, corpus.valid[:REPLAY_VALID], cfg, hook=hook, max_updates=updates)
        out["train_loss"].append(h["train_loss"])
        out["norm"].append(h["norm"])
    return {k: np.asarray(v) for k, v in out.items()}


def replay_fig2(corpus: lm.Corpus, seed: int, updates: int, *, twin: bool = False) -> dict:
    """Initial lag profiles profile_<cell> (51,) and the first ``updates`` training losses train_loss_<cell>
    of the small Fig. 2 models. ``twin``: the same with every initial weight moved by one last bit (no
    profile)."""
    out = {}
    for cell in ("rnn", "lstm"):
        cfg = config("small", f"fig2_{cell}", corpus)
        m = lm.new_model(cfg, seed)
        if twin:
            perturb_all_last_bit(m)
        else:
            out[f"profile_{cell}"] = ig.lag_profile(m, corpus.valid, n_windows=SIZES["small"]["n_windows"])
        h = lm.train(m, corpus.train, corpus.valid[:REPLAY_VALID], cfg, record_norm=False, max_updates=updates)
        out[f"train_loss_{cell}"] = np.asarray(h["train_loss"])
    return out


def initial_model(corpus: lm.Corpus, seed: int, name: str) -> lm.WordLM:
    """The small model ``name`` of :data:`SIZES` (``"wt2"``, ``"fig2_rnn"``, ...) at initialisation: the weights
    :func:`replay_wt2` and :func:`replay_fig2` start from."""
    return lm.new_model(config("small", name, corpus), seed)


def perturb_all_last_bit(model: torch.nn.Module) -> torch.nn.Module:
    """Move every parameter entry of ``model`` one float up (in place): the start of a last-bit twin of a
    replay, whose distance to the replay is float32 round-off as training amplifies it on this machine."""
    for q in model.parameters():
        lm.perturb_last_bit(q)
    return model


def relative_gap(stable: np.ndarray, unconstrained: np.ndarray) -> np.ndarray:
    """(ppl_stable − ppl_unconstrained) / ppl_unconstrained from mean cross entropies."""
    return np.exp(np.asarray(stable)) / np.exp(np.asarray(unconstrained)) - 1.0


def unamplified_prefix(floor: ArrayLike, tol: float) -> int:
    """Number of leading entries of ``floor`` (a last-bit twin's distance, same scale as ``tol``) that stay
    at most tol/10: the stretch of a float32 replay where round-off has not yet been amplified, so a
    fixed tolerance ``tol`` applies on any machine."""
    above = np.flatnonzero(np.asarray(floor, dtype=np.float64) > tol / 10)
    return int(above[0]) if above.size else len(np.asarray(floor))


#: A replay may differ from its shipped record by this many times the live last-bit twin's distance.
TWIN_FACTOR = 10.0


def twin_floor(live: ArrayLike, twin: ArrayLike) -> np.ndarray:
    """Running maximum over updates (last axis) of |twin / live − 1|: how far float32 training has amplified
    a last-bit change of the initial weights by each update, on this machine. Shape of ``live``."""
    d = np.abs(np.asarray(twin, dtype=np.float64) / np.asarray(live, dtype=np.float64) - 1.0)
    return np.maximum.accumulate(d, axis=-1)


def replay_excess(live: ArrayLike, shipped: ArrayLike, twin: ArrayLike, *, base: float, factor: float = TWIN_FACTOR,
                  tol: float = 1e-3) -> float:
    """max of |live / shipped − 1| / (base + factor · :func:`twin_floor`) over the updates before the floor
    exceeds tol/factor (:func:`unamplified_prefix`; later the two runs decorrelate and a replay shows nothing):
    at most 1 when a live float32 replay agrees with the shipped record within the round-off tolerance
    ``base`` plus ``factor`` times what a last-bit twin reaches on this machine. live, shipped, twin:
    (..., updates); the stretch is the shortest over the leading axes. Raises when it is empty."""
    live, shipped = np.asarray(live, dtype=np.float64), np.asarray(shipped, dtype=np.float64)
    if live.shape != shipped.shape or live.shape != np.shape(twin):
        raise ValueError(f"shapes differ: {live.shape}, {shipped.shape}, {np.shape(twin)}")
    floor = twin_floor(live, twin)
    n = unamplified_prefix(floor.reshape(-1, floor.shape[-1]).max(axis=0), tol * 10 / factor)
    if n == 0:
        raise ValueError("the last-bit twin is amplified from the first update: nothing can be checked")
    return float(np.max(np.abs(live / shipped - 1.0)[..., :n] / (base + factor * floor[..., :n])))


def max_relative_difference(a: ArrayLike, b: ArrayLike) -> float:
    """max |a − b| / |b| elementwise (b ≠ 0)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {a.shape} vs {b.shape}")
    return float(np.max(np.abs(a - b) / np.abs(b)))


def seed_everything_cpu() -> None:
    """One thread (the shipped runs were trained that way)."""
    torch.set_num_threads(1)


def paired_t(gaps: ArrayLike) -> float:
    """mean / (standard deviation / √n) of per-seed gaps (n ≥ 2): the paired t statistic."""
    g = np.asarray(gaps, dtype=np.float64)
    if g.size < 2:
        raise ValueError("need at least two seeds")
    sd = g.std(ddof=1)
    return float(g.mean() / (sd / np.sqrt(g.size))) if sd > 0 else float(np.sign(g.mean()) * np.inf)


def seed_noise_gaps(losses: ArrayLike) -> np.ndarray:
    """Relative perplexity gaps between consecutive seeds of the same model (cyclic): what a gap looks
    like without the projection, (n,) from mean cross entropies (n,)."""
    x = np.asarray(losses, dtype=np.float64)
    return relative_gap(np.roll(x, -1), x)
