import numpy as np
import pytest

from rnnrepro.miller import lm_experiments as lx


def test_sizes_are_the_papers_in_full():
    f = lx.SIZES["full"]
    assert (f["wt2"].emb, f["wt2"].hidden, f["wt2"].epochs, f["wt2"].dropout, f["wt2"].lr) == (1024, 256, 40, 0.25, 2.0)
    assert f["fig2_rnn"].hidden == f["fig2_lstm"].hidden == 1500 and f["fig2_rnn"].dropout == 0.65
    assert f["fig2_rnn"].bptt == 65 and f["fig3_L"] == 65
    assert lx.KS == [5, 10, 15, 25, 35, 50, 64] and lx.K_REF == 65
    assert all(c.dropout == 0 for c in (lx.SIZES["small"]["fig3_rnn"], lx.SIZES["small"]["fig3_lstm"]))


def test_relative_gap_and_max_relative_difference():
    assert np.allclose(lx.relative_gap(np.log([143.5]), np.log([146.7])), [143.5 / 146.7 - 1])
    assert lx.max_relative_difference([1.0, 2.2], [1.0, 2.0]) == pytest.approx(0.1)
    with pytest.raises(ValueError):
        lx.max_relative_difference([1.0], [1.0, 2.0])


def _corpus():
    from rnnrepro.core import language_model as lm
    return lm.synthetic_corpus()


def test_run_wt2_and_its_replay_agree():
    c = _corpus()
    r = lx.run_wt2("small", [0], [0], c)
    assert r["test_loss"].shape == (1, 2) and r["control_test_loss"].shape == (1,)
    assert r["norm"][0, 1].max() <= 1 + 1e-5 and r["norm"][0, 0].max() > 1
    rep = lx.replay_wt2(c, 0, 3)
    assert np.allclose(rep["train_loss"], r["train_loss"][0, :, :3], rtol=1e-6)
    assert np.allclose(rep["norm"], r["norm"][0, :, :3], rtol=1e-6)


def test_run_fig2_and_its_replay_agree():
    c = _corpus()
    r = lx.run_fig2("small", 0, c)
    E = lx.SIZES["small"]["fig2_rnn"].epochs
    assert r["profile_rnn"].shape == (E + 1, 51) and r["control_profile"].shape == (51,)
    rep = lx.replay_fig2(c, 0, 2)
    assert np.allclose(rep["profile_lstm"], r["profile_lstm"][0], rtol=1e-6)
    assert np.allclose(rep["train_loss_rnn"], r["train_loss_rnn"][:2], rtol=1e-6)


def test_run_fig3_distances_start_at_zero_and_grow():
    r = lx.run_fig3("small", 0, _corpus(), updates=2, cells=("rnn",), tbptt=False)
    d = r["dist_rnn"]                                    # (logs, len(KS)): ||W_k - W_ref|| per truncation k
    assert d.shape[1] == len(lx.KS) and r["update_rnn"].tolist() == [0, 2]
    assert np.all(d[0] == 0)                             # one initialisation: every model starts at the reference
    assert np.all(np.isfinite(d[-1])) and d[-1].max() > 0   # the truncated models move apart from it


def test_paired_t_and_seed_noise():
    assert lx.paired_t([-1.0, -3.0]) == pytest.approx(-2.0 / (np.sqrt(2) / np.sqrt(2)))
    assert lx.paired_t([1.0, 1.0]) == np.inf
    with pytest.raises(ValueError):
        lx.paired_t([1.0])
    g = lx.seed_noise_gaps(np.log([100.0, 110.0, 100.0]))
    assert np.allclose(g, [0.1, 100 / 110 - 1, 0.0])


def test_twin_floor_is_a_running_maximum():
    live = np.array([[1.0, 1.0, 1.0, 1.0]])
    twin = np.array([[1.0, 1.1, 1.0, 1.3]])
    assert np.allclose(lx.twin_floor(live, twin), [[0.0, 0.1, 0.1, 0.3]])


def test_unamplified_prefix_counts_leading_entries_below_a_tenth():
    assert lx.unamplified_prefix([0.0, 1e-5, 2e-4, 0.0], 1e-3) == 2
    assert lx.unamplified_prefix([0.0, 0.0], 1e-3) == 2


def test_replay_excess_scales_with_the_twin_and_stops_where_it_decorrelates():
    live = np.ones(5)
    twin = np.array([1.0, 1.0, 1.0 + 1e-5, 1.0 + 1e-5, 1.5])        # floor 0, 0, 1e-5, 1e-5, 0.5
    shipped = np.array([1.0, 1.0 + 2e-6, 1.0 + 5e-5, 1.0, 3.0])     # the last update is past the stretch
    exc = lx.replay_excess(live, shipped, twin, base=1e-5)
    assert exc == pytest.approx(abs(1 / (1 + 5e-5) - 1) / (1e-5 + 10 * 1e-5), rel=1e-6)
    assert lx.replay_excess(live, live, twin, base=1e-5) == 0.0
    with pytest.raises(ValueError):
        lx.replay_excess(live, shipped[:4], twin, base=1e-5)
    with pytest.raises(ValueError):                                 # amplified at once: nothing to check
        lx.replay_excess(live, shipped, np.full(5, 2.0), base=1e-5)


def test_last_bit_twins_of_the_replays_move_every_weight():
    from rnnrepro.core import language_model as lm
    cfg = lm.LMConfig(vocab=7, emb=3, hidden=4)
    a, b = lm.new_model(cfg, 0), lx.perturb_all_last_bit(lm.new_model(cfg, 0))
    for p, q in zip(a.parameters(), b.parameters()):
        assert bool((q > p).all()) and float((q - p).abs().max()) < 1e-6
    c = _corpus()
    rep, twin = lx.replay_wt2(c, 0, 3), lx.replay_wt2(c, 0, 3, twin=True)
    assert twin["train_loss"].shape == rep["train_loss"].shape and not np.array_equal(twin["norm"], rep["norm"])
