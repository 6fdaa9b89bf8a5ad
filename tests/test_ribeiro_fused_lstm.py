"""The fused CPU trainer against autograd and against a loop in the authors' style."""
import numpy as np
import pytest
import torch

from rnnrepro.ribeiro import temporal_order as to
from rnnrepro.ribeiro.authors_loop import AuthorsLoop
from rnnrepro.ribeiro.batched_training import BatchedTrainer, stacked_init
from rnnrepro.ribeiro.fused_lstm import FusedTrainer, loss_and_grads
from rnnrepro.ribeiro.sweep_runner import move_by_ulps


@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_gradients_equal_autograd(reduction):
    torch.set_num_threads(1)
    data = (*to.make_data(30, 52, 1), *to.make_data(10, 52, 2))
    bt = BatchedTrainer([0, 5, 9], data, hidden=7, reduction=reduction)
    U, y = bt.U, bt.y
    ce, logits, grads = bt._loss_and_grads(U, y)
    ce2, logits2, grads2 = loss_and_grads(bt.params, U.argmax(2), y, scale=1.0 if reduction == "sum" else 1 / 30)
    assert torch.allclose(ce2, ce.detach(), rtol=1e-5, atol=1e-6)
    assert torch.allclose(logits2, logits.detach(), rtol=1e-5, atol=1e-6)
    for g, g2 in zip(grads, grads2):
        assert g2.shape == g.shape
        assert (g2 - g).abs().max() <= 1e-5 * g.abs().max()


def test_two_threads_give_the_one_thread_result_bit_for_bit():
    data = (*to.make_data(20, 51, 1), *to.make_data(10, 51, 2))
    X, y = data[0], data[1]
    params = stacked_init(6, range(3))
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = loss_and_grads(params, X.T.contiguous(), y)[2]
        torch.set_num_threads(2)
        two = loss_and_grads(params, X.T.contiguous(), y)[2]
        assert torch.get_num_threads() == 2                      # restored after the call
    finally:
        torch.set_num_threads(threads)
    assert all(torch.equal(a, b) for a, b in zip(one, two))


def _theta_after(loop: AuthorsLoop, steps: int) -> torch.Tensor:
    for k in range(steps):
        loop.step(k)
    return loop.theta()


def test_each_seed_follows_the_authors_loop_within_round_off_over_20_steps():
    """The paper's size (T = 150, 1000 sequences, batches of 100, 50 units): 20 steps of the fused trainer
    against the authors' loop, within 10 times the floor measured here (the authors' loop from initial
    weights moved by one ulp). Control: the authors' loop at a learning rate 10 % off."""
    torch.set_num_threads(1)
    data = (*to.make_data(1000, 150, 1), *to.make_data(100, 150, 2))
    seeds = [0, 3]
    ft = FusedTrainer(seeds, data, reduction="sum")
    ft.train_epoch()
    ft.train_epoch()
    for k, seed in enumerate(seeds):
        ref = _theta_after(AuthorsLoop(data, seed=seed), 20)
        twin_init = to.flat(to.new_model(50, seed))
        move_by_ulps([twin_init], 1)
        floor = (_theta_after(AuthorsLoop(data, seed=seed, theta=twin_init), 20) - ref).abs().max()
        off = (_theta_after(AuthorsLoop(data, seed=seed, lr=1.1e-3), 20) - ref).abs().max()
        gap = (ft.theta(k) - ref).abs().max()
        assert 0 < floor and gap <= 10 * floor, (seed, gap, floor)
        assert off > 10 * floor, (seed, off, floor)


def test_loading_the_extension_leaves_denormals_alone():
    """-ffast-math is a compile flag only: no flush-to-zero for the rest of the process."""
    FusedTrainer([0], (*to.make_data(10, 50, 1), *to.make_data(10, 50, 2)), hidden=3, batch=10)
    tiny = torch.tensor([1e-40], dtype=torch.float32)
    assert float(tiny * 1.0) > 0
    assert np.float32(1e-40) * np.float32(1.0) > 0


def test_fused_trainer_refuses_a_gpu():
    with pytest.raises(ValueError, match="CPU only"):
        FusedTrainer([0], (*to.make_data(10, 50, 1), *to.make_data(10, 50, 2)), hidden=3, device="cuda")


def test_move_by_ulps_is_numpys_nextafter():
    x = torch.tensor([0.0, 1.0, -2.5, 3e-38], dtype=torch.float32)
    y = x.clone()
    move_by_ulps([y], 2)
    want = np.nextafter(np.nextafter(x.numpy(), np.inf), np.inf)
    assert np.array_equal(y.numpy(), want)
    move_by_ulps([y], -2)
    assert torch.equal(y, x)
