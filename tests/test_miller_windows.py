import pytest
import torch

from rnnrepro.miller import instances, windows

torch.set_num_threads(1)


def scalar_step(a):
    return lambda h, x: a * h + x


def test_window_states_reads_k_inputs():
    xs = torch.arange(1.0, 7.0, dtype=torch.float64).view(6, 1, 1)
    h = windows.window_states(scalar_step(1.0), xs, 1, 2)  # sums of 2 consecutive inputs
    assert h[:, 0, 0].tolist() == [3.0, 5.0, 7.0, 9.0, 11.0]
    full = windows.full_states(scalar_step(1.0), xs, 1)
    assert full[:, 0, 0].tolist() == [1.0, 3.0, 6.0, 10.0, 15.0, 21.0]


def test_truncation_error_table_scalar():
    xs = torch.ones(8, 1, 1, dtype=torch.float64)
    err, err_y = windows.truncation_error_table(scalar_step(0.5), xs, 1, [1, 3], readout=torch.full((1, 1), 2.0))
    # sup_t |h_t - h^k_t| = 0.5^k (1 - 0.5^(T-k)) / (1 - 0.5), attained at t = T
    assert torch.allclose(err[:, 0], torch.tensor([0.5 * (1 - 0.5 ** 7) / 0.5, 0.125 * (1 - 0.5 ** 5) / 0.5]))
    assert torch.allclose(err_y, 2 * err)


def test_lds_identity_and_errors():
    inst = instances.make_instance(2, 4, 3, 0.9, torch.Generator().manual_seed(0), setup="calibrated")
    xs = torch.randn(30, 2, 3, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    assert windows.lds_identity_gap(inst.W, xs, inst.U, 5).max() < 1e-13
    with pytest.raises(ValueError):
        windows.window_states(scalar_step(1.0), xs, 4, 31)
    with pytest.raises(ValueError):
        windows.full_states(scalar_step(1.0), xs[0], 4)


def test_lemma1_scale_and_smallest_k():
    U = torch.eye(2, dtype=torch.float64).expand(1, 2, 2) * 2
    xs = torch.tensor([[[3.0, 4.0]], [[0.0, 1.0]]], dtype=torch.float64)
    assert torch.allclose(windows.lemma1_scale(U, xs, 0.5), torch.tensor([20.0], dtype=torch.float64))
    errors = torch.tensor([[1.0, 1.0], [0.1, 1.0], [0.5, 0.01], [0.01, 0.001]])
    assert windows.smallest_k(errors, [1, 2, 3, 4], 0.2).tolist() == [4, 3]
    assert windows.smallest_k(errors, [1, 2, 3, 4], 1e-9).tolist() == [5, 5]


def test_lemma1_ratio_divides_by_the_bound():
    U = torch.eye(2, dtype=torch.float64).expand(3, 2, 2)
    xs = torch.ones(4, 3, 2, dtype=torch.float64)                      # B_x = sqrt(2), L_x = 1
    lam, ks = 0.5, [1, 2]
    bound = torch.tensor([[lam], [lam ** 2]], dtype=torch.float64) * (2 ** 0.5 / (1 - lam))
    errors = bound.expand(2, 3).clone()
    errors[1, 2] *= 0.25
    assert windows.lemma1_ratio(errors, U, xs, lam, ks) == pytest.approx(1.0)
    assert windows.lemma1_ratio(0.5 * errors, U, xs, lam, ks) == pytest.approx(0.5)
