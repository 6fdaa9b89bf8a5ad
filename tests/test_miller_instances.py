import math

import pytest
import torch

from rnnrepro.miller import instances

torch.set_num_threads(1)


def gen(s=0):
    return torch.Generator().manual_seed(s)


def test_haar_orthogonal_is_orthogonal():
    Q = instances.haar_orthogonal(3, 5, gen())
    assert torch.allclose(Q @ Q.transpose(-1, -2), torch.eye(5, dtype=torch.float64).expand(3, 5, 5), atol=1e-12)


@pytest.mark.parametrize("setup", ["literal", "calibrated", "orthogonal"])
def test_make_instance_shapes_and_norms(setup):
    inst = instances.make_instance(4, 6, 3, 0.75, gen(), setup=setup)
    assert inst.W.shape == (4, 6, 6) and inst.U.shape == (4, 6, 3) and inst.C.shape == (4, 6)
    assert inst.D.shape == (4, 3) and inst.y.shape == (4,) and inst.P == 4
    assert torch.linalg.matrix_norm(inst.W, ord=2).max() <= 0.75 + 1e-12
    assert inst.y.abs().max() <= 2


def test_calibrated_divides_u_by_sqrt_d():
    a = instances.make_instance(2, 4, 9, 0.5, gen(1), setup="literal")
    b = instances.make_instance(2, 4, 9, 0.5, gen(1), setup="calibrated")
    assert torch.allclose(b.U, a.U / math.sqrt(9))


def test_with_norm_and_errors():
    inst = instances.with_norm(instances.make_instance(2, 4, 4, 0.5, gen(), setup="orthogonal"), 1.05)
    assert torch.allclose(torch.linalg.matrix_norm(inst.W, ord=2), torch.full((2,), 1.05, dtype=torch.float64))
    with pytest.raises(ValueError):
        instances.make_instance(2, 4, 4, 0.5, gen(), setup="printed")
    with pytest.raises(ValueError):
        instances.step_fn("relu", inst.W, inst.U)
