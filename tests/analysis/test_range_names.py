"""``self.add_module(f"layer{i}", m)`` in a range the ``__init__`` chain decides (``analysis.flow.chain``):
``range(depth)`` of a parameter the subclass binds, ``range(self.depth)``, ``range(len(self.channels))`` of
a default; one assignment per name, as a literal range gives.  An undecided range stays the call it is."""

import pytest

from deadinit.analysis.flow.chain import NAMES_LIMIT, init_chain
from deadinit.frontends.parse import summarize_source
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import InitStmtKind
from deadinit.model.settings import Settings

PARENT = """
import torch.nn as nn
class P(nn.Module):
    def __init__(self, c, depth=3, channels=(8, 16)):
        super().__init__()
        self.depth = depth
        self.channels = channels
        for i in range(depth):
            self.add_module(f"layer{i}", nn.Linear(c, c))
        for i in range(1, self.depth):
            self.add_module(f"norm{i}_b", nn.LayerNorm(c))
        for i in range(len(self.channels)):
            self.add_module(f"stage{i}", nn.Linear(c, c))
class C(P):
    def __init__(self, c, n):
        super().__init__(c, %s)
"""


def _names(depth: str, adapter: str = "ast") -> tuple[dict[str, bool | None], list[str]]:
    s = summarize_source((PARENT % depth).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    chain = init_chain(ProjectIndex([s]), "m.C")
    named = {c.stmt.attr: c.definite for c in chain.stmts if c.stmt.kind == InitStmtKind.ASSIGN and c.stmt.alloc}
    left = [c.stmt.registers.prefix for c in chain.stmts if c.stmt.registers is not None]
    return named, left


@pytest.mark.parametrize("adapter", ("ast", "cst"))
def test_a_bound_the_call_passes_names_each_layer(adapter):
    named, left = _names("2", adapter)
    assert named == {"layer0": True, "layer1": True, "norm1_b": True, "stage0": True, "stage1": True}
    assert left == []


def test_the_default_decides_when_nothing_is_passed():
    named, left = _names("channels=(1, 2, 3)")
    assert set(named) == {"layer0", "layer1", "layer2", "norm1_b", "norm2_b", "stage0", "stage1", "stage2"}
    assert left == []


def test_an_undecided_bound_names_nothing():
    named, left = _names("n")
    assert set(named) == {"stage0", "stage1"}  # the default ``channels`` still decides its loop
    assert left == ["layer", "norm"]  # the calls stay what they are: no name is guessed


def test_an_empty_or_too_long_range_names_nothing():
    assert _names("0") == ({"stage0": True, "stage1": True}, ["layer", "norm"])
    named, left = _names(str(NAMES_LIMIT + 2))
    assert set(named) == {"stage0", "stage1"} and left == ["layer", "norm"]
