"""WikiText-2 word-level corpus (Merity et al., 2016) with the pytorch/examples tokenisation.

Each line becomes ``line.split() + ['<eos>']``. The validation and test splits are read through
:func:`rnnrepro.data.data_file` (sha256-checked, root ``$RNNREPRO_DATA``). The official training split
is not available where this book is built; a user who puts it at ``$RNNREPRO_DATA/wikitext-2/train.txt``
gets it from ``tokens("train")``, checked against its official token count (no sha256 is recorded).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import torch

from rnnrepro.data import DATA_ENV, FETCH_COMMAND, data_file, data_root
from rnnrepro.errors import DataError

EOS, UNK = "<eos>", "<unk>"
#: Tokens of the official training split (Merity et al., 2016), the check applied to train.txt.
TRAIN_TOKENS = 2_088_628


def training_split_available() -> bool:
    """Whether ``$RNNREPRO_DATA/wikitext-2/train.txt`` exists (it does not on the build machines)."""
    try:
        return (data_root() / "wikitext-2" / "train.txt").is_file()
    except DataError:
        return False


def tokens(split: str | None = None, path: str | Path | None = None) -> list[str]:
    """Tokens of ``wikitext-2/<split>.txt`` (checked) or of an explicit ``path`` (unchecked).

    ``split`` is ``"valid"``, ``"test"`` (sha256-checked) or ``"train"`` (token count checked).
    """
    if path is None:
        if split == "train":
            path = data_root() / "wikitext-2" / "train.txt"
            if not path.is_file():
                raise DataError(f"the WikiText-2 training split is not in {path.parent}: run `{FETCH_COMMAND}` "
                                f"(downloads it there), or point {DATA_ENV} at a folder with wikitext-2/train.txt")
        else:
            path = data_file(f"wikitext-2/{split}.txt")
    out: list[str] = []
    with open(path, encoding="utf8") as fh:
        for line in fh:
            out.extend(line.split() + [EOS])
    if split == "train" and len(out) != TRAIN_TOKENS:
        raise DataError(f"{path} has {len(out):,} tokens, not the official training split's {TRAIN_TOKENS:,}: "
                        f"delete it and run `{FETCH_COMMAND}`")
    return out


def count_tokens(path: str | Path) -> int:
    """Number of tokens of a WikiText file (``line.split() + ['<eos>']`` per line), read line by line."""
    with open(path, encoding="utf8") as fh:
        return sum(len(line.split()) + 1 for line in fh)


class Vocab:
    """The ``max_size`` most frequent tokens of a corpus (ties: first occurrence), ``<unk>`` for the rest.

    ``<eos>`` and ``<unk>`` are always included."""

    def __init__(self, toks: list[str], max_size: int | None = None):
        counts = Counter(toks)
        order = {t: i for i, t in reversed(list(enumerate(toks)))}
        ranked = sorted(counts, key=lambda t: (-counts[t], order[t]))
        keep = [t for t in ranked if t not in (EOS, UNK)]
        if max_size is not None:
            keep = keep[:max_size - 2]
        self.itos = [EOS, UNK] + keep
        self.stoi = {t: i for i, t in enumerate(self.itos)}

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, toks: list[str]) -> torch.Tensor:
        """Token ids (n,) int64; unknown tokens map to ``<unk>``."""
        unk = self.stoi[UNK]
        return torch.tensor([self.stoi.get(t, unk) for t in toks], dtype=torch.int64)

    def coverage(self, toks: list[str]) -> float:
        """Fraction of tokens that are in the vocabulary (``<unk>`` in the text counts as covered)."""
        return sum(t in self.stoi for t in toks) / len(toks)


def batchify(ids: torch.Tensor, batch: int) -> torch.Tensor:
    """(n,) ids -> (n // batch, batch): column j is the j-th contiguous slice (pytorch/examples layout)."""
    n = ids.numel() // batch
    return ids[:n * batch].view(batch, n).t().contiguous()


def bptt_windows(data: torch.Tensor, bptt: int):
    """Yield (inputs (L, B), targets (L, B)) windows of length ≤ bptt over batchified data (T, B)."""
    for i in range(0, data.shape[0] - 1, bptt):
        L = min(bptt, data.shape[0] - 1 - i)
        yield data[i:i + L], data[i + 1:i + 1 + L]
