import pytest
import torch

from rnnrepro.core.flat import ParamSpec

torch.set_num_threads(1)
D = torch.float64


def make():
    return ParamSpec({"W": (2, 3), "b": (2,), "s": ()})


def test_spec_basics():
    spec = make()
    assert spec.size == 6 + 2 + 1 and len(spec) == 3 and spec.names == ("W", "b", "s")
    assert spec.offsets == {"W": 0, "b": 6, "s": 8}
    assert ParamSpec([("a", [1]), ("b", (2, 2))]).size == 5
    assert "size=9" in repr(spec)
    with pytest.raises(ValueError, match="duplicate"):
        ParamSpec([("a", (1,)), ("a", (2,))])


def test_pack_unpack_roundtrip_and_views():
    spec = make()
    P = 4
    params = {"W": torch.randn(P, 2, 3, dtype=D), "b": torch.randn(P, 2, dtype=D), "s": torch.randn(P, dtype=D)}
    flat = spec.pack(params)
    assert flat.shape == (P, spec.size) and flat.dtype == D
    assert torch.equal(flat[:, :6], params["W"].reshape(P, 6))
    back = spec.unpack(flat)
    assert all(torch.equal(back[k], params[k]) for k in params)
    assert back["W"].shape == (P, 2, 3) and back["s"].shape == (P,)
    back["b"][0, 1] = 123.0  # a view: writes through
    assert flat[0, 7] == 123.0
    assert spec.unpack(flat[1]).keys() == params.keys()  # no batch dimension
    assert spec.unpack(flat[1])["W"].shape == (2, 3)


def test_unpack_is_differentiable():
    spec = make()
    flat = torch.randn(3, spec.size, dtype=D, requires_grad=True)
    p = spec.unpack(flat)
    (p["W"].sum() + 2 * p["s"].sum()).backward()
    assert torch.equal(flat.grad[:, :6], torch.ones(3, 6, dtype=D))
    assert torch.equal(flat.grad[:, 8], torch.full((3,), 2.0, dtype=D))


def test_from_batched():
    params = {"A": torch.zeros(5, 3, 3), "c": torch.zeros(5, 3)}
    spec = ParamSpec.from_batched(params)
    assert spec.shapes == {"A": (3, 3), "c": (3,)} and spec.pack(params).shape == (5, 12)


def test_errors():
    spec = make()
    good = {"W": torch.zeros(4, 2, 3), "b": torch.zeros(4, 2), "s": torch.zeros(4)}
    with pytest.raises(ValueError, match="missing \\['s'\\]"):
        spec.pack({"W": good["W"], "b": good["b"]})
    with pytest.raises(ValueError, match="unexpected \\['z'\\]"):
        spec.pack({**good, "z": torch.zeros(1)})
    with pytest.raises(ValueError, match="W: expected shape"):
        spec.pack({**good, "W": torch.zeros(4, 3, 2)})
    with pytest.raises(ValueError, match="batch shape"):
        spec.pack({**good, "b": torch.zeros(3, 2)})
    with pytest.raises(ValueError, match="flat tensor"):
        spec.unpack(torch.zeros(4, 8))
