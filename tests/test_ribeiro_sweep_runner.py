import torch

from rnnrepro.ribeiro.sweep_runner import run_sweep


def test_process_pool_equals_serial_and_resume(tmp_path):
    kw = dict(epochs=2, T=52, n=20, hidden=5, checkpoint_every=1, eval_every=1)
    serial = run_sweep([[0], [1, 2]], workers=1, out=str(tmp_path / "a"), **kw)
    pooled = run_sweep([[0], [1, 2]], workers=2, out=str(tmp_path / "b"), **kw)
    again = run_sweep([[0], [1, 2]], workers=1, out=str(tmp_path / "a"), **kw)   # resumes: nothing to do
    for p, q, r in zip(serial, pooled, again):
        a, b, c = (torch.load(x, weights_only=False) for x in (p, q, r))
        assert a["epoch"] == b["epoch"] == c["epoch"] == 2
        for x, y in zip(a["params"], b["params"]):
            assert torch.equal(x, y)
