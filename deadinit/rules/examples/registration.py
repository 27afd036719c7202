"""DI001 examples of layers registered in a loop under names from a literal prefix
(``for i in range(2): self.add_module(f"norm{i}", ...)``): each name is one attribute, so a
subclass removing one right after ``super().__init__()`` wastes that layer, and a read of another
keeps it alive; a range or a prefix no literal decides is not followed."""

from __future__ import annotations

from deadinit.rules.base import Example


def _stack(bound: str, prefix: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": f"""
from torch import nn


class NormStack(nn.Module):
    def __init__(self, d, depth, kind):
        super().__init__()
        for i in range({bound}):
            self.add_module(f"{prefix}{{i}}", nn.LayerNorm(d))

    def forward(self, x):
        return self.norm1(self.norm0(x))


class OneNormStack(NormStack):
    def __init__(self, d, depth, kind):
        super().__init__(d, depth, kind)
        delattr(self, "norm0")

    def forward(self, x):
        return self.norm1(x)
""",
    }


REGISTRATION_INVALID = (
    Example(
        _stack("2", "norm"),
        [("DI001", "OneNormStack", "norm0")],
        note="registered as norm0 and norm1 by a literal range; norm1 is read, norm0 removed",
    ),
)

REGISTRATION_VALID = (
    Example(_stack("depth", "norm"), note="a range no literal decides: its names are not followed"),
    Example(_stack("2", "{kind}"), note="a prefix no literal fixes: its names are not followed"),
)
