import math

import numpy as np
import pytest
import torch

from rnnrepro.core.train import History, train

torch.set_num_threads(1)
D = torch.float64


def quadratic(target):
    return lambda params: 0.5 * ((params[0] - target) ** 2).sum()


def test_history_columns():
    h = History()
    h.append(step=0, loss=1.0)
    h.append(step=1, loss=0.5, acc=0.9)  # new column back-filled with nan
    h.append(step=2)
    assert len(h) == 3 and h.columns == ("step", "loss", "acc")
    assert h.last("step") == 2 and math.isnan(h.last("loss")) and "acc" in h
    d = h.to_dict()
    assert d["step"] == [0, 1, 2] and math.isnan(d["acc"][0]) and d["acc"][1] == 0.9
    d["step"].append(99)
    assert h["step"] == [0, 1, 2]  # to_dict is a copy
    arrays = h.as_arrays()
    assert arrays["step"].dtype.kind == "i" and arrays["loss"].shape == (3,)
    assert len(History({"a": [1, 2]})) == 2 and "History(2 rows" in repr(History({"a": [1, 2]}))
    with pytest.raises(KeyError, match="no logged values"):
        h.last("missing")
    with pytest.raises(ValueError, match="different lengths"):
        History({"a": [1], "b": [1, 2]})


def test_gd_closed_form_and_logging():
    target = torch.tensor([1.0, -2.0], dtype=D)
    w = torch.zeros(2, dtype=D, requires_grad=True)
    hist = train([w], quadratic(target), steps=10, lr=0.5, log_every=3)
    # w_k = target (1 - (1 - lr)^k)
    assert torch.allclose(w.detach(), target * (1 - 0.5 ** 10), atol=1e-15)
    assert hist["step"] == [0, 3, 6, 9, 10]
    loss0 = 0.5 * float((target ** 2).sum())
    assert hist["loss"][0] == pytest.approx(loss0) and hist["loss"][-1] == pytest.approx(loss0 * 0.25 ** 10)
    assert hist["grad_norm"][0] == pytest.approx(float(target.norm())) and hist["lr"] == [0.5] * 5


def test_dict_params_metrics_schedule_and_milestones():
    w = {"a": torch.tensor([4.0], dtype=D, requires_grad=True)}
    loss_fn = lambda p: (0.5 * (p["a"] ** 2).sum(), {"a": p["a"].item()})  # noqa: E731
    hist = train(w, loss_fn, steps=3, lr=1.0, schedule=lambda k: 0.5)
    assert hist["a"] == [4.0, 2.0, 1.0, 0.5] and hist["lr"] == [0.5] * 4
    w2 = [torch.tensor([1.0], dtype=D, requires_grad=True)]
    hist2 = train(w2, quadratic(0.0), steps=5, lr=1.0, schedule=[2, 4], gamma=0.5)
    assert hist2["lr"] == [1.0, 1.0, 0.5, 0.5, 0.25, 0.25]


TARGET = torch.tensor([1.0, -2.0, 0.5], dtype=D)
A = torch.tensor([[2.0, 0.3, 0.0], [0.3, 1.0, 0.1], [0.0, 0.1, 0.5]], dtype=D)


def nonquadratic(params):
    r = params[0] - TARGET
    return r @ A @ r + (params[0] ** 4).sum() * 0.01


def grad_at(x):
    x = x.detach().requires_grad_(True)
    return torch.autograd.grad(nonquadratic([x]), x)[0]


# (torch.optim is not used as the reference here: its first step imports torch._dynamo, ~6 s.
#  The trainer was checked against torch.optim.Adam / SGD(momentum) to 1e-12 when written.)
def test_adam_matches_kingma_ba():
    lr, b1, b2, eps = 0.05, 0.9, 0.999, 1e-8
    ours = [torch.zeros(3, dtype=D, requires_grad=True)]
    train(ours, nonquadratic, steps=30, method="adam", lr=lr)
    x, m, v = torch.zeros(3, dtype=D), torch.zeros(3, dtype=D), torch.zeros(3, dtype=D)
    for t in range(1, 31):
        g = grad_at(x)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g ** 2
        x = x - lr * (m / (1 - b1 ** t)) / ((v / (1 - b2 ** t)).sqrt() + eps)
    assert torch.allclose(ours[0], x, atol=1e-12, rtol=0)


