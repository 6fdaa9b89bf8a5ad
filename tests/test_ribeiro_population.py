"""Population statistics of the temporal-order sweep, against independent references."""
import numpy as np
import pytest
import torch
from scipy.optimize import brentq

from rnnrepro.ribeiro import population as pop
from rnnrepro.ribeiro import temporal_order as to


@pytest.mark.parametrize("k,n", [(1, 10), (0, 50), (7, 50), (50, 50), (3, 12)])
def test_wilson_interval_inverts_the_score_test(k, n):
    z = pop.Z95
    score = lambda p: (k / n - p) ** 2 - z * z * p * (1 - p) / n        # zero at the interval's ends
    lo, hi = pop.wilson_interval(k, n)
    want_lo = 0.0 if k == 0 else brentq(score, 1e-12, min(k / n, 1 - 1e-9))
    want_hi = 1.0 if k == n else brentq(score, max(k / n, 1e-9), 1 - 1e-12)
    assert lo == pytest.approx(want_lo, abs=1e-9) and hi == pytest.approx(want_hi, abs=1e-9)
    with pytest.raises(ValueError):
        pop.wilson_interval(n + 1, n)


def test_of_n_wilson_names_the_population_and_the_interval():
    # the ends from the score test's roots (brentq above): 1/9 → 0.0199–0.4350, 3/44 → 0.0235–0.1823
    assert pop.of_n_wilson(1, 9) == "of 9, Wilson 95 % 0.02–0.43"
    assert pop.of_n_wilson(3, 44) == "of 44, Wilson 95 % 0.02–0.18"
    assert pop.of_n_wilson(3, 3) == "of 3, Wilson 95 % 0.44–1.00"
    # 0 of 9: the lower end is exactly 0 (the score test has no root below 0), printed 0, never 0.00
    assert pop.of_n_wilson(0, 9) == "of 9, Wilson 95 % 0–0.30"
    with pytest.raises(ValueError):
        pop.of_n_wilson(4, 3)


def test_interval_text_prints_an_exact_zero_as_0_and_a_small_end_with_digits():
    assert pop.interval_text(0.0, 0.2991) == "0–0.30"
    assert pop.interval_text(0.0632, 0.5474) == "0.06–0.55"
    assert pop.interval_text(1e-4, 0.5) != "0.00–0.50"          # a non-zero end never reads as zero


def test_labels_at_reads_the_epoch_asked_for():
    history = dict(epoch=[10, 20], val_epoch=[10, 20], train_acc=[[0.3, 0.99], [0.6, 1.0]],
                   val_acc=[[0.25, 0.5], [0.26, 0.99]])
    assert list(pop.labels_at(history, 20, n_val=1000)) == ["memorised", "solved"]
    assert list(pop.labels_at(history, 10, n_val=1000)) == ["other", "other"]
    with pytest.raises(ValueError, match="not logged"):
        pop.labels_at(history, 15, n_val=1000)


def test_flips_and_transient_rises():
    assert list(pop.outcome_flips(["solved", "memorised", "other"], ["memorised", "other", "solved"])) == \
        [True, False, True]
    sd = np.sqrt(0.25 * 0.75 / 1000)
    va = np.array([[0.25, 0.25, 0.25], [0.25 + 6 * sd, 0.25 + 4 * sd, 0.9], [0.25, 0.25, 0.95]])
    assert list(pop.transient_rises(va, n_val=1000)) == [True, False, False]


def _scalar_lstm_fixed_point_exponent(theta, symbol):
    """log of the spectral radius of the (h, c) Jacobian at the fixed point reached from 0, by finite
    differences of our own numpy LSTM step (nn.LSTM's gate order i, f, g, o)."""
    m = to.Classifier(2)
    torch.nn.utils.vector_to_parameters(torch.as_tensor(theta, dtype=torch.float32), m.parameters())
    Wih, Whh, bih, bhh = (p.detach().double().numpy() for p in list(m.parameters())[:4])
    x = np.eye(6)[symbol]
    sig = lambda v: 1 / (1 + np.exp(-v))

    def step(z):
        h, c = z[:2], z[2:]
        g = Wih @ x + Whh @ h + bih + bhh
        c2 = sig(g[2:4]) * c + sig(g[:2]) * np.tanh(g[4:6])
        return np.concatenate([sig(g[6:]) * np.tanh(c2), c2])
    z = np.zeros(4)
    for _ in range(5000):
        z = step(z)
    eps = 1e-6
    J = np.stack([(step(z + eps * e) - step(z - eps * e)) / (2 * eps) for e in np.eye(4)], 1)
    return np.log(np.abs(np.linalg.eigvals(J)).max())


