"""The stable model of Miller & Hardt §7.2: W_hh projected onto the spectral ball {‖W‖₂ ≤ radius} after every
update (a hook of :func:`rnnrepro.core.language_model.train`)."""

from __future__ import annotations

from typing import Callable

import torch

from rnnrepro.core.language_model import WordLM
from rnnrepro.miller.contraction import project_spectral_norm


def spectral_projection(radius: float) -> Callable[[WordLM], None]:
    """A hook that projects the model's W_hh ((H, H) or the LSTM's (4H, H)) onto {‖W‖₂ ≤ radius} (SVD clip
    in float64, then cast back); radius 0 sets W_hh to zero."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")

    @torch.no_grad()
    def hook(model: WordLM) -> None:
        W = model.w_hh
        if radius == 0:
            W.zero_()
        else:
            W.copy_(project_spectral_norm(W.double(), radius).to(W.dtype))
    return hook
