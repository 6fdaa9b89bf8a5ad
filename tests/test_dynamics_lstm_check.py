import pytest
import torch

from rnnrepro.dynamics.lstm_check import lstm_gap_to_torch, permute_gates


def test_matches_torch_and_wrong_order_does_not():
    assert lstm_gap_to_torch(n_sets=3, n_in=2, n_hidden=3, n_batch=2, n_steps=5, seed=0) <= 1e-12
    assert lstm_gap_to_torch(n_sets=3, n_in=2, n_hidden=3, n_batch=2, n_steps=5, seed=0, gate_order="ifog") > 1e-3


def test_permute_gates():
    W = torch.arange(8.0).view(1, 8, 1)   # four blocks of two rows: i, f, g, o
    out = permute_gates({"W": W}, "ifog")["W"].flatten().tolist()
    assert out == [0, 1, 2, 3, 6, 7, 4, 5]
    with pytest.raises(ValueError):
        permute_gates({"W": W}, "iffo")
