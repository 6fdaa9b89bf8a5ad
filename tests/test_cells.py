import pytest
import torch

from rnnrepro.core.cells import (affine, concat_state, linear_step, lstm_concat_step, lstm_params_from_torch,
                            lstm_step, split_state, tanh_rnn_step)

torch.set_num_threads(1)
D = torch.float64


def rand(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=D)


def test_affine_shapes_and_broadcast():
    W, b = rand(3, 5, 4), rand(3, 5, seed=1)
    v = rand(3, 2, 4, seed=2)
    out = affine(v, W, b)
    assert out.shape == (3, 2, 5) and out.dtype == D
    assert torch.allclose(out[1, 0], W[1] @ v[1, 0] + b[1])
    shared = affine(v[0], W)  # (B, n) input shared by all P
    assert torch.allclose(shared[2], v[0] @ W[2].T)
    assert affine(v[:1], W).shape == (3, 2, 5)  # P=1 state broadcasts over P=3 weights
    with pytest.raises(ValueError, match="input columns"):
        affine(rand(3, 2, 3), W)
    with pytest.raises(ValueError, match="parameter sets"):
        affine(rand(2, 2, 4), W)
    with pytest.raises(ValueError, match=r"\(P, out, in\)"):
        affine(v, W[0])
    with pytest.raises(ValueError, match="bias"):
        affine(v, W, b[:, :4])
    with pytest.raises(ValueError, match="the bias has P=2"):
        affine(v, W, b[:2])


def test_tanh_rnn_step_matches_formula_and_autonomous():
    P, B, H, I = 3, 2, 4, 2
    h, x = rand(P, B, H), rand(P, B, I, seed=1)
    W_hh, W_ih, b = rand(P, H, H, seed=2), rand(P, H, I, seed=3), rand(P, H, seed=4)
    out = tanh_rnn_step(h, x, W_hh, W_ih, b)
    assert out.shape == (P, B, H) and out.dtype == D
    expect = torch.tanh(W_hh[2] @ h[2, 1] + W_ih[2] @ x[2, 1] + b[2])
    assert torch.allclose(out[2, 1], expect, atol=1e-14)
    assert torch.allclose(tanh_rnn_step(h, x[0], W_hh, W_ih, b)[1, 0],
                          torch.tanh(W_hh[1] @ h[1, 0] + W_ih[1] @ x[0, 0] + b[1]), atol=1e-14)
    auto = tanh_rnn_step(h, None, W_hh)
    assert torch.allclose(auto, torch.tanh(h @ W_hh.mT))
    with pytest.raises(ValueError, match=r"\(P, B, H\)"):
        tanh_rnn_step(h[0], x, W_hh, W_ih, b)
    with pytest.raises(ValueError, match="W_ih is None"):
        tanh_rnn_step(h, x, W_hh)
    with pytest.raises(ValueError, match="x must have shape"):
        tanh_rnn_step(h, x[0, 0], W_hh, W_ih)


def test_linear_step():
    h, A, Bm, x = rand(2, 3, 4), rand(2, 4, 4, seed=1), rand(2, 4, 1, seed=2), rand(3, 1, seed=3)
    assert torch.allclose(linear_step(h, None, A), h @ A.mT)
    out = linear_step(h, x, A, Bm)
    assert torch.allclose(out[1, 2], A[1] @ h[1, 2] + Bm[1] @ x[2])
    with pytest.raises(ValueError, match="B is None"):
        linear_step(h, x, A)


@pytest.mark.parametrize("bias", [True, False])
def test_lstm_step_matches_torch_lstm_batched_over_P(bias):
    P, B, H, I, T = 3, 4, 5, 2, 6
    modules = []
    for p in range(P):
        torch.manual_seed(10 + p)
        modules.append(torch.nn.LSTM(I, H, bias=bias).double())
    sets = [lstm_params_from_torch(m) for m in modules]
    params = {k: torch.cat([s[k] for s in sets]) for k in sets[0]}
    assert params["W_ih"].shape == (P, 4 * H, I) and params["b_hh"].shape == (P, 4 * H)
    x = rand(T, B, I, seed=1)
    h0, c0 = rand(P, B, H, seed=2), rand(P, B, H, seed=3)
    h, c = h0, c0
    for t in range(T):
        h, c = lstm_step(h, c, x[t], **params)
    for p, m in enumerate(modules):
        with torch.no_grad():
            out, (hT, cT) = m(x, (h0[p:p + 1], c0[p:p + 1]))
        assert torch.allclose(h[p], hT[0], atol=1e-12, rtol=0)
        assert torch.allclose(c[p], cT[0], atol=1e-12, rtol=0)


