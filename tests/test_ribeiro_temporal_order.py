import numpy as np
import torch

from rnnrepro.ribeiro import temporal_order as to


def test_make_data_semantics():
    X, y = to.make_data(500, 60, 3)
    assert X.shape == (500, 60) and y.shape == (500,)
    relevant = (X < 2)
    assert (relevant.sum(1) == 2).all()
    pos = [np.flatnonzero(r) for r in relevant.numpy()]
    assert all(9 <= a <= 18 and 39 <= b <= 48 for a, b in pos)
    labels = [2 * X[i, a].item() + X[i, b].item() for i, (a, b) in enumerate(pos)]
    assert labels == y.tolist()
    X2, y2 = to.make_data(500, 60, 3)
    assert torch.equal(X, X2) and torch.equal(y, y2)


def test_flat_roundtrip_and_line_cost_matches_module():
    m = to.new_model(8, 0).double()
    X, y = to.make_data(20, 55, 0)
    th = to.flat(m)
    ths = to.line_thetas(th * 0.5, th, [0.0, 1.0])
    V = to.line_cost(m, ths, X, y)
    loss0, _ = to.evaluate(m, X, y)
    assert abs(V[0] - loss0) < 1e-12
    to.set_flat(m, th * 0.5)
    assert abs(V[1] - to.evaluate(m, X, y)[0]) < 1e-12


def test_trainer_resume_is_bitwise():
    torch.set_default_dtype(torch.float32)
    try:
        X, y = to.make_data(100, 55, 0)
        Xv, yv = to.make_data(100, 55, 1)
        a = to.Trainer(to.new_model(8, 0), (X, y, Xv, yv))
        a.run(2)
        st = a.state()
        a.run(2)
        b = to.Trainer(to.new_model(8, 1), (X, y, Xv, yv))
        b.load_state(st)
        hb = b.run(2)
        assert hb["epoch"] == [2, 3, 4]
        assert hb["val_loss"][1:] == a.history["val_loss"][3:]
        assert torch.equal(to.flat(a.model), to.flat(b.model))
    finally:
        torch.set_default_dtype(torch.float64)


def test_set_flat_copies_and_evaluation_chain():
    import pytest
    m = to.new_model(4, 0)
    th = torch.zeros_like(to.flat(m))
    to.set_flat(m, th)
    with torch.no_grad():
        next(m.parameters()).add_(1.0)          # training writes into the parameters ...
    assert torch.count_nonzero(th) == 0         # ... never into the vector they came from
    assert to.evaluation_chain(100, 50) == 100 * 56 + 50 + 500
    with pytest.raises(ValueError):
        to.evaluation_chain(0, 50)
