import torch

from rnnrepro.ribeiro import chaotic_lstm as cl
from rnnrepro.ribeiro import contraction, sensitivity


def test_contractive_forgetting():
    r = contraction.contractive_forgetting(n_starts=50, n_steps=150)
    assert r["worst_ratio"] <= 1 and r["spread"] < 1e-10
    assert r["dist"].shape == (50, 151)
    assert contraction.contractive_forgetting(n_starts=50, envelope_gain=0.5)["worst_ratio"] > 1


def test_forward_sensitivity_equals_autograd_and_control_fails():
    W = cl.theta_true()
    y = cl.simulate(W[None], 15)[0]
    w = (1.05 * W).reshape(-1)
    g, Js, AB = sensitivity.forward_sensitivity_grad(w, 15, y)
    ga = sensitivity.autograd_grad(w, 15, y)
    assert (g - ga).norm() / ga.norm() < 1e-12
    gb, _, _ = sensitivity.forward_sensitivity_grad(w, 15, y, jacobians_after_step=True)
    assert (gb - ga).norm() / ga.norm() > 1e-3
    for t in (1, 5, 10):
        assert torch.allclose(sensitivity.unrolled_J(AB, t), Js[t - 1], atol=1e-12)
