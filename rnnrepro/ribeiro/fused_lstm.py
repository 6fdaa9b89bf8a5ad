"""The fused CPU trainer: :class:`BatchedTrainer` with the forward and backward pass of every seed in C++.

The temporal-order classifier (LSTM(6, 50) + Linear(50, 4), the authors' setting) spends its time in
small matrix products (a batch of 100 sequences times a 50 × 200 matrix, twice per time step) and in the
gate arithmetic between them. Autograd runs that arithmetic as a dozen separate operations per step, each
saving its inputs; ``fused_lstm.cpp`` does it in one pass per step and direction, accumulates the
recurrent weight gradient as one product over all steps, and trains the seeds on separate threads.
Clipping and Adam are :class:`BatchedTrainer`'s, so a seed follows it (and the authors' loop) within
float32 round-off. The extension is compiled once per machine with torch's C++ toolchain (about a
minute) into ``$RNNREPRO_BUILD_DIR`` (default ``~/.cache/rnnrepro``).

The extension is optional: :func:`cpu_trainer` (what ``paper_sweep.trainer_class`` gives on the CPU) falls back to
:class:`BatchedTrainer`, the same training in plain PyTorch (autograd; a seed follows the fused trainer within
float32 round-off, slower), with one line on stderr, where no C++ compiler or ninja is found or the CPU is not
x86-64 (the extension is built with AVX2 and FMA).
"""
from __future__ import annotations

import os
import platform
import shutil
import sys
from pathlib import Path

import torch

from rnnrepro.book.machine import note_fallback
from rnnrepro.ribeiro.batched_training import BatchedTrainer

SOURCE = Path(__file__).with_name("fused_lstm.cpp")
_EXTENSION = None


def build_dir() -> Path:
    """Where the compiled extension is cached: ``$RNNREPRO_BUILD_DIR/fused_lstm-torch<version>``."""
    root = Path(os.environ.get("RNNREPRO_BUILD_DIR", Path.home() / ".cache" / "rnnrepro"))
    return root / f"fused_lstm-torch{torch.__version__.replace('+', '_')}"


def extension():
    """The compiled C++ module (built on first use; RuntimeError naming the build folder if that fails)."""
    global _EXTENSION
    if _EXTENSION is None:
        from torch.utils.cpp_extension import load
        folder = build_dir()
        folder.mkdir(parents=True, exist_ok=True)
        try:
            # -ffast-math only when compiling (lets gcc vectorise exp and tanh through glibc's libmvec); the
            # link step gets no flag, so the process's denormal handling is left alone (tested).
            _EXTENSION = load(name="rnnrepro_fused_lstm", sources=[str(SOURCE)], build_directory=str(folder),
                              extra_cflags=["-O3", "-mavx2", "-mfma", "-ffast-math"], verbose=False)
        except Exception as err:   # noqa: BLE001 (compiler errors come as several exception types)
            raise RuntimeError(f"could not compile the fused LSTM trainer in {folder} ({err}); "
                               "use BatchedTrainer instead (sweep_runner --trainer batched)") from err
    return _EXTENSION


