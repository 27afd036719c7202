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
    Example(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": _PARTS
            + """
def make(spec, *args):
    if isinstance(spec, LayerSpec):
        return spec.cls(*args)
    return spec(*args)
class Attention(nn.Module):
    def __init__(self, parts=None, dim=4):
        super().__init__()
        parts = parts or Parts()
        self.proj = parts.proj(dim, dim)
        self.mixer = make(parts.mixer, dim)
    def forward(self, x):
        return self.mixer(self.proj(x))
class LinearAttention(Attention):
    def __init__(self, dim=4):
        super().__init__(dim=dim)
        self.proj = nn.Linear(dim, dim)
        self.mixer = nn.Identity()
""",
        },
        [("DI001", "LinearAttention", "mixer"), ("DI001", "LinearAttention", "proj")],
        note="parts defaulted by `parts or Parts()` is a Parts; a builder without annotations builds what "
        "calling its argument builds",
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
    Example(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": _PARTS
            + """
def apply_to(fn, n):
    return fn(n)
class Attention(nn.Module):
    def __init__(self, parts=None, dim=4):
        super().__init__()
        parts = parts or Parts()
        self.half = apply_to(abs, dim)
        self.gate = apply_to(parts.act, dim)
    def forward(self, x):
        return self.half, self.gate
class LinearAttention(Attention):
    def __init__(self, dim=4):
        super().__init__(dim=dim)
        self.half = 1
        self.gate = 0
""",
        },
        note="a builder that calls its parameter, handed a plain function or a field holding one, builds nothing",
    ),
)