def test_lstm_gate_order_i_f_g_o():
    H = 1
    h, c = torch.zeros(1, 1, H, dtype=D), torch.full((1, 1, H), 2.0, dtype=D)
    W_hh = torch.zeros(1, 4 * H, H, dtype=D)
    big = 50.0  # saturate one gate at a time via the bias: order i, f, g, o
    b = torch.tensor([[-big, big, 0.0, big]], dtype=D)  # i=0, f=1: c' = c; o=1
    h1, c1 = lstm_step(h, c, None, W_ih=None, W_hh=W_hh, b_ih=b, b_hh=None)
    assert torch.allclose(c1, c) and torch.allclose(h1, torch.tanh(c))
    b = torch.tensor([[big, -big, 0.5, -big]], dtype=D)  # i=1, f=0: c' = tanh(0.5); o=0: h'=0
    h1, c1 = lstm_step(h, c, None, W_ih=None, W_hh=W_hh, b_ih=b, b_hh=None)
    assert torch.allclose(c1, torch.tanh(torch.tensor(0.5, dtype=D)).expand(1, 1, 1))
    assert h1.abs().max() < 1e-20


def test_lstm_step_errors():
    h = torch.zeros(1, 2, 3, dtype=D)
    W_hh = torch.zeros(1, 12, 3, dtype=D)
    with pytest.raises(ValueError, match="same shape"):
        lstm_step(h, h[:, :1], None, W_ih=None, W_hh=W_hh)
    with pytest.raises(ValueError, match="4H"):
        lstm_step(h, h, None, W_ih=None, W_hh=W_hh[:, :9])
    with pytest.raises(ValueError, match=r"bias"):
        lstm_step(h, h, None, W_ih=None, W_hh=W_hh, b_ih=torch.zeros(1, 11, dtype=D))


def test_lstm_params_from_torch_rejects_unsupported():
    with pytest.raises(ValueError, match="single-layer"):
        lstm_params_from_torch(torch.nn.LSTM(2, 3, num_layers=2))
    with pytest.raises(ValueError, match="expected a torch.nn.LSTM"):
        lstm_params_from_torch(torch.nn.GRU(2, 3))
    params = lstm_params_from_torch(torch.nn.LSTM(2, 3, bias=False).double())
    assert params["b_ih"].shape == (1, 12) and not params["b_ih"].any() and params["W_hh"].dtype == D


def test_concat_split_and_lstm_concat_step():
    P, B, H, I = 2, 3, 4, 2
    params = {"W_ih": rand(P, 4 * H, I), "W_hh": rand(P, 4 * H, H, seed=1),
              "b_ih": rand(P, 4 * H, seed=2), "b_hh": rand(P, 4 * H, seed=3)}
    h, c, x = rand(P, B, H, seed=4), rand(P, B, H, seed=5), rand(B, I, seed=6)
    z = concat_state(h, c)
    assert z.shape == (P, B, 2 * H)
    h2, c2 = split_state(z)
    assert torch.equal(h2, h) and torch.equal(c2, c)
    step = lstm_concat_step(**params)
    assert torch.equal(step(z, x), concat_state(*lstm_step(h, c, x, **params)))
    assert torch.equal(step(z), concat_state(*lstm_step(h, c, None, **params)))
    with pytest.raises(ValueError, match="even"):
        split_state(z[..., :-1])
    with pytest.raises(ValueError, match="same shape"):
        concat_state(h, c[:1])
    with pytest.raises(ValueError, match=r"z must have shape"):
        step(z[0])
