"""DI001 examples of modules built through class-typed fields, specs and builders (tests and docs)."""

from __future__ import annotations

from deadinit.rules.base import Example

_PARTS = """
from dataclasses import dataclass
from typing import Callable, Union
import torch
from torch import nn
class RowProj(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_out, n_in))
        self.n_out = n_out
@dataclass
class LayerSpec:
    cls: type
def build_layer(spec: Union[LayerSpec, type], *args):
    made = spec.cls if isinstance(spec, LayerSpec) else spec
    return made(*args)
@dataclass
class Parts:
    proj: type[RowProj] = RowProj
    mixer: Union[LayerSpec, type] = nn.Identity
    act: Callable[[int], int] = abs
"""

SPEC_INVALID = (
    Example(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": _PARTS
            + """
class Attention(nn.Module):
    def __init__(self, parts: Parts, dim: int):
        super().__init__()
        self.proj = parts.proj(dim, dim)
        if isinstance(self.proj, RowProj):
            self.proj.fused = True
        self.mixer = build_layer(parts.mixer, dim)
    def forward(self, x):
        return self.mixer(self.proj(x))
class LinearAttention(Attention):
    def __init__(self, parts: Parts, dim: int):
        super().__init__(parts, dim)
        self.proj = nn.Linear(dim, dim)
        self.mixer = nn.Identity()
""",
        },
        [("DI001", "LinearAttention", "mixer"), ("DI001", "LinearAttention", "proj")],
        note="a class held by a field (type[RowProj]), and one a builder instantiates from a spec; the parent's "
        "isinstance check and flag only configure the projection",
    ),
)

SPEC_VALID = (
    Example(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": _PARTS
            + """
class Attention(nn.Module):
    def __init__(self, parts: Parts, dim: int, pick: Callable[[int], int] = abs):
        super().__init__()
        self.proj = parts.proj(dim, dim)
        self.out_dim = self.proj.n_out
        self.gate = parts.act(dim)
        self.half = pick(dim)
    def forward(self, x):
        return self.proj(x), self.gate, self.half, self.out_dim
class LinearAttention(Attention):
    def __init__(self, parts: Parts, dim: int):
        super().__init__(parts, dim)
        self.proj = nn.Linear(dim, dim)
        self.gate = 0
        self.half = 1
""",
        },
        note="the parent reads the projection it built (self.proj.n_out); a field or parameter holding a "
        "function builds nothing",
    ),
)