def test_heavy_ball_matches_polyak_form():
    lr, mu = 0.05, 0.8
    ours = [torch.zeros(3, dtype=D, requires_grad=True)]
    train(ours, nonquadratic, steps=30, method="heavy_ball", lr=lr, momentum=mu)
    x_prev = x = torch.zeros(3, dtype=D)
    for _ in range(30):  # x_{k+1} = x_k - lr g(x_k) + mu (x_k - x_{k-1})
        x_prev, x = x, x - lr * grad_at(x) + mu * (x - x_prev)
    assert torch.allclose(ours[0], x, atol=1e-12, rtol=0)


def test_projected_gd_clip_and_callbacks():
    w = [torch.tensor([3.0, 4.0], dtype=D, requires_grad=True)]

    def project_in_place(p):
        p[0].clamp_(-1.0, 1.0)

    train(w, quadratic(torch.tensor([10.0, 10.0], dtype=D)), steps=5, method="projected_gd", lr=0.1,
          project=project_in_place)
    assert torch.equal(w[0].detach(), torch.ones(2, dtype=D))
    v = [torch.tensor([3.0], dtype=D, requires_grad=True)]
    train(v, quadratic(torch.tensor([10.0], dtype=D)), steps=2, method="gd", lr=1.0,
          project=lambda p: [p[0] * 0 + 0.5])  # returned values are copied in
    assert v[0].item() == 0.5
    # clipping: a gradient of norm 10 is scaled to norm 1
    u = [torch.zeros(2, dtype=D, requires_grad=True)]
    hist = train(u, quadratic(torch.tensor([6.0, 8.0], dtype=D)), steps=1, lr=1.0, clip=1.0)
    assert torch.allclose(u[0].detach(), torch.tensor([0.6, 0.8], dtype=D)) and hist["grad_norm"][0] == 10.0
    # a callback returning True stops after the logged row, before that step's update
    seen = []
    z = [torch.zeros(1, dtype=D, requires_grad=True)]
    hist = train(z, quadratic(torch.ones(1, dtype=D)), steps=100, lr=0.1, log_every=2,
                 callbacks=[lambda k, p, h: seen.append(k) or k >= 4])
    assert seen == [0, 2, 4] and hist["step"] == [0, 2, 4]
    assert z[0].item() == pytest.approx(1 - 0.9 ** 4)


def test_silent_and_errors(capsys):
    w = [torch.zeros(1, dtype=D, requires_grad=True)]
    train(w, quadratic(torch.ones(1, dtype=D)), steps=3, lr=0.1)
    assert capsys.readouterr().err == ""  # not a terminal: no progress bar
    with pytest.raises(ValueError, match="unknown method"):
        train(w, quadratic(0.0), steps=1, lr=0.1, method="sgd")
    with pytest.raises(ValueError, match="needs a project"):
        train(w, quadratic(0.0), steps=1, lr=0.1, method="projected_gd")
    with pytest.raises(ValueError, match="requires_grad"):
        train([torch.zeros(1)], quadratic(0.0), steps=1, lr=0.1)
    with pytest.raises(ValueError, match="no parameters"):
        train([], quadratic(0.0), steps=1, lr=0.1)
    with pytest.raises(ValueError, match="scalar tensor"):
        train(w, lambda p: p[0].expand(3), steps=1, lr=0.1)
    with pytest.raises(ValueError, match="clip"):
        train(w, quadratic(0.0), steps=1, lr=0.1, clip=0.0)
    with pytest.raises(ValueError, match="log_every"):
        train(w, quadratic(0.0), steps=1, lr=0.1, log_every=0)
    assert np.isfinite(w[0].item())


def test_progress_bar_only_on_a_terminal_outside_jupyter(monkeypatch, capsys):
    import sys

    from rnnrepro.core import train as train_module

    class Tty:
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Tty())
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    assert train_module._show_progress(None) is True
    monkeypatch.setitem(sys.modules, "ipykernel", object())
    assert train_module._show_progress(None) is False
    assert train_module._show_progress(True) is True
    monkeypatch.undo()
    pytest.importorskip("tqdm")
    w = [torch.zeros(1, dtype=D, requires_grad=True)]
    train(w, quadratic(torch.ones(1, dtype=D)), steps=3, lr=0.1, progress=True)
    assert "0/3" in capsys.readouterr().err  # the bar was drawn (and cleared: leave=False)
