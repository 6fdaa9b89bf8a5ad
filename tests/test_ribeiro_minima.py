import numpy as np
import pytest
import torch

from rnnrepro.ribeiro.minima import (count_strict_local_minima_1d, count_strict_local_minima_2d, density_ratio,
                                    line_grid, strict_local_minima_mask_1d, strict_local_minima_mask_2d,
                                    strict_minima_beyond)


def test_1d_counts_interior_strict_minima_only():
    v = [0.0, 1.0, 0.5, 2.0, 2.0, 3.0, 1.0, 1.0, 4.0, -1.0]
    # index 2 is a strict minimum; 6/7 are a plateau (not strict); the end points never count
    mask = strict_local_minima_mask_1d(v)
    assert mask.dtype == bool and mask.shape == (10,)
    assert np.flatnonzero(mask).tolist() == [2]
    n, idx = count_strict_local_minima_1d(v, return_indices=True)
    assert n == 1 and idx.tolist() == [2] and count_strict_local_minima_1d(v) == 1


def test_1d_known_count_and_edge_cases():
    s = np.linspace(0, 10 * np.pi, 2001)
    assert count_strict_local_minima_1d(np.sin(s)) == 5
    assert count_strict_local_minima_1d(torch.tensor([1.0, 0.0, 1.0])) == 1
    assert count_strict_local_minima_1d([1.0, 0.0]) == 0
    assert count_strict_local_minima_1d([1.0, np.nan, 1.0, 0.5, np.nan]) == 0
    with pytest.raises(ValueError, match="1-dimensional"):
        count_strict_local_minima_1d(np.zeros((3, 3)))


def test_2d_eight_neighbours():
    V = np.ones((5, 6))
    V[2, 2] = 0.0  # strict minimum
    V[1, 4] = 0.5  # on the interior, strict
    V[0, 0] = -1.0  # border: never counted
    V[3, 3] = 0.5
    V[3, 4] = 0.5  # tie with a neighbour: (3, 3) and (3, 4) are not strict; (3,3) also touches (2,2)
    mask = strict_local_minima_mask_2d(V)
    assert mask.shape == V.shape
    n, idx = count_strict_local_minima_2d(V, return_indices=True)
    assert n == 2 and idx.tolist() == [[1, 4], [2, 2]]
    W = np.ones((3, 3))
    W[1, 1] = 0.0
    W[0, 0] = -1.0  # a diagonal neighbour lower: not a minimum
    assert count_strict_local_minima_2d(W) == 0


def test_2d_known_count_and_errors():
    x = np.linspace(0, 4 * np.pi, 201)
    V = np.cos(x)[:, None] + np.cos(x)[None, :]  # minima at (pi, pi), (pi, 3pi), (3pi, pi), (3pi, 3pi)
    assert count_strict_local_minima_2d(V) == 4
    assert count_strict_local_minima_2d(torch.zeros(2, 5)) == 0
    with pytest.raises(ValueError, match="2-dimensional"):
        count_strict_local_minima_2d(np.zeros(5))


def test_density_ratio():
    mask = np.array([1, 1, 0, 0, 0, 1, 0, 0], bool)
    inside = np.array([1, 1, 1, 1, 0, 0, 0, 0], bool)
    assert density_ratio(mask, inside, ~inside) == (2 / 4) / (1 / 4)
    assert density_ratio(np.zeros(8, bool) | inside, inside, ~inside) == 4.0   # outside count floored at 1


def test_strict_minima_beyond_ignores_shallow_dips():
    v = np.array([1.0, 0.0, 1.0, 0.999999, 1.0])
    assert strict_minima_beyond(v, 0.0).tolist() == [False, True, False, True, False]
    assert strict_minima_beyond(v, 1e-3).tolist() == [False, True, False, False, False]
    with pytest.raises(ValueError):
        strict_minima_beyond(v, -1.0)
    with pytest.raises(ValueError):
        strict_minima_beyond(v[None], 0.0)


def test_line_grid_has_exact_nodes_and_no_near_duplicates():
    raw = np.union1d(np.linspace(-0.1, 1.1, 121), [0.0, 1.0])          # linspace misses 0 and 1 by round-off
    assert np.diff(raw).min() < 1e-9                                    # the defect: two points beside 0 (and 1)
    s = line_grid(-0.1, 1.1, 121, [0.0, 1.0])
    assert len(s) == 121 and np.diff(s).min() > 0.009                   # 0 and 1 are grid points, spacing 0.01
    assert 0.0 in s and 1.0 in s
    assert np.abs(s - np.linspace(-0.1, 1.1, 121)).max() < 1e-12
    assert len(line_grid(-0.1, 1.1, 20, [0.0, 1.0])) == 22             # nodes off the spaced grid are added
