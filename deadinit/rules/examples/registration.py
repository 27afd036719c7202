"""DI001 examples of layers registered in a loop under names from a literal prefix
(``for i in range(2): self.add_module(f"norm{i}", ...)``): each name is one attribute, so a
subclass removing one right after ``super().__init__()`` wastes that layer, and a read of another
keeps it alive.  A range the chain decides (``range(depth)`` with ``depth=2`` passed up) names them
too; a range nothing decides, or a prefix no literal fixes, is not followed."""

from __future__ import annotations

from deadinit.rules.base import Example


def _stack(bound: str, prefix: str, passed: str = "depth") -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": f"""
from torch import nn


class NormStack(nn.Module):
    def __init__(self, d, depth, kind):
        super().__init__()
        self.sizes = (d, d)
        for i in range({bound}):
            self.add_module(f"{prefix}{{i}}", nn.LayerNorm(d))

    def forward(self, x):
        return self.norm1(self.norm0(x))


class OneNormStack(NormStack):
    def __init__(self, d, depth, kind):
        super().__init__(d, {passed}, kind)
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
    Example(
        _stack("depth", "norm", passed="2"),
        [("DI001", "OneNormStack", "norm0")],
        note="range(depth) with depth=2 passed to super().__init__: the chain names norm0 and norm1",
    ),
    Example(
        _stack("len(self.sizes)", "norm", passed="2"),
        [("DI001", "OneNormStack", "norm0")],
        note="range(len(self.sizes)) of an attribute set from a literal tuple before the loop",
    ),
)

REGISTRATION_VALID = (
    Example(_stack("depth", "norm"), note="a range nothing decides (depth passed on): its names are not followed"),
    Example(_stack("2", "{kind}"), note="a prefix no literal fixes: its names are not followed"),
)
