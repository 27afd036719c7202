"""``deadinit.semantics.syntax.node``: positions, children and equality by value."""

import pytest

from deadinit.semantics.syntax.expressions import Attribute, Name
from deadinit.semantics.syntax.node import Node


def test_equality_is_by_value_and_class():
    a = Attribute(1, 0, 1, Name(1, 0, 1, "self"), "x")
    assert a == Attribute(1, 0, 1, Name(1, 0, 1, "self"), "x")
    assert a != Attribute(2, 0, 2, Name(2, 0, 2, "self"), "x")  # positions count
    assert Name(1, 0, 1, "x") != Attribute(1, 0, 1, Name(1, 0, 1, "self"), "x")
    assert Name(1, 0, 1, "x") != "x"


def test_nodes_are_not_hashable():
    with pytest.raises(TypeError):
        hash(Name(1, 0, 1, "x"))


def test_children_and_repr():
    value = Name(3, 4, 3, "self")
    a = Attribute(3, 4, 3, value, "w")
    assert a.children() == (value,) and value.children() == ()
    assert repr(value) == "Name(id='self')"
    assert (a.line, a.col, a.end_line) == (3, 4, 3)


def test_a_bare_node():
    n = Node(1, 2, 3)
    assert n.children() == () and n == Node(1, 2, 3) and n != Node(1, 2, 4)
