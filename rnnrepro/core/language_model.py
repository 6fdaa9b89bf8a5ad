"""Word-level language model of the book: one model, one corpus, one evaluation, one trainer (ribeiro, miller).

The recipe of pytorch/examples ``word_language_model`` (the code Miller & Hardt used): embedding ->
dropout -> one recurrent layer (tanh RNN or LSTM) -> dropout -> linear decoder; uniform(-0.1, 0.1)
embedding (and decoder, unless it is tied to the embedding), decoder bias 0, PyTorch's default recurrent
initialisation; the state carried across BPTT windows and detached; gradient-norm clipping. The options
the chapters need are fields of :class:`LMConfig`:

- miller (§7.2): untied, plain SGD with the step divided by ``anneal`` whenever the validation loss does
  not improve, the best-validation weights kept; ``train`` takes an optional hook called after every
  update (the projection of W_hh onto a spectral ball, :mod:`rnnrepro.miller.spectral_ball`).
- ribeiro (Fig. 6): the decoder tied to the embedding (``tied``), Adam (``optimizer="adam"``), constant
  step (``anneal=1``), the last epoch's weights (``keep_best=False``).

Data: :func:`corpus` trains on the official *test* split (the official training split is absent where
the book is built), validates on the first half of the official *valid* split (or on its first
``valid_tokens`` tokens) and tests on its second half. Perplexities are not comparable with the literature's.
"""

from __future__ import annotations

import copy
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from rnnrepro.data import wikitext

CELLS = ("rnn", "lstm")
OPTIMIZERS = ("sgd", "adam")
#: Fields added when the two chapters' stacks were merged, at the values that reproduce the older
#: (miller) configurations: a checkpoint written before them still resumes.
_MERGED_FIELDS = dict(tied=False, optimizer="sgd", keep_best=True)


@dataclass(frozen=True)
class LMConfig:
    """Model and training hyperparameters (defaults: a small CPU model, untied, SGD)."""
    cell: str = "rnn"        #: "rnn" (tanh) or "lstm"
    vocab: int = 2000        #: vocabulary size (most frequent training words, <unk> for the rest)
    emb: int = 64            #: embedding size
    hidden: int = 64         #: hidden units
    dropout: float = 0.25    #: on the embedding output and on the recurrent output
    lr: float = 2.0          #: initial step size
    clip: float = 0.25       #: gradient-norm clipping
    bptt: int = 35           #: BPTT window length
    batch: int = 20          #: training batch size
    epochs: int = 3          #: passes over the training text
    anneal: float = 4.0      #: step divisor when the validation loss does not improve (1: constant step)
    tied: bool = False       #: decoder weight = embedding matrix (needs emb == hidden)
    optimizer: str = "sgd"   #: "sgd" (plain SGD) or "adam" (Adam, betas 0.9, 0.999)
    keep_best: bool = True   #: end with the best-validation weights (else the last epoch's)

    def __post_init__(self):
        if self.cell not in CELLS:
            raise ValueError(f"cell must be one of {CELLS}, got {self.cell!r}")
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be one of {OPTIMIZERS}, got {self.optimizer!r}")
        for name in ("vocab", "emb", "hidden", "bptt", "batch"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.tied and self.emb != self.hidden:
            raise ValueError(f"tied weights need emb == hidden, got {self.emb} and {self.hidden}")
        if not 0 <= self.dropout < 1:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout}")
        if self.epochs < 0 or not self.lr > 0 or not self.anneal >= 1:
            raise ValueError(f"need epochs >= 0, lr > 0, anneal >= 1; got {self.epochs}, {self.lr}, {self.anneal}")

    def to_dict(self) -> dict:
        return asdict(self)


