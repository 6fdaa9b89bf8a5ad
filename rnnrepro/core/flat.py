"""Flat parameter vectors: named tensors <-> one ``(P, D)`` matrix (one row per parameter set)."""

from __future__ import annotations

import math
from typing import Iterable, Mapping

import torch

Tensor = torch.Tensor


class ParamSpec:
    """An ordered list of parameter names and their (unbatched) shapes.

    ``pack({name: (P, *shape)}) -> (P, D)`` (a copy, names in spec order);
    ``unpack((P, D)) -> {name: (P, *shape)}`` (views of the flat tensor, differentiable).
    Any leading batch shape works in place of ``P``.
    """

    def __init__(self, shapes: Mapping[str, Iterable[int]] | Iterable[tuple[str, Iterable[int]]]):
        items = list(shapes.items()) if isinstance(shapes, Mapping) else list(shapes)
        names = [name for name, _ in items]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate parameter names in {names}")
        self.shapes: dict[str, tuple[int, ...]] = {name: tuple(int(s) for s in shape) for name, shape in items}
        self.numels = {name: math.prod(shape) for name, shape in self.shapes.items()}
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, n in self.numels.items():
            self.offsets[name] = offset
            offset += n
        self.size = offset

    @classmethod
    def from_batched(cls, params: Mapping[str, Tensor]) -> "ParamSpec":
        """Spec whose shapes are those of ``params`` without their leading P dimension."""
        return cls({name: tuple(t.shape[1:]) for name, t in params.items()})

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.shapes)

    def __len__(self) -> int:
        return len(self.shapes)

    def __repr__(self) -> str:
        return f"ParamSpec({self.shapes}, size={self.size})"

    def pack(self, params: Mapping[str, Tensor]) -> Tensor:
        """{name: (*batch, *shape)} -> (*batch, D). Every entry must have the same batch shape."""
        missing = set(self.shapes) - set(params)
        extra = set(params) - set(self.shapes)
        if missing or extra:
            raise ValueError(f"parameter names do not match the spec: missing {sorted(missing)}, "
                             f"unexpected {sorted(extra)}")
        batch = None
        parts = []
        for name, shape in self.shapes.items():
            t = torch.as_tensor(params[name])
            k = t.dim() - len(shape)
            if k < 0 or tuple(t.shape[k:]) != shape:
                raise ValueError(f"{name}: expected shape (*batch, {', '.join(map(str, shape))}), "
                                 f"got {tuple(t.shape)}")
            if batch is None:
                batch = tuple(t.shape[:k])
            elif tuple(t.shape[:k]) != batch:
                raise ValueError(f"{name}: batch shape {tuple(t.shape[:k])} differs from {batch}")
            parts.append(t.reshape(*batch, self.numels[name]))
        return torch.cat(parts, dim=-1)

    def unpack(self, flat: Tensor) -> dict[str, Tensor]:
        """(*batch, D) -> {name: (*batch, *shape)}, views of ``flat`` where its layout allows."""
        if flat.dim() < 1 or flat.shape[-1] != self.size:
            raise ValueError(f"expected a flat tensor (*batch, {self.size}), got {tuple(flat.shape)}")
        batch = tuple(flat.shape[:-1])
        return {name: flat.narrow(-1, self.offsets[name], self.numels[name]).reshape(batch + shape)
                for name, shape in self.shapes.items()}
