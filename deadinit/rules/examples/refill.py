"""DI001 examples of a list a parent builds whole and a subclass refills element by element (tests and docs)."""

from __future__ import annotations

from deadinit.rules.base import Example


def _refilled(built: str, refilled: int) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": f"""
import torch
from torch import nn


class Steps(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.kernels = {built}

    def forward(self, x):
        return [k(x) for k in self.kernels]


class FusedSteps(Steps):
    def __init__(self, dim):
        super().__init__(dim)
        for i in range({refilled}):
            self.kernels[i] = nn.Linear(dim, 2 * dim)
""",
    }


REFILL_INVALID = (
    Example(
        _refilled("[nn.Linear(dim, dim) for _ in range(3)]", 3),
        [("DI001", "FusedSteps", "kernels")],
        note="three kernels built in a comprehension over range(3), each replaced over range(3)",
    ),
    Example(
        _refilled("[nn.Linear(dim, dim), nn.Linear(dim, dim)]", 2),
        [("DI001", "FusedSteps", "kernels")],
        note="a literal of two, each replaced",
    ),
)

REFILL_VALID = (
    Example(
        _refilled("[nn.Linear(dim, dim) for _ in range(3)]", 2),
        note="two of the three replaced: the third is still the parent's",
    ),
    Example(
        _refilled("[nn.Linear(dim, dim) for _ in range(dim)]", 3),
        note="a count that is no constant: whether the loop covers every element is not known",
    ),
)