class WordLM(nn.Module):
    """Embedding(V, E) -> dropout -> RNN(tanh)/LSTM(E, H) -> dropout -> Linear(H, V), the decoder's weight
    the embedding matrix when ``cfg.tied``.

    Parameters in this order (``parameters()``, flat vectors): ``enc.weight`` (V, E), the recurrent layer's
    ``weight_ih_l0`` (G·H, E), ``weight_hh_l0`` (G·H, H), ``bias_ih_l0``, ``bias_hh_l0`` (G·H,) with G = 1
    (RNN) or 4 (LSTM), ``dec.weight`` (V, H; absent when tied) and ``dec.bias`` (V,)."""

    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.cell = cfg.cell
        self.enc = nn.Embedding(cfg.vocab, cfg.emb)
        self.rnn = (nn.RNN(cfg.emb, cfg.hidden, nonlinearity="tanh") if cfg.cell == "rnn"
                    else nn.LSTM(cfg.emb, cfg.hidden))
        self.drop = nn.Dropout(cfg.dropout)
        self.dec = nn.Linear(cfg.hidden, cfg.vocab)
        if cfg.tied:
            self.dec.weight = self.enc.weight
        nn.init.uniform_(self.enc.weight, -0.1, 0.1)
        if not cfg.tied:
            nn.init.uniform_(self.dec.weight, -0.1, 0.1)
        nn.init.zeros_(self.dec.bias)

    def forward(self, x: torch.Tensor, state=None):
        """x (L, B) ids -> logits (L, B, V), new state (h (1, B, H), or (h, c) for the LSTM)."""
        out, state = self.rnn(self.drop(self.enc(x)), state)
        return self.dec(self.drop(out)), state

    @property
    def w_hh(self) -> torch.Tensor:
        """The hidden-to-hidden matrix (H, H) for the RNN, (4H, H) = [W_i; W_f; W_g; W_o] for the LSTM."""
        return self.rnn.weight_hh_l0


def new_model(cfg: LMConfig, seed: int, device: str = "cpu") -> WordLM:
    """A float32 model initialised after ``torch.manual_seed(seed)``, under a float32 default dtype
    (the same draws whatever the caller's default dtype is)."""
    prev = torch.get_default_dtype()
    torch.set_default_dtype(torch.float32)
    try:
        torch.manual_seed(seed)
        return WordLM(cfg).to(device)
    finally:
        torch.set_default_dtype(prev)


def perturb_last_bit(W: torch.Tensor) -> torch.Tensor:
    """Move every entry of ``W`` (in place, no grad) one float up to its next representable value: the
    initial difference of a *last-bit twin*, whose later distance is round-off amplified by training."""
    with torch.no_grad():
        W.copy_(torch.nextafter(W, torch.full_like(W, float("inf"))))
    return W


class Corpus(NamedTuple):
    vocab: wikitext.Vocab
    train: torch.Tensor   #: (n,) ids
    valid: torch.Tensor
    test: torch.Tensor


def corpus(vocab_size: int | None, *, train_split: bool = False, valid_tokens: int | None = None) -> Corpus:
    """The split substitution: train on the official test split (or ``train.txt`` when ``train_split``),
    validate on the first half of the official valid split, test on its second half (with
    ``train_split``: the official valid and test splits). ``valid_tokens``: validate on the first that many
    tokens of the validation split only (None: all of it). Vocabulary: the ``vocab_size`` most frequent
    training tokens (None: all of them)."""
    if train_split:
        tr, va, te = wikitext.tokens("train"), wikitext.tokens("valid"), wikitext.tokens("test")
    else:
        tr, held = wikitext.tokens("test"), wikitext.tokens("valid")
        va, te = held[:len(held) // 2], held[len(held) // 2:]
    vocab = wikitext.Vocab(tr, vocab_size)
    return Corpus(vocab, vocab.encode(tr), vocab.encode(va[:valid_tokens]), vocab.encode(te))


def spectral_norm(W: torch.Tensor) -> float:
    """Largest singular value of W, computed in float64 on the CPU (for a 256 × 256 matrix about twice as
    fast there as on an H100)."""
    return float(torch.linalg.matrix_norm(W.detach().double().cpu(), ord=2))


def _detach(state):
    if state is None:
        return None
    return tuple(s.detach() for s in state) if isinstance(state, tuple) else state.detach()


@torch.no_grad()
def evaluate(model: WordLM, ids: torch.Tensor, bptt: int = 35, batch: int = 10) -> float:
    """Mean cross entropy (nats/token) of ids (n,) in eval mode (no dropout), the stream cut into ``batch``
    columns, state carried over BPTT windows of length ``bptt``."""
    was = model.training
    model.eval()
    dev = next(model.parameters()).device
    data = wikitext.batchify(ids, batch).to(dev)
    tot, n, state = 0.0, 0, None
    for x, y in wikitext.bptt_windows(data, bptt):
        logits, state = model(x, state)
        tot += float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), reduction="sum"))
        n += y.numel()
    model.train(was)
    return tot / n