def missing_toolchain() -> str:
    """Why the extension cannot be built here ("" when it can be tried): a CPU that is not x86-64, no C++ compiler
    (``$CXX``, else ``c++``; ``cl`` on Windows) on the PATH, or no ninja (torch builds extensions with it)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return f"a {platform.machine() or 'non-x86'} CPU (the extension is built for x86-64 with AVX2 and FMA)"
    cxx = os.environ.get("CXX") or ("cl" if sys.platform == "win32" else "c++")
    if shutil.which(cxx) is None:
        return f"no C++ compiler ({cxx}) on the PATH"
    from torch.utils.cpp_extension import is_ninja_available
    if not is_ninja_available():
        return "no ninja on the PATH"
    return ""


_FALLBACK_SAID = False
#: The name under which a run without the extension is recorded in its ledger (``environment.fallbacks``).
FALLBACK = "ribeiro.fused_lstm"


def cpu_trainer() -> type[BatchedTrainer]:
    """:class:`FusedTrainer` where its extension is (or can be) built, else :class:`BatchedTrainer` (the same
    training in plain PyTorch), saying so once on stderr and in the ledger (``environment.fallbacks``): what a CPU
    run uses, so that a machine without a compiler runs the book."""
    global _FALLBACK_SAID
    reason = "" if _EXTENSION is not None else missing_toolchain()
    if not reason:
        try:
            extension()
            return FusedTrainer
        except RuntimeError as err:
            reason = str(err.__cause__ or err).splitlines()[0][:200]
    note_fallback(FALLBACK, reason)
    if not _FALLBACK_SAID:
        print(f"note: the fused C++ LSTM trainer is not available ({reason}); training with the pure-PyTorch "
              f"BatchedTrainer instead (the same results within float32 round-off, slower)", file=sys.stderr)
        _FALLBACK_SAID = True
    return BatchedTrainer


class Workspace:
    """Buffers of one batch shape, reused across steps: activations (S, T, n, 4H), cell and hidden states
    (S, T+1, n, H), tanh of the cell states (S, T, n, H), pre-activation gradients (S, T, n, 4H)."""

    def __init__(self, S: int, T: int, n: int, H: int, K: int):
        z = lambda *shape: torch.empty(shape, dtype=torch.float32)
        self.shape = (S, T, n, H, K)
        self.A, self.C, self.Hs, self.TC, self.dG = z(S, T, n, 4 * H), z(S, T + 1, n, H), z(S, T + 1, n, H), \
            z(S, T, n, H), z(S, T, n, 4 * H)
        self.ce, self.logits = z(S, n), z(S, n, K)


def loss_and_grads(params: list[torch.Tensor], sym: torch.Tensor, y: torch.Tensor, *, scale: float = 1.0,
                   workspace: Workspace | None = None) -> tuple[torch.Tensor, torch.Tensor, list[torch.Tensor]]:
    """Per-sample cross entropy (S, n), logits (S, n, K) and the gradients of ``scale`` × the summed cross
    entropy w.r.t. the six stacked parameters (``BatchedTrainer.params`` order: W_ih (S, 4H, 6), W_hh (S, 4H, H),
    b_ih, b_hh (S, 4H), W_out (S, K, H), b_out (S, K)), for symbol sequences sym (T, n) int64, labels y (n,)."""
    Wih, Whh, bih, bhh, Wo, bo = (p.detach().contiguous() for p in params)
    S, G, H = Whh.shape
    T, n = sym.shape
    K = Wo.shape[1]
    ws = workspace if workspace is not None and workspace.shape == (S, T, n, H, K) else Workspace(S, T, n, H, K)
    dWihT, dWhh, db = torch.empty(S, Wih.shape[2], G, dtype=Whh.dtype), torch.empty_like(Whh), torch.empty_like(bih)
    dWo, dbo = torch.empty_like(Wo), torch.empty_like(bo)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)               # each matrix product on the thread of its seed (no nesting)
    try:
        extension().lstm_classifier_grads(sym.contiguous(), Wih, Whh, (bih + bhh).contiguous(), Wo, bo,
                                          y.contiguous(), float(scale), ws.A, ws.C, ws.Hs, ws.TC, ws.dG, ws.ce,
                                          ws.logits, dWihT, dWhh, db, dWo, dbo, threads)
    finally:
        torch.set_num_threads(threads)
    return ws.ce, ws.logits, [dWihT.transpose(1, 2).contiguous(), dWhh, db, db.clone(), dWo, dbo]


class FusedTrainer(BatchedTrainer):
    """:class:`BatchedTrainer` on the CPU with :func:`loss_and_grads` in place of autograd (same arguments;
    ``device`` must be "cpu"). Its seeds are spread over ``torch.get_num_threads()`` threads."""

    def __init__(self, seeds, data, **kw):
        if str(kw.get("device", "cpu")) != "cpu":
            raise ValueError("FusedTrainer runs on the CPU only; use BatchedTrainer on a GPU")
        super().__init__(seeds, data, **kw)
        self._workspace: Workspace | None = None
        extension()

    def _loss_and_grads(self, U: torch.Tensor, y: torch.Tensor):
        sym = U.argmax(2)                                  # one-hot (T, b, 6) -> symbols (T, b)
        S, n = len(self.seeds), y.shape[0]
        if self._workspace is None or self._workspace.shape[:3] != (S, sym.shape[0], n):
            self._workspace = Workspace(S, sym.shape[0], n, self.hidden, self.params[4].shape[1])
        ce, logits, grads = loss_and_grads(self.params, sym, y, scale=1.0 if self.reduction == "sum" else 1.0 / n,
                                           workspace=self._workspace)
        return ce.clone(), logits.clone(), grads

