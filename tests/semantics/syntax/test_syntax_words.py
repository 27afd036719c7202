"""``deadinit.semantics.syntax.words``: the fixed words both adapters put in the tree, as members."""

import pytest
from semantic_snippets import ADAPTERS, function

from deadinit.semantics import syntax as sx
from deadinit.semantics.syntax.words import Jump, NameScope, OtherWhat

SOURCE = """
def f(xs):
    global g
    for x in xs[1:]:
        if (y := x):
            continue
        if y:
            break
        pass
"""


def _nodes(adapter: str) -> list[sx.Node]:
    out: list[sx.Node] = []
    todo: list[sx.Node] = [function(SOURCE, adapter=adapter)]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(n.children())
    return out


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_jumps_and_declarations_are_enum_members(adapter: str) -> None:
    nodes = _nodes(adapter)
    jumps = {n.what for n in nodes if isinstance(n, sx.Simple)}
    assert jumps == {Jump.PASS, Jump.BREAK, Jump.CONTINUE}
    assert all(type(n.what) is Jump for n in nodes if isinstance(n, sx.Simple))
    assert [n.scope for n in nodes if isinstance(n, sx.Names)] == [NameScope.GLOBAL]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_the_forms_the_model_asks_about_are_named_by_other_what(adapter: str) -> None:
    whats = {n.what for n in _nodes(adapter) if isinstance(n, sx.Other)}
    assert {OtherWhat.SLICE, OtherWhat.WALRUS} <= whats
