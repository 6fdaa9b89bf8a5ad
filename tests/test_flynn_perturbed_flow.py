import numpy as np
import pytest

from rnnrepro.flynn import perturbed_flow as pf


def test_fields_have_the_stated_errors():
    z = np.random.default_rng(0).uniform(-4, 4, 6)
    g = pf.grad(z)
    u = pf.rotate(g, 0.7)
    assert np.linalg.norm(u) == pytest.approx(np.linalg.norm(g)) and u @ g == pytest.approx(np.cos(0.7) * g @ g)
    a = 0.6
    uc = -pf.corollary1_field(a)(0.0, z)
    assert np.linalg.norm(g - uc) == pytest.approx(a * np.linalg.norm(uc))
    eps = 1e-6
    fd = np.array([(pf.value(z + eps * e) - pf.value(z - eps * e)) / (2 * eps) for e in np.eye(6)])
    assert np.allclose(fd, g, atol=1e-8)


def test_runs_converge_stall_and_escape():
    z0 = np.random.default_rng(1).uniform(-4, 4, 6)
    assert pf.run(pf.theorem2_field(0.5, 0.0), z0, 200.0, 11)[3][-1] < 1e-6
    assert pf.run(pf.theorem2_field(1.0, 0.0), z0, 10.0, 11)[3][-1] == pytest.approx(np.linalg.norm(pf.grad(z0)))
    t, Z, v, g = pf.run(pf.corollary1_field(2.0, sign=-1.0), z0, 200.0, 11)
    assert v[-1] > v[0] and pf.descent_gap(v, g) > 0.5
    t, Z, v, g = pf.run(pf.theorem2_field(0.5, 0.0), z0, 200.0, 11)
    assert pf.descent_gap(v, g) < 1e-6
    with pytest.raises(ValueError):
        pf.rotate(np.ones(3), 0.1)
    with pytest.raises(ValueError):
        pf.corollary1_field(1.0)
