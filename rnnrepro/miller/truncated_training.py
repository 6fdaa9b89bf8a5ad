"""Fig. 3: language models trained with truncation length k, and the distance ‖W_k − W_ref‖₂ during training.

Primary reading (eq. (3), sliding window): the prediction at every position uses only the k preceding
inputs, from a zero state. A chunk of L target positions is fed as L windows of k embeddings each
(``unfold``), one batched recurrent pass per window length; every model sees the same chunks in the same
order from the same initialisation (same seed), with plain SGD, clipping, a constant step and no dropout
(shared dropout masks are not possible across different graphs). ``k_ref`` (the paper's 65) stands in
for the full model.

Variant (TBPTT reading): the state is carried across windows of length k and detached
(:func:`train_tbptt_sweep`); models with different k then take different numbers of steps per token,
so distances are compared after the same number of training tokens.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from rnnrepro.core import language_model as lm
from rnnrepro.data import wikitext


def windowed_logits(model: lm.WordLM, x_ext: torch.Tensor, k: int, L: int) -> torch.Tensor:
    """Logits (L, B, V) of the last L positions of x_ext (≥ L + k − 1, B), each from the k inputs ending
    there, starting from a zero state (no dropout)."""
    if not 1 <= k or x_ext.shape[0] < L + k - 1:
        raise ValueError(f"need 1 <= k and {L + k - 1} rows of context, got k={k}, {x_ext.shape[0]} rows")
    e = model.enc(x_ext[x_ext.shape[0] - (L + k - 1):])                 # (L + k − 1, B, E)
    B, E = e.shape[1], e.shape[2]
    win = e.unfold(0, k, 1).permute(3, 0, 1, 2).reshape(k, L * B, E)    # (k, L·B, E)
    out, _ = model.rnn(win)
    return model.dec(out[-1]).view(L, B, -1)


def sgd_step(model: lm.WordLM, loss: torch.Tensor, lr: float, clip: float) -> None:
    """One plain SGD update with gradient-norm clipping."""
    model.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), clip)
    with torch.no_grad():
        for q in model.parameters():
            q.add_(q.grad, alpha=-lr)


def chunk_starts(n_rows: int, L: int, k_ref: int) -> list[int]:
    """First target row of every chunk: each chunk needs k_ref − 1 rows of context before it and one
    row after it (the targets)."""
    return list(range(k_ref - 1, n_rows - L, L))


def _save_sweep(checkpoint, models, **state) -> None:
    if checkpoint is not None:
        lm.save_checkpoint(checkpoint, dict(models=[m.state_dict() for m in models], **state))


def train_window_sweep(cfg: lm.LMConfig, ks: list[int], k_ref: int, *, ids: torch.Tensor, seed: int,
                       updates: int, log_every: int, L: int = 65, device: str = "cpu",
                       checkpoint: str | Path | None = None, checkpoint_every: int | None = None,
                       stop: Callable[[], bool] | None = None) -> dict:
    """Train one model per k in ``ks`` + [k_ref] in lockstep (sliding-window truncation), and a *twin*
    of the reference (k_ref) whose initial W_hh differs in the last bit of every entry: its distance to
    the reference is the float32 round-off floor amplified by training.

    Returns dict(update (n_log,), dist (n_log, len(ks)) = ‖W_k − W_ref‖₂, floor (n_log,) = ‖W_twin −
    W_ref‖₂, norm_ref (n_log,), loss (n_log, len(ks) + 2): training loss of the chunk just used, in the
    order ks, k_ref, twin).

    ``checkpoint`` (a file): the whole state is saved there atomically at every log, every
    ``checkpoint_every`` updates and when ``stop()`` returns True (then :class:`~rnnrepro.core.language_model.
    TrainingInterrupted` is raised); an existing file is resumed from, bit for bit."""
    if cfg.dropout != 0:
        raise ValueError("the k-sweep shares one randomness only without dropout: use dropout 0")
    if max(ks) > k_ref:
        raise ValueError(f"every k must be <= k_ref = {k_ref}, got {ks}")
    kk = list(ks) + [k_ref, k_ref]
    models = [lm.new_model(cfg, seed, device) for _ in kk]
    lm.perturb_last_bit(models[-1].w_hh)
    data = wikitext.batchify(ids, cfg.batch).to(device)
    starts = chunk_starts(data.shape[0], L, k_ref)
    out = {"update": [], "dist": [], "floor": [], "norm_ref": [], "loss": []}
    key = dict(cfg=cfg.to_dict(), ks=list(ks), k_ref=k_ref, seed=seed, updates=updates, log_every=log_every, L=L)
    ck = lm.load_checkpoint(checkpoint) if checkpoint is not None else None
    if ck is not None:
        if ck["key"] != key:
            raise ValueError(f"checkpoint {checkpoint} was written for another sweep: {ck['key']}")
        for m, sd in zip(models, ck["models"]):
            m.load_state_dict(sd)
        out, u0 = ck["out"], ck["u"]
        lm.set_rng_state(ck["rng"], device)

    def log(u, losses):
        W_ref = models[-2].w_hh.detach().double()
        out["update"].append(u)
        out["dist"].append([lm.spectral_norm(m.w_hh.detach().double() - W_ref) for m in models[:-2]])
        out["floor"].append(lm.spectral_norm(models[-1].w_hh.detach().double() - W_ref))
        out["norm_ref"].append(lm.spectral_norm(W_ref))
        out["loss"].append(losses)

    if ck is None:
        log(0, [float("nan")] * len(models))
        u0 = 0
    for u in range(u0 + 1, updates + 1):
        i = starts[(u - 1) % len(starts)]
        x_ext, y = data[i - (k_ref - 1):i + L], data[i + 1:i + L + 1]
        losses = []
        for k, m in zip(kk, models):
            loss = F.cross_entropy(windowed_logits(m, x_ext, k, L).reshape(-1, cfg.vocab), y.reshape(-1))
            sgd_step(m, loss, cfg.lr, cfg.clip)
            losses.append(float(loss.detach()))
        if u % log_every == 0 or u == updates:
            log(u, losses)
        halt = stop is not None and stop()
        if halt or u % log_every == 0 or (checkpoint_every and u % checkpoint_every == 0) or u == updates:
            _save_sweep(checkpoint, models, key=key, out=out, u=u, rng=lm.rng_state(device))
        if halt and u < updates:
            raise lm.TrainingInterrupted(f"stopped after update {u}; checkpoint {checkpoint}")
    return {key: np.asarray(v, dtype=np.float64) for key, v in out.items()}


def train_tbptt_sweep(cfg: lm.LMConfig, ks: list[int], k_ref: int, *, ids: torch.Tensor, seed: int,
                      tokens: int, n_logs: int, device: str = "cpu", checkpoint: str | Path | None = None,
                      checkpoint_every: int | None = None, stop: Callable[[], bool] | None = None) -> dict:
    """TBPTT reading: one model per k (bptt = k, state carried and detached), each trained on the same
    first ``tokens`` tokens of the stream (batchified); W_hh recorded at n_logs + 1 evenly spaced row
    counts. Returns dict(rows (n_logs + 1,), dist (n_logs + 1, len(ks)) = ‖W_k − W_ref‖₂, norm_ref).
    ``checkpoint``, ``checkpoint_every``, ``stop``: as in :func:`train_window_sweep` (saved after every
    model and every ``checkpoint_every`` updates)."""
    if cfg.dropout != 0:
        raise ValueError("use dropout 0")
    if min(list(ks) + [k_ref]) < 1:
        raise ValueError(f"truncation lengths must be >= 1, got ks = {list(ks)}, k_ref = {k_ref}")
    data = wikitext.batchify(ids, cfg.batch).to(device)
    rows = min(tokens // cfg.batch, data.shape[0] - 1)
    marks = np.linspace(0, rows, n_logs + 1).astype(int)
    key = dict(cfg=cfg.to_dict(), ks=list(ks), k_ref=k_ref, seed=seed, tokens=tokens, n_logs=n_logs)
    ck = lm.load_checkpoint(checkpoint) if checkpoint is not None else None
    if ck is not None and ck["key"] != key:
        raise ValueError(f"checkpoint {checkpoint} was written for another sweep: {ck['key']}")
    snaps = ck["snaps"] if ck is not None else []
    for j, k in enumerate(list(ks) + [k_ref]):
        if j < len(snaps):
            continue
        m = lm.new_model(cfg, seed, device)
        Ws, state, r, nxt, n_up = [m.w_hh.detach().double().cpu().clone()], None, 0, 1, 0
        if ck is not None and ck["current"] is not None:
            m.load_state_dict(ck["models"][0])
            Ws, r, nxt, n_up = ck["current"]["Ws"], ck["current"]["r"], ck["current"]["nxt"], ck["current"]["n_up"]
            state = lm._to_device(ck["current"]["carry"], device)
            lm.set_rng_state(ck["rng"], device)
            ck = None
        for guard in itertools.count(1):      # each update advances r by Lk >= 1, so at most `rows` of them
            if r >= rows:
                break
            if guard > rows:
                raise RuntimeError(f"truncated-BPTT sweep ran away: k = {k} made {guard - 1} updates without "
                                   f"reaching row {rows} (at row {r})")
            Lk = min(k, rows - r)
            x, y = data[r:r + Lk], data[r + 1:r + 1 + Lk]
            state = lm._detach(state)
            logits, state = m(x, state)
            sgd_step(m, F.cross_entropy(logits.reshape(-1, cfg.vocab), y.reshape(-1)), cfg.lr, cfg.clip)
            r += Lk
            n_up += 1
            while nxt <= n_logs and r >= marks[nxt]:
                Ws.append(m.w_hh.detach().double().cpu().clone())
                nxt += 1
            halt = stop is not None and stop()
            if r < rows and (halt or (checkpoint_every and n_up % checkpoint_every == 0)):
                _save_sweep(checkpoint, [m], key=key, snaps=snaps, rng=lm.rng_state(device),
                            current=dict(Ws=Ws, r=r, nxt=nxt, n_up=n_up, carry=lm._detach(state)))
                if halt:
                    raise lm.TrainingInterrupted(f"stopped at k = {k}, row {r}; checkpoint {checkpoint}")
        snaps.append(torch.stack(Ws))
        _save_sweep(checkpoint, [], key=key, snaps=snaps, rng=lm.rng_state(device), current=None)
    ref = snaps[-1]
    dist = np.array([[lm.spectral_norm(s[j] - ref[j]) for s in snaps[:-1]] for j in range(n_logs + 1)])
    return {"rows": marks.astype(np.float64), "dist": dist,
            "norm_ref": np.array([lm.spectral_norm(W) for W in ref])}


#: Distances within this factor of the round-off floor are not interpreted.
FLOOR_FACTOR = 10.0


def sweep_statistics(dist: np.ndarray, floor: np.ndarray, update: np.ndarray) -> dict:
    """What the chapter reads off one sliding-window sweep: dist (n_log, len(ks)) = ‖W_k − W_ref‖₂,
    floor (n_log,) = the reference against its last-bit twin, update (n_log,), ks ascending.

    Returns: above (how many k end above FLOOR_FACTOR × floor); order (largest ratio of consecutive
    final distances over those k: ≤ 1 when the distance decreases with k; nan with fewer than two);
    growth (median d(end)/d(half-way) over k above the floor at both); plateau (median d(50)/d(10) over
    k above the floor at update 10; nan when none is);
    chaos and chaos_early (the floor against the largest distance for k from the third on, at the
    end and at update 10)."""
    d, fl, upd = np.asarray(dist), np.asarray(floor), np.asarray(update)
    i10, i50, mid = (int(np.searchsorted(upd, u)) for u in (10, 50, upd[-1] / 2))
    ok = d[-1] >= FLOOR_FACTOR * fl[-1]
    dd = d[-1][ok]
    okm = ok & (d[mid] >= FLOOR_FACTOR * fl[mid])
    ok10 = d[i10] >= FLOOR_FACTOR * fl[i10]
    return dict(above=int(ok.sum()),
                order=float((dd[1:] / dd[:-1]).max()) if ok.sum() >= 2 else float("nan"),
                growth=float(np.median(d[-1][okm] / d[mid][okm])) if okm.any() else float("nan"),
                plateau=float(np.median(d[i50][ok10] / d[i10][ok10])) if ok10.any() else float("nan"),
                chaos=float(fl[-1] / d[-1][2:].max()), chaos_early=float(fl[i10] / d[i10][2:].max()))