class TrainingInterrupted(RuntimeError):
    """Training stopped at a checkpoint because ``stop()`` said so; running it again resumes it."""


def rng_state(device) -> dict:
    """The random generators that training draws from: torch's CPU one, and the device's for CUDA."""
    st = {"cpu": torch.get_rng_state()}
    if torch.device(device).type == "cuda":
        st["cuda"] = torch.cuda.get_rng_state(device)
    return st


def set_rng_state(st: dict, device) -> None:
    """Restore what :func:`rng_state` returned."""
    torch.set_rng_state(st["cpu"])
    if "cuda" in st:
        torch.cuda.set_rng_state(st["cuda"], device)


def save_checkpoint(path: str | os.PathLike, obj: dict) -> None:
    """``torch.save(obj)`` to ``path`` atomically: written to a temporary file in the same folder, flushed to
    disk, then renamed over ``path`` (an interruption leaves the previous checkpoint intact)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            torch.save(obj, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_checkpoint(path: str | os.PathLike) -> dict | None:
    """The checkpoint at ``path`` (tensors on the CPU), or None when there is none."""
    path = Path(path)
    return torch.load(path, map_location="cpu", weights_only=True) if path.is_file() else None


def _to_device(state, dev):
    if state is None:
        return None
    return tuple(s.to(dev) for s in state) if isinstance(state, (tuple, list)) else state.to(dev)


def _optimizer(model: WordLM, cfg: LMConfig) -> torch.optim.Optimizer | None:
    """Adam for ``cfg.optimizer == "adam"``; None for plain SGD (applied by hand, as pytorch/examples does)."""
    return torch.optim.Adam(model.parameters(), lr=cfg.lr, betas=(0.9, 0.999)) if cfg.optimizer == "adam" else None


def _step(model: WordLM, opt: torch.optim.Optimizer | None, lr: float) -> None:
    if opt is None:
        with torch.no_grad():
            for q in model.parameters():
                q.add_(q.grad, alpha=-lr)
    else:
        for group in opt.param_groups:
            group["lr"] = lr
        opt.step()


def train(model: WordLM, train_ids: torch.Tensor, valid_ids: torch.Tensor, cfg: LMConfig, *,
          hook: Callable[[WordLM], None] | None = None, max_updates: int | None = None,
          record_norm: bool = True, on_epoch: Callable[[WordLM, int], object] | None = None,
          verbose: bool = False, checkpoint: str | os.PathLike | None = None,
          checkpoint_every: int | None = None, stop: Callable[[], bool] | None = None) -> dict:
    """Truncated BPTT over train_ids (n,) with clipping, SGD or Adam (``cfg.optimizer``) and annealing;
    ``hook(model)`` after every update (and once before training).

    Returns the history: per update 'train_loss' and 'norm' (‖W_hh‖₂ after the hook; empty unless
    ``record_norm``), per epoch 'epoch', 'val_loss' on valid_ids (epoch 0 = initialisation) and 'lr';
    'best_epoch'; 'on_epoch': what ``on_epoch`` returned (None results are not kept).
    With ``cfg.keep_best`` the model ends with the best-validation weights (the pytorch/examples convention),
    else with the last epoch's. ``on_epoch(model, epoch)`` is called at initialisation and after every
    epoch (before the reload). ``max_updates`` stops early (no validation after the stop).

    ``checkpoint``: a file that holds the whole training state (weights, step size, optimiser state, best
    weights, carried state, position, history, random generators), written atomically after every epoch,
    every ``checkpoint_every`` updates and when ``stop()`` (asked after every update) returns True, which
    then raises :class:`TrainingInterrupted`. If the file exists, training resumes from it bit for bit (a
    finished run's file returns its history and final weights at once)."""
    dev = next(model.parameters()).device
    model.train()
    data = wikitext.batchify(train_ids, cfg.batch).to(dev)
    opt = _optimizer(model, cfg)
    ck = load_checkpoint(checkpoint) if checkpoint is not None else None
    if ck is not None:
        if {**_MERGED_FIELDS, **ck["cfg"]} != cfg.to_dict():
            raise ValueError(f"checkpoint {checkpoint} was written for another configuration: {ck['cfg']}")
        model.load_state_dict(ck["model"])
        if ck["done"]:
            return ck["h"]
        if opt is not None:
            opt.load_state_dict(ck["opt"])
        h, lr, best, best_state, u = ck["h"], ck["lr"], ck["best"], ck["best_state"], ck["u"]
        best_state = copy.deepcopy(model.state_dict()) if best_state is None else best_state
        first_ep, skip, carry = ck["epoch"], ck["window"], _to_device(ck["carry"], dev)
        set_rng_state(ck["rng"], dev)
    else:
        if hook is not None:
            hook(model)
        lr = cfg.lr
        h = {"train_loss": [], "norm": [], "epoch": [0], "val_loss": [evaluate(model, valid_ids, cfg.bptt)],
             "lr": [lr], "on_epoch": []}
        if on_epoch is not None and (r := on_epoch(model, 0)) is not None:
            h["on_epoch"].append(r)
        best, best_state, u = h["val_loss"][0], copy.deepcopy(model.state_dict()) if cfg.keep_best else None, 0
        h["best_epoch"] = 0
        first_ep, skip, carry = 1, 0, None

    def save(epoch, window, carry_state, done=False, best_is_model=False):
        if checkpoint is not None:      # best_state None: the best weights are the model's (half the size)
            save_checkpoint(checkpoint, dict(cfg=cfg.to_dict(), done=done, model=model.state_dict(), h=h, lr=lr,
                                             best=best, best_state=None if best_is_model else best_state, u=u,
                                             epoch=epoch, window=window, carry=_detach(carry_state),
                                             rng=rng_state(dev), **({} if opt is None else {"opt": opt.state_dict()})))

    for ep in range(first_ep, cfg.epochs + 1):
        state = carry if ep == first_ep else None
        for i, (x, y) in enumerate(wikitext.bptt_windows(data, cfg.bptt)):
            if ep == first_ep and i < skip:
                continue
            state = _detach(state)
            logits, state = model(x, state)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
            model.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
            _step(model, opt, lr)
            if hook is not None:
                hook(model)
            h["train_loss"].append(float(loss.detach()))
            if record_norm:
                h["norm"].append(spectral_norm(model.w_hh))
            u += 1
            if max_updates is not None and u >= max_updates:
                return h
            halt = stop is not None and stop()
            if halt or (checkpoint_every and u % checkpoint_every == 0):
                save(ep, i + 1, state)
            if halt:
                raise TrainingInterrupted(f"stopped after update {u} (epoch {ep}); checkpoint {checkpoint}")
        v = evaluate(model, valid_ids, cfg.bptt)
        if on_epoch is not None and (r := on_epoch(model, ep)) is not None:
            h["on_epoch"].append(r)
        improved = v < best
        if improved:
            best, h["best_epoch"] = v, ep
            best_state = copy.deepcopy(model.state_dict()) if cfg.keep_best else None
        else:
            lr /= cfg.anneal
        h["epoch"].append(ep)
        h["val_loss"].append(v)
        h["lr"].append(lr)
        if verbose:
            print(f"{cfg.cell} epoch {ep}: val ppl {np.exp(v):.2f} lr {lr:g}", flush=True)
        save(ep + 1, 0, None, best_is_model=improved or not cfg.keep_best)
    if cfg.keep_best:
        model.load_state_dict(best_state)
    save(cfg.epochs + 1, 0, None, done=True, best_is_model=True)
    return h


def perplexity(loss: float) -> float:
    """exp(mean cross entropy in nats)."""
    return float(np.exp(loss))


def synthetic_corpus(n: int = 7000) -> Corpus:
    """A small deterministic corpus for tests (17 word types, a quadratic-residue pattern broken every
    fifth word): train, valid, test = the first 5/7, the next 1/7 and the last 1/7 of ``n`` tokens."""
    toks = [str((i * i) % 17 if i % 5 else i % 17) for i in range(n)]
    vocab = wikitext.Vocab(toks)
    ids = vocab.encode(toks)
    a, b = 5 * n // 7, 6 * n // 7
    return Corpus(vocab, ids[:a], ids[a:b], ids[b:])
