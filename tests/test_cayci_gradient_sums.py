"""Prop. 1's printed sums (rnnrepro.cayci.gradient_sums) against central finite differences of the network,
an independent reference; mutants of the sums (a dropped term, the lag or the power off by one, one factor of
the product missing or added) must miss the reference by far more than its tolerance."""

import inspect
import textwrap

import pytest
import torch

from rnnrepro.cayci import elman as E
from rnnrepro.cayci import gradient_sums as G

TOL = 1e-8          # central differences with h = 1e-5: truncation ~h² ≈ 1e-10, round-off ~ε/h ≈ 1e-11


@pytest.fixture(autouse=True)
def _f64():
    torch.set_default_dtype(torch.float64)


def _instance(act_name="tanh"):
    """One network, m = 4, d = 3, W_ii of both signs and sizes (one above 1), 2 sequences of length 5."""
    act = E.activation(act_name)
    w = torch.tensor([0.6, -0.8, 1.3, 0.35])
    U = torch.tensor([[0.9, -0.4, 0.3], [-0.5, 1.1, 0.2], [0.3, 0.2, -0.7], [1.2, 0.1, 0.5]])
    X = E.sphere_inputs(2, 5, 3, 11)
    return X, w, U, act


def _finite_differences(X, w, U, act, h=1e-5):
    """Full Jacobians by central differences: ∂H^(j)_t/∂W_ii (n, T, m_j, m_i), ∂H^(j)_t/∂U_i (n, T, m_j, m_i, d)."""
    m, d = U.shape
    jw = torch.zeros(X.shape[:2] + (m, m))
    ju = torch.zeros(X.shape[:2] + (m, m, d))
    for i in range(m):
        e = torch.zeros(m)
        e[i] = h
        jw[..., i] = (E.hidden(X, w + e, U, act) - E.hidden(X, w - e, U, act)) / (2 * h)
        for a in range(d):
            E_ = torch.zeros(m, d)
            E_[i, a] = h
            ju[..., i, a] = (E.hidden(X, w, U + E_, act) - E.hidden(X, w, U - E_, act)) / (2 * h)
    return jw, ju


def _gap(sums, fd):
    """Largest difference between δ_ij × the sums and the finite-difference Jacobians."""
    (sw, su), (jw, ju) = sums, fd
    eye = torch.eye(sw.shape[-1])
    return max(float((jw - eye * sw[..., None, :]).abs().max()),
               float((ju - eye[..., None] * su[..., None, :, :]).abs().max()))


@pytest.mark.parametrize("name", ["tanh", "logistic"])
def test_printed_sums_match_finite_differences(name):
    X, w, U, act = _instance(name)
    sums = G.printed_sums(X, w, U, act)
    assert sums[0].shape == (2, 5, 4) and sums[1].shape == (2, 5, 4, 3)
    assert _gap(sums, _finite_differences(X, w, U, act)) < TOL
    assert G.gap_to_autograd(X, w, U, act) < 1e-13


def test_the_sums_from_k_1_miss_and_gap_to_autograd_sees_it():
    X, w, U, act = _instance()
    fd = _finite_differences(X, w, U, act)
    assert _gap(G.printed_sums(X, w, U, act, k_start=1), fd) > 0.1
    assert G.gap_to_autograd(X, w, U, act, k_start=1) > 0.1
    sw1, su1 = G.printed_sums(X, w, U, act, k_start=1)
    assert float(su1[:, 0].abs().max()) == 0.0            # t = 1 has only the k = 0 term


MUTANTS = {
    "the last term k = t-1 dropped": ("range(k_start, t)", "range(k_start, t - 1)"),
    "the lag one step late": ("lag = t - k - 1", "lag = t - k - 2"),
    "the lag one step early": ("lag = t - k - 1", "lag = min(t - k, T - 1)"),
    "the power one higher": ("w[..., None, :] ** k", "w[..., None, :] ** (k + 1)"),
    "the power one lower": ("w[..., None, :] ** k", "w[..., None, :] ** max(k - 1, 0)"),
    "one factor of the product missing": ("range(k + 1)", "range(k)"),
    "the product's factors shifted": ("I[..., t - s - 1, :]", "I[..., t - s - 2, :]"),
}


@pytest.mark.parametrize("mutant", MUTANTS)
def test_a_mutated_sum_misses_the_reference(mutant):
    """Each mutant of the source of printed_sums (the replaced text must occur in it) misses the
    finite-difference reference by more than 1000 × its tolerance: the test above can fail."""
    old, new = MUTANTS[mutant]
    source = textwrap.dedent(inspect.getsource(G.printed_sums))
    assert source.count(old) == 1, f"{old!r} no longer occurs once in printed_sums: update the mutant"
    namespace = dict(vars(G))
    exec(compile(source.replace(old, new), "<mutant>", "exec"), namespace)
    X, w, U, act = _instance()
    assert _gap(namespace["printed_sums"](X, w, U, act), _finite_differences(X, w, U, act)) > 1000 * TOL


def test_bad_input_is_refused():
    X, w, U, act = _instance()
    with pytest.raises(ValueError, match="k_start"):
        G.printed_sums(X, w, U, act, k_start=2)
    with pytest.raises(ValueError, match="shapes"):
        G.printed_sums(X, w[:3], U, act)
    with pytest.raises(ValueError, match="one network"):
        G.gap_to_autograd(X, w[None], U[None], act)


def test_leading_batch_dimensions_broadcast():
    X, w, U, act = _instance()
    sw, su = G.printed_sums(X, torch.stack([w, -w]), torch.stack([U, U]), act)
    assert sw.shape == (2, 2, 5, 4) and su.shape == (2, 2, 5, 4, 3)
    assert torch.allclose(sw[1], G.printed_sums(X, -w, U, act)[0], rtol=0, atol=1e-15)
