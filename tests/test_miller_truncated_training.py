import numpy as np
import pytest
import torch

from rnnrepro.core import language_model as lm
from rnnrepro.miller import truncated_training as tt

CFG = lm.LMConfig(cell="rnn", vocab=20, emb=6, hidden=5, dropout=0.0, lr=1.0, batch=3)


def _ids(n=900):
    return torch.as_tensor(np.random.default_rng(1).integers(0, 20, n))


def test_windowed_logits_equal_a_direct_run_from_zero_state():
    m = lm.new_model(CFG, 0)
    x_ext = _ids(30).view(10, 3)
    k, L = 4, 5
    out = tt.windowed_logits(m, x_ext, k, L)
    assert out.shape == (L, 3, 20)
    j, b = 2, 1                              # target position j of the last L rows, column b
    row = 10 - L + j
    seq = x_ext[row - k + 1:row + 1, b:b + 1]
    o, _ = m.rnn(m.enc(seq))
    assert torch.allclose(out[j, b], m.dec(o[-1, 0]), atol=1e-6)
    with pytest.raises(ValueError):
        tt.windowed_logits(m, x_ext, 7, L)


def test_full_window_equals_the_untruncated_model_on_the_chunk():
    m = lm.new_model(CFG, 0)
    x = _ids(18).view(6, 3)
    logits, _ = m(x)
    out = tt.windowed_logits(m, x, 6, 1)
    assert torch.allclose(out[0], logits[-1], atol=1e-6)


def test_chunk_starts_leave_room_for_context_and_targets():
    s = tt.chunk_starts(100, 10, 8)
    assert s[0] == 7 and all(i + 10 < 100 for i in s)


def test_window_sweep_distances_shrink_with_k_and_floor_is_small():
    r = tt.train_window_sweep(CFG, [1, 2, 6], 8, ids=_ids(), seed=0, updates=6, log_every=3, L=4)
    assert r["dist"].shape == (3, 3) and r["update"].tolist() == [0, 3, 6]
    assert np.all(r["dist"][0] == 0)
    d = r["dist"][-1]
    assert d[0] > d[2] and r["floor"][-1] < 1e-3 * d[0]
    r2 = tt.train_window_sweep(CFG, [1, 2, 6], 8, ids=_ids(), seed=0, updates=6, log_every=3, L=4)
    assert np.array_equal(r["dist"], r2["dist"])
    with pytest.raises(ValueError):
        tt.train_window_sweep(lm.LMConfig(**{**CFG.to_dict(), "dropout": 0.1}), [1], 2, ids=_ids(), seed=0,
                              updates=1, log_every=1, L=4)
    with pytest.raises(ValueError):
        tt.train_window_sweep(CFG, [9], 8, ids=_ids(), seed=0, updates=1, log_every=1, L=4)


def test_tbptt_sweep_shapes_and_reference_distance():
    r = tt.train_tbptt_sweep(CFG, [2, 8], 8, ids=_ids(), seed=0, tokens=300, n_logs=2)
    assert r["dist"].shape == (3, 2) and r["rows"].tolist() == [0, 50, 100]
    assert np.all(r["dist"][0] == 0) and r["dist"][-1, 1] == 0.0   # k = k_ref is the reference itself
    assert r["dist"][-1, 0] > 0


def test_tbptt_sweep_refuses_a_truncation_length_below_one():
    """k = 0 would make no progress through the rows (a loop that never ends): refused up front."""
    with pytest.raises(ValueError, match="truncation lengths must be >= 1"):
        tt.train_tbptt_sweep(CFG, [0, 8], 8, ids=_ids(), seed=0, tokens=300, n_logs=2)


def test_sweep_statistics_reads_order_growth_and_the_floor():
    upd = np.array([0, 10, 50, 100, 200])
    d = np.array([[0, 0, 0, 0], [4, 2, 1, .5], [4, 2, 1, .5], [8, 4, 2, 1], [16, 8, 4, 1e-9]], float)
    fl = np.array([0, 1e-3, 1e-3, 1e-3, 1e-3])
    s = tt.sweep_statistics(d, fl, upd)
    assert s["above"] == 3 and s["order"] == 0.5 and s["growth"] == 2.0 and s["plateau"] == 1.0
    assert s["chaos"] == pytest.approx(1e-3 / 4) and s["chaos_early"] == pytest.approx(1e-3 / 1)
    d[-1] = [16, 32, 4, 1e-9]                                    # not decreasing in k
    assert tt.sweep_statistics(d, fl, upd)["order"] == 2.0


def _stop_after(n):
    calls = []
    return lambda: calls.append(1) or len(calls) == n


def _same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)


def test_window_sweep_stopped_and_resumed_equals_one_uninterrupted_run(tmp_path):
    kw = dict(ids=_ids(), seed=0, updates=7, log_every=3)
    ref = tt.train_window_sweep(CFG, [2, 4], 6, **kw, L=4)
    ck = tmp_path / "w.pt"
    with pytest.raises(lm.TrainingInterrupted):
        tt.train_window_sweep(CFG, [2, 4], 6, **kw, L=4, checkpoint=ck, stop=_stop_after(5))     # between two logs
    assert _same(tt.train_window_sweep(CFG, [2, 4], 6, **kw, L=4, checkpoint=ck, checkpoint_every=2), ref)
    assert _same(tt.train_window_sweep(CFG, [2, 4], 6, **kw, L=4, checkpoint=ck), ref)            # finished: read back
    with pytest.raises(ValueError, match="another sweep"):
        tt.train_window_sweep(CFG, [2, 4], 6, ids=_ids(), seed=1, updates=7, log_every=3, L=4, checkpoint=ck)


def test_tbptt_sweep_stopped_and_resumed_equals_one_uninterrupted_run(tmp_path):
    kw = dict(ids=_ids(), seed=0, tokens=300, n_logs=4)
    ref = tt.train_tbptt_sweep(CFG, [2, 4], 6, **kw)
    ck = tmp_path / "t.pt"
    for n in (30, 35):                                  # stopped inside the first model (50 updates), then the second
        with pytest.raises(lm.TrainingInterrupted):
            tt.train_tbptt_sweep(CFG, [2, 4], 6, **kw, checkpoint=ck, checkpoint_every=3, stop=_stop_after(n))
    assert _same(tt.train_tbptt_sweep(CFG, [2, 4], 6, **kw, checkpoint=ck), ref)
