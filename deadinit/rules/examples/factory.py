"""DI002 examples of allocations made through a project function or the subclass's own method (tests and docs)."""

from __future__ import annotations

from deadinit.rules.base import Example

FACTORY_INVALID = (
    Example(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": """
import torch
from torch import nn
def make_counter(n) -> torch.Tensor:
    return torch.zeros(n, dtype=torch.uint8)
class Base:
    def forward_decode(self, q):
        raise NotImplementedError
class P(Base):
    def __init__(self):
        self.counter = make_counter(4096)
        self.head = self._build_head()
    def _build_head(self):
        return nn.Linear(8, 8)
    def forward_decode(self, q):
        return self.head(q), self.counter
class C(P):
    def _build_head(self):
        return nn.Linear(8, 32)
    def forward_decode(self, q):
        return q
""",
        },
        [("DI002", "C", "counter"), ("DI002", "C", "head")],
        note="allocated through a project function, and through the subclass's own method",
    ),
)
