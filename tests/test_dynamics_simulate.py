import pytest
import torch

from rnnrepro.core.cells import lstm_concat_step, lstm_step, split_state, tanh_rnn_step
from rnnrepro.dynamics.simulate import simulate

torch.set_num_threads(1)
D = torch.float64


def rand(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=D)


def test_autonomous_trajectory_shape_and_values():
    A = torch.tensor([[[0.5]], [[2.0]]], dtype=D)  # P=2 scalar linear maps
    h0 = torch.ones(2, 3, 1, dtype=D)
    traj = simulate(lambda h, x: h @ A.mT, h0, n_steps=4)
    assert traj.shape == (5, 2, 3, 1) and traj.dtype == D
    assert torch.equal(traj[0], h0)
    assert torch.allclose(traj[:, 0, 0, 0], 0.5 ** torch.arange(5, dtype=D))
    assert torch.allclose(traj[:, 1, 2, 0], 2.0 ** torch.arange(5, dtype=D))
    assert simulate(lambda h, x: h, h0, n_steps=0).shape == (1, 2, 3, 1)


def test_driven_trajectory_matches_loop():
    P, B, H, I, T = 2, 3, 4, 2, 5
    W_hh, W_ih, b = rand(P, H, H) * 0.5, rand(P, H, I, seed=1), rand(P, H, seed=2)
    xs, h0 = rand(T, B, I, seed=3), rand(P, B, H, seed=4)
    step = lambda h, x: tanh_rnn_step(h, x, W_hh, W_ih, b)  # noqa: E731
    traj = simulate(step, h0, xs)
    h = h0
    for t in range(T):
        h = step(h, xs[t])
        assert torch.equal(traj[t + 1], h)
    assert traj.shape == (T + 1, P, B, H)
    assert simulate(step, h0, xs, n_steps=T).shape == traj.shape


def test_tuple_state_equals_concatenated_state():
    P, B, H, I, T = 2, 3, 4, 2, 6
    params = {"W_ih": rand(P, 4 * H, I), "W_hh": rand(P, 4 * H, H, seed=1),
              "b_ih": rand(P, 4 * H, seed=2), "b_hh": rand(P, 4 * H, seed=3)}
    xs = rand(T, P, B, I, seed=4)
    h0, c0 = rand(P, B, H, seed=5), rand(P, B, H, seed=6)
    hs, cs = simulate(lambda s, x: lstm_step(*s, x, **params), (h0, c0), xs)
    assert hs.shape == cs.shape == (T + 1, P, B, H)
    zs = simulate(lstm_concat_step(**params), torch.cat([h0, c0], -1), xs)
    h_z, c_z = split_state(zs)
    assert torch.equal(hs, h_z) and torch.equal(cs, c_z)


def test_gradient_flows_through_trajectory():
    w = torch.tensor([[[0.9]]], dtype=D, requires_grad=True)
    traj = simulate(lambda h, x: h @ w.mT, torch.ones(1, 1, 1, dtype=D), n_steps=3)
    traj[-1].sum().backward()
    assert torch.allclose(w.grad, torch.tensor([[[3 * 0.9 ** 2]]], dtype=D))


def test_errors():
    h0 = torch.zeros(1, 2, 3, dtype=D)
    with pytest.raises(ValueError, match="n_steps"):
        simulate(lambda h, x: h, h0)
    with pytest.raises(ValueError, match="n_steps=3 but inputs has 4"):
        simulate(lambda h, x: h, h0, torch.zeros(4, 2, 1), n_steps=3)
    with pytest.raises(ValueError, match="changed the state shape at t=0"):
        simulate(lambda h, x: h.expand(5, 2, 3), h0, n_steps=2)
