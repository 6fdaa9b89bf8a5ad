import numpy as np
import pytest
import torch

from rnnrepro.core import language_model as lm
from rnnrepro.miller.spectral_ball import spectral_projection

CFG = lm.LMConfig(cell="rnn", vocab=30, emb=8, hidden=6, dropout=0.0, lr=1.0, bptt=5, batch=4, epochs=2)


def _ids(n=600, seed=0):
    return torch.as_tensor((np.arange(n) + seed) % 7 * 3)


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_projection_clips_the_singular_values_and_radius_zero_removes_recurrence(cell):
    m = lm.new_model(lm.LMConfig(**{**CFG.to_dict(), "cell": cell}), 0)
    with torch.no_grad():
        m.w_hh.mul_(5)
    W = m.w_hh.detach().double().clone()
    spectral_projection(0.7)(m)
    U, s, Vh = torch.linalg.svd(W, full_matrices=False)           # reference: the SVD with s clipped at 0.7
    ref = U @ torch.diag(s.clamp(max=0.7)) @ Vh
    assert (m.w_hh.double() - ref).abs().max() < 1e-6
    assert lm.spectral_norm(m.w_hh) <= 0.7 + 1e-6 and s.max() > 0.7
    spectral_projection(0.0)(m)
    assert torch.count_nonzero(m.w_hh) == 0
    with pytest.raises(ValueError):
        spectral_projection(-1.0)


def test_the_hook_keeps_the_norm_in_the_ball_during_training():
    h = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG, hook=spectral_projection(1.0))
    free = lm.train(lm.new_model(CFG, 0), _ids(), _ids(200, 1), CFG)
    assert len(h["norm"]) == len(h["train_loss"]) and max(h["norm"]) <= 1 + 1e-6
    assert max(free["norm"]) > 1                                  # without the hook the norm leaves the ball
