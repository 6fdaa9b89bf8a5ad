"""Reduced WikiText-2 word language model for Figure 6 (tied LSTM; trained on the official *test* split).

The official training split is not available here: we train on ``test.txt`` and validate on
``valid.txt``; perplexities are therefore not comparable with the literature (or the paper's 106).
"""

from __future__ import annotations

import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from rnnrepro.core import cells
from rnnrepro.data import wikitext
from rnnrepro.book.artifacts import save_artifact
from rnnrepro.ribeiro.temporal_order import flat, set_flat

#: Reduced configuration (the paper: vocabulary 33,278, embedding = hidden = 800, dropout 0.5, BPTT 80,
#: batch 100, Adam with plateau schedule, ≤ 100 epochs, trained on the 2.1M-token training split).
LM_CONFIG = dict(vocab=2500, hidden=64, dropout=0.2, bptt=35, batch=32, lr=1e-3, clip=0.25, epochs=6,
                 n_val_tokens=40_000, log_every=20)


#: The paper's configuration (A.3), for a user with the full dataset ($RNNREPRO_DATA/wikitext-2/train.txt).
LM_PAPER_CONFIG = dict(vocab=None, hidden=800, dropout=0.5, bptt=80, batch=100, lr=1e-3, clip=0.25, epochs=100,
                       n_val_tokens=None, log_every=100)


class TiedLM(nn.Module):
    """Embedding(V, H) -> dropout -> LSTM(H, H) -> dropout -> Linear(H, V) with tied weights."""

    def __init__(self, vocab: int, hidden: int, dropout: float):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.lstm = nn.LSTM(hidden, hidden)
        self.drop = nn.Dropout(dropout)
        self.dec = nn.Linear(hidden, vocab)
        self.dec.weight = self.emb.weight
        nn.init.uniform_(self.emb.weight, -0.1, 0.1)
        nn.init.zeros_(self.dec.bias)

    def forward(self, x, state=None):
        """x (L, B) ids -> logits (L, B, V), new state."""
        out, state = self.lstm(self.drop(self.emb(x)), state)
        return self.dec(self.drop(out)), state


def corpus(cfg: dict = LM_CONFIG, train_split: bool = False):
    """(vocab, train ids (n,), val ids): vocabulary from the training text, which is the official *test*
    split unless ``train_split`` (the official train.txt, when a user has it); validation = official valid split."""
    tr = wikitext.tokens("train") if train_split else wikitext.tokens("test")
    va = wikitext.tokens("valid")[:cfg["n_val_tokens"]]
    vocab = wikitext.Vocab(tr, cfg["vocab"])
    if cfg["vocab"] is None:
        cfg["vocab"] = len(vocab)
    return vocab, vocab.encode(tr), vocab.encode(va)


def new_model(cfg: dict, seed: int) -> TiedLM:
    """Float32 model after torch.manual_seed(seed)."""
    torch.manual_seed(seed)
    return TiedLM(cfg["vocab"], cfg["hidden"], cfg["dropout"]).float()


@torch.no_grad()
def evaluate(model, ids: torch.Tensor, cfg: dict = LM_CONFIG) -> float:
    """Mean cross entropy (nats/token) with eval() (no dropout), stateful over BPTT windows, batch 10."""
    model.eval()
    data = wikitext.batchify(ids, 10)
    tot, n, state = 0.0, 0, None
    for x, y in wikitext.bptt_windows(data, cfg["bptt"]):
        logits, state = model(x, state)
        tot += float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), reduction="sum"))
        n += y.numel()
    model.train()
    return tot / n


def train(model, train_ids, val_ids, cfg: dict = LM_CONFIG, max_updates: int | None = None, verbose=False):
    """Stateful truncated BPTT with Adam and clipping. Returns history dict: per-update training loss
    ('update', 'train_loss') and per-epoch validation loss ('epoch', 'val_loss', at epoch 0 too)."""
    torch.set_num_threads(1)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"], betas=(0.9, 0.999))
    data = wikitext.batchify(train_ids, cfg["batch"])
    h = {"update": [], "train_loss": [], "epoch": [0], "val_loss": [evaluate(model, val_ids, cfg)]}
    u = 0
    for ep in range(1, cfg["epochs"] + 1):
        state = None
        for x, y in wikitext.bptt_windows(data, cfg["bptt"]):
            if state is not None:
                state = tuple(s.detach() for s in state)
            logits, state = model(x, state)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), cfg["clip"])
            opt.step()
            u += 1
            h["update"].append(u)
            h["train_loss"].append(float(loss.detach()))
            if max_updates is not None and u >= max_updates:
                return h
        h["epoch"].append(ep)
        h["val_loss"].append(evaluate(model, val_ids, cfg))
        if verbose:
            print(f"epoch {ep}: val loss {h['val_loss'][-1]:.4f} (ppl {np.exp(h['val_loss'][-1]):.1f})", flush=True)
    return h


