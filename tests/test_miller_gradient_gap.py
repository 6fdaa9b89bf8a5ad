import pytest
import torch

from rnnrepro.miller import gradient_gap as gg
from rnnrepro.miller import instances

torch.set_num_threads(1)


def setup(act="linear", lam=0.6):
    g = torch.Generator().manual_seed(0)
    inst = instances.make_instance(2, 4, 3, lam, g, setup="calibrated")
    xs = torch.randn(12, 2, 3, generator=g, dtype=torch.float64)
    return inst, xs


@pytest.mark.parametrize("act", ["linear", "tanh"])
def test_gradients_match_a_direct_truncated_run(act):
    inst, xs = setup(act)
    gW, gU = gg.final_loss_gradients(inst, xs, [3, 12], act)
    W = inst.W.clone().requires_grad_(True)
    U = inst.U.clone().requires_grad_(True)
    step = instances.step_fn(act, W, U)
    h = torch.zeros(2, 1, 4, dtype=torch.float64)
    for x in xs[-3:]:  # the last 3 inputs from a zero state
        h = step(h, x[:, None, :])
    pred = (h[:, 0] * inst.C).sum(-1) + (xs[-1] * inst.D).sum(-1)
    gW3, gU3 = torch.autograd.grad((0.5 * (inst.y - pred) ** 2).sum(), [W, U])
    assert torch.allclose(gW[:, 0], gW3, rtol=1e-10, atol=1e-12)
    assert torch.allclose(gU[:, 0], gU3, rtol=1e-10, atol=1e-12)


def test_gaps_vanish_at_full_length_and_shape_ratio():
    inst, xs = setup()
    gaps, full = gg.gradient_gaps(inst, xs, [1, 2, 12], "linear")
    assert gaps.shape == (2, 3) and full.shape == (2,)
    assert gaps[:, -1].abs().max() == 0
    fake = torch.tensor([[0.5 ** k * k for k in (1, 2, 3, 4)]])
    assert torch.allclose(gg.shape_ratio(fake, [1, 2, 3, 4], 0.5, 1, 4), torch.tensor([4.0]))
    assert torch.allclose(gg.kbound_ratio(fake, [1, 2, 3, 4], 0.5, 1, 4), torch.tensor([1.0]))
    assert torch.allclose(gg.decay_slopes(fake / torch.tensor([1.0, 2, 3, 4]), [1, 2, 3, 4], 4),
                          torch.log(torch.tensor([0.5], dtype=torch.float64)))


def test_kbound_ratio_against_loops():
    g = torch.Generator().manual_seed(0)
    ks, lam = [1, 2, 3, 5, 8, 13], 0.8
    gaps = torch.rand(3, len(ks), generator=g, dtype=torch.float64)
    got = gg.kbound_ratio(gaps, ks, lam, 3, 8)
    for p in range(3):
        sc = [float(gaps[p, i]) / (k * lam ** k) for i, k in enumerate(ks)]
        want = max(sc[3], sc[4]) / max(sc[:3])
        assert abs(float(got[p]) - want) < 1e-12
    dip = torch.tensor([[k * lam ** k * (0.1 if k == 3 else 1.0) for k in ks]], dtype=torch.float64)
    assert float(gg.kbound_ratio(dip, ks, lam, 3, 13)) == 1.0   # a dip at one small k does not set γ


def test_bad_lengths():
    inst, xs = setup()
    with pytest.raises(ValueError):
        gg.final_loss_gradients(inst, xs, [0, 3], "linear")
    with pytest.raises(ValueError):
        gg.decay_slopes(torch.ones(1, 3), [5, 6, 7], 5)


def _fd_gap_lds(inst, xs, k, eps=1e-6):
    """‖∇p_T − ∇p^k_T‖ for one instance of an LDS by central finite differences of two plain forward runs."""
    import numpy as np
    W, U, C, D, y = (np.asarray(v[0], dtype=np.float64) for v in (inst.W, inst.U, inst.C, inst.D, inst.y))
    x = np.asarray(xs[:, 0], dtype=np.float64)
    T = len(x)

    def loss(W, U, k):
        h = np.zeros(W.shape[0])
        for t in range(max(T - k, 0), T):
            h = W @ h + U @ x[t]
        return 0.5 * (y - C @ h - D @ x[-1]) ** 2

    def grad(k):
        out = []
        for M, other, first in ((W, U, True), (U, W, False)):
            g = np.zeros_like(M)
            for idx in np.ndindex(M.shape):
                Mp, Mm = M.copy(), M.copy()
                Mp[idx] += eps
                Mm[idx] -= eps
                lp = loss(Mp, other, k) if first else loss(other, Mp, k)
                lm = loss(Mm, other, k) if first else loss(other, Mm, k)
                g[idx] = (lp - lm) / (2 * eps)
            out.append(g.ravel())
        return np.concatenate(out)
    return float(np.linalg.norm(grad(T) - grad(k))), float(np.linalg.norm(grad(T)))


@pytest.mark.parametrize("k", [1, 3, 5])
def test_bptt_gaps_lds_match_finite_differences(k):
    g = torch.Generator().manual_seed(3)
    inst = instances.make_instance(1, 3, 2, 0.8, g, setup="orthogonal")
    xs = torch.randn(7, 1, 2, generator=g, dtype=torch.float64)
    gap, full = gg.bptt_gaps_lds(inst, xs, [k])
    gap_fd, full_fd = _fd_gap_lds(inst, xs, k)
    assert abs(gap[0, 0] / gap_fd - 1) < 1e-6 and abs(full[0] / full_fd - 1) < 1e-6
    carried, _ = gg.bptt_gaps_lds(inst, xs, [k], carry_state=True)   # not the truncated model: differs
    assert abs(carried[0, 0] / gap_fd - 1) > 1e-3