def test_lyapunov_under_inputs_is_the_fixed_points_spectral_radius():
    torch.manual_seed(3)
    thetas = torch.stack([to.flat(to.Classifier(2).float()) for _ in range(2)])
    lam = pop.lyapunov_under_inputs(thetas, hidden=2, n_steps=3000, n_burn=2000)
    assert lam.shape == (2, 6)
    for s in range(2):
        for k in (0, 3):
            assert lam[s, k] == pytest.approx(_scalar_lstm_fixed_point_exponent(thetas[s].numpy(), k), abs=2e-3)


def test_deep_minima_ignore_round_off_dips():
    v = np.array([3.0, 1.0, 2.0, 2.0 - 1e-15, 2.0, 0.5, 4.0])
    assert list(np.flatnonzero(pop.deep_minima(v))) == [1, 5]


def test_minimum_kept_looks_next_to_the_training_minimum():
    train = np.array([5.0, 4.0, 3.0, 2.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    assert pop.minimum_kept(train, train)                                   # a minimum is kept on itself
    shifted = np.array([5.0, 4.0, 3.0, 2.0, 1.5, 1.2, 1.1, 1.0, 5.0])      # the valley moved 3 points away
    assert not pop.minimum_kept(train, shifted, near=2)
    assert pop.minimum_kept(train, shifted, near=3)
    assert not pop.minimum_kept(train, np.linspace(1.0, 2.0, 9))            # no minimum at all on validation


def test_output_spreads_is_the_spread_of_each_output():
    rng = np.random.default_rng(0)
    out = rng.normal(size=(3, 6, 8, 40, 4))                             # (P, inputs, initial states, time, outputs)
    out[0, 2, :, :, 1] = 0.25                                           # one output at a single fixed point
    got = pop.output_spreads(out)
    assert got.shape == (3, 6, 4)
    want = np.abs(out - np.median(out, axis=(2, 3), keepdims=True)).max(axis=(2, 3))   # max |o - median|
    assert np.allclose(got, want) and got[0, 2, 1] == 0.0


def _reference_first_output(model, k, n_steps):
    """torch.nn.LSTM + Linear, float64, one constant one-hot input k from zero state: first output per step."""
    m = model.double()
    u = torch.zeros(n_steps, 1, 6, dtype=torch.float64)
    u[:, 0, k] = 1.0
    with torch.no_grad():
        h, _ = m.lstm(u)
        return m.out(h[:, 0])[:, 0].numpy()


def test_long_run_periods_against_torch_lstm_and_brute_force():
    from rnnrepro.ribeiro.temporal_order import flat
    models = [to.new_model(8, seed) for seed in (0, 1)]
    with torch.no_grad():                                   # seed 1: a strong rotation-like recurrence (oscillates)
        W = torch.zeros(32, 8)
        W[16:24] = 6.0 * torch.roll(torch.eye(8), 1, 0) - 3.0 * torch.eye(8)
        models[1].lstm.weight_hh_l0.copy_(W)
    theta = torch.stack([flat(m) for m in models]).numpy()
    got = pop.long_run_periods(theta, [0, 3], hidden=8, n_steps=600, window=300, max_period=100, tol=1e-6)
    for s, m in enumerate(models):
        for j, k in enumerate([0, 3]):
            y = _reference_first_output(m, k, 600)[300:]
            want = next((p for p in range(1, 101) if np.abs(y[p:] - y[:-p]).max() < 1e-6), 0)
            assert got[s, j] == want
    with pytest.raises(ValueError):
        pop.long_run_periods(theta, [0], hidden=8, n_steps=100, window=300)


def test_long_run_periods_fixed_point_is_period_one():
    from rnnrepro.ribeiro.temporal_order import flat
    m = to.new_model(8, 0)
    with torch.no_grad():
        m.lstm.weight_hh_l0.zero_()
    got = pop.long_run_periods(flat(m)[None].numpy(), range(6), hidden=8, n_steps=300, window=200, max_period=50)
    assert (got == 1).all()


def test_central_slope_is_exact_for_a_quadratic_and_refuses_an_edge():
    s = np.array([-0.2, -0.1, 0.0, 0.05, 0.3])
    v = 3 * s ** 2 - 2 * s + 1
    # central difference over an uneven stencil [-0.1, 0.05]: (v(0.05) - v(-0.1)) / 0.15 = 3 (0.05 - 0.1) - 2
    assert pop.central_slope(s, v, at=0.0) == pytest.approx(3 * (0.05 - 0.1) - 2)
    assert pop.central_slope(np.linspace(-1, 1, 5), np.linspace(-1, 1, 5) * 7, at=0.0) == pytest.approx(7)
    with pytest.raises(ValueError):
        pop.central_slope(s, v, at=-0.2)
    with pytest.raises(ValueError):
        pop.central_slope(s, v, at=0.01)


def test_existence_undecided_is_the_wilson_upper_end_until_an_instance_is_seen():
    z = pop.Z95
    for n in (3, 9, 50):
        assert pop.existence_undecided(0, n) == pytest.approx(z * z / (n + z * z))   # Wilson hi at k = 0
    assert pop.existence_undecided(1, 9) == 0.0 and pop.existence_undecided(9, 9) == 0.0
    assert pop.existence_undecided(0, 9) > 0.05 > pop.existence_undecided(0, 100)
    with pytest.raises(ValueError):
        pop.existence_undecided(3, 2)


def test_landscape_per_seed_reads_the_next_training_sequences_for_its_control():
    """With the training set repeated, the next n_seq training sequences are the first ones again, so the control's
    test (the training minimum kept on other training sequences) equals the training cost against itself; on
    too few sequences the function says how many it needs."""
    torch.manual_seed(0)
    T, n, hidden = 12, 4, 3
    X = torch.randint(0, 6, (n, T))
    y = torch.randint(0, 4, (n,))
    data = (torch.cat([X, X]), torch.cat([y, y]), X.flip(0), y.flip(0))
    D = to.flat(to.new_model(hidden, 0)).numel()
    theta = torch.randn(2, D, dtype=torch.float64)
    out = pop.landscape_per_seed(theta[:1] * 0.5, theta[1:], data, s_line=np.linspace(-0.1, 1.1, 5),
                                 s_zoom=np.linspace(-0.05, 0.05, 11), n_seq=n, hidden=hidden, validation_zoom=True,
                                 train_control=True)
    assert out["train_min_kept_on_train2"].tolist() == out["train_min_kept_on_train"].tolist()
    assert out["train_min_kept_on_train2"].dtype == bool and out["train_min_kept_on_train2"].shape == (1,)
    np.testing.assert_allclose(out["train2_slope_at_final"],                 # the same sequences: the same slope
                               [pop.central_slope(np.linspace(-0.05, 0.05, 11), to.line_cost(
                                   to.new_model(hidden, 0), to.line_thetas(theta[0] * 0.5, theta[1],
                                                                           np.linspace(-0.05, 0.05, 11)),
                                   X, y, chunk=64), at=0.0)], rtol=1e-12)
    with pytest.raises(ValueError, match="2·n_seq = 8 training sequences"):
        pop.landscape_per_seed(theta[:1], theta[1:], (X, y, X, y), s_line=np.linspace(0, 1, 3),
                               s_zoom=np.linspace(-0.05, 0.05, 5), n_seq=n, hidden=hidden, validation_zoom=True,
                               train_control=True)
    with pytest.raises(ValueError, match="validation_zoom=True"):
        pop.landscape_per_seed(theta[:1], theta[1:], data, s_line=np.linspace(0, 1, 3),
                               s_zoom=np.linspace(-0.05, 0.05, 5), n_seq=n, hidden=hidden, train_control=True)


def test_steady_state_spreads_are_each_networks_own_whatever_the_grouping():
    """The S·len(s) networks simulated a few at a time give every number that each network simulated alone gives
    (one call of bifurcation.steady_states per network, the reference), bit for bit, seeds and s in order."""
    from rnnrepro.ribeiro import bifurcation as bif

    m = to.new_model(50, 0).double()
    theta = torch.stack([to.flat(to.new_model(50, k).double()) * 3 for k in (1, 2, 3)])   # (3, D), larger weights
    s = np.array([0.0, 0.5, 1.0])
    grouped = pop.steady_state_spreads(theta * 0.5, theta, s, seed=4, group=4)             # groups cut across seeds
    assert grouped.shape == (3, 3, 6, 4)
    assert np.array_equal(grouped, pop.steady_state_spreads(theta * 0.5, theta, s, seed=4, group=24))
    for i in range(3):
        for j, sj in enumerate(s):
            P = to.batched_params(m, to.line_thetas(theta[i] * 0.5, theta[i], [sj]))
            out, _ = bif.steady_states(P["W_ih"], P["W_hh"], P["b_ih"], P["b_hh"], inputs=torch.eye(6),
                                       readout=lambda h, P=P: torch.einsum("pbh,pkh->pbk", h, P["C"]) + P["d"][:, None],
                                       n_ic=8, n_steps=600, burn=300, seed=4)
            assert np.array_equal(grouped[i, j], pop.output_spreads(out)[0]), (i, j)
    assert pop.steady_state_spreads(theta[:0], theta[:0], s).shape == (0, 3, 6, 4)


def test_line_cost_changes_no_number_with_its_chunk():
    m = to.new_model(8, 0).double()
    X, y = to.make_data(30, 55, 0)
    th = to.flat(m)
    ths = to.line_thetas(th * 0.5, th, np.linspace(-0.1, 1.1, 13))
    V = to.line_cost(m, ths, X, y, chunk=1)
    for chunk in (4, 8, 64):
        assert np.array_equal(to.line_cost(m, ths, X, y, chunk=chunk), V), chunk