def train_and_save(directory, seed: int, command: str):
    """Train the reduced model; save theta_final and the history as artefact 'lm' (θ_init is regenerated
    from the seed by :func:`new_model`; its sha256 is stored in the config)."""
    cfg = dict(LM_CONFIG, seed=seed)
    vocab, tr, va = corpus(cfg)
    model = new_model(cfg, seed)
    theta_init = flat(model)
    t0 = time.process_time()
    hist = train(model, tr, va, cfg, verbose=True)
    cfg["cpu_s"] = time.process_time() - t0
    cfg["vocab_head"] = vocab.itos[:20]
    cfg["theta_init_sha256"] = theta_sha256(theta_init)
    save_artifact(directory, "lm", {"theta_final": flat(model)}, history=hist, config=cfg, command=command)


def theta_sha256(theta: torch.Tensor) -> str:
    """sha256 of a float32 parameter vector's bytes (θ_init is regenerated from the seed, not shipped)."""
    import hashlib
    return hashlib.sha256(theta.detach().to(torch.float32).contiguous().numpy().tobytes()).hexdigest()


def functional(model: TiedLM, thetas: torch.Tensor) -> dict:
    """Flat vectors (P, D) -> emb (P, V, H), W_ih, W_hh (P, 4H, H), b_ih, b_hh (P, 4H), dec_b (P, V)."""
    out, k = [], 0
    for q in model.parameters():
        n = q.numel()
        out.append(thetas[:, k:k + n].reshape((thetas.shape[0],) + tuple(q.shape)))
        k += n
    emb, W_ih, W_hh, b_ih, b_hh, dec_b = out
    return dict(emb=emb, W_ih=W_ih, W_hh=W_hh, b_ih=b_ih, b_hh=b_hh, dec_b=dec_b)


@torch.no_grad()
def line_cost(model: TiedLM, thetas: torch.Tensor, ids: torch.Tensor, cfg: dict = LM_CONFIG) -> np.ndarray:
    """Validation cross entropy (S,) at each parameter vector (S, D), eval mode, float32."""
    keep = flat(model)
    out = []
    for th in thetas:
        set_flat(model, th)
        out.append(evaluate(model, ids, cfg))
    set_flat(model, keep)
    return np.array(out)


@torch.no_grad()
def bifurcation(model: TiedLM, thetas: torch.Tensor, token_ids, n_ic: int = 10, n_steps: int = 1500,
                window: int = 500, seed: int = 0):
    """Steady states under a constant input token, float64, h0, c0 ~ N(0, 1).

    thetas (P, D); token_ids (K,). Returns (logit of each input token at the last ``window`` steps
    (P, K, n_ic, window), spread of h over initial conditions and the window (P, K), max |c| over the run
    up to the window's start and up to the end (P, K, 2): a growing value means a cell state that drifts
    while h is saturated)."""
    f = functional(model, thetas.double())
    P, K = thetas.shape[0], len(token_ids)
    tok = torch.as_tensor(token_ids)
    x = f["emb"][:, tok].repeat_interleave(n_ic, 1)                         # (P, K·n_ic, H)
    H = f["W_hh"].shape[2]
    g = torch.Generator().manual_seed(seed)
    h = torch.randn(1, K * n_ic, H, generator=g, dtype=torch.float64).expand(P, -1, -1)
    c = torch.randn(1, K * n_ic, H, generator=g, dtype=torch.float64).expand(P, -1, -1)
    row = f["emb"][:, tok]                                                   # readout rows (P, K, H)
    logits, hs, cmax = [], [], torch.zeros(P, K * n_ic, dtype=torch.float64)
    cmax_start = cmax.clone()
    for t in range(n_steps):
        h, c = cells.lstm_step(h, c, x, f["W_ih"], f["W_hh"], f["b_ih"], f["b_hh"])
        cmax = torch.maximum(cmax, c.abs().amax(-1))
        if t == n_steps - window - 1:
            cmax_start = cmax.clone()
        if t >= n_steps - window:
            hk = h.view(P, K, n_ic, H)
            logits.append(torch.einsum("pkih,pkh->pki", hk, row) + f["dec_b"][:, tok][:, :, None])
            hs.append(hk)
    L = torch.stack(logits, 3)                                               # (P, K, n_ic, window)
    Hs = torch.stack(hs, 3)                                                  # (P, K, n_ic, window, H)
    spread = (Hs - Hs.median(2, keepdim=True).values.median(3, keepdim=True).values).abs().amax((2, 3, 4))
    cm = torch.stack([cmax_start, cmax], -1).view(P, K, n_ic, 2).amax(2)
    return L.numpy(), spread.numpy(), cm.numpy()
