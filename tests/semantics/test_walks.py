"""``deadinit.semantics.walks``: which calls are ``nn.Module`` walks and what each visits (which
walks the summary keeps: ``tests/semantics/summary/test_summary_expressions.py``)."""

import pytest
from semantic_snippets import expr

from deadinit.semantics.walks import (
    OBJECT_WALKS,
    Registration,
    first_of_walk,
    object_walk,
    walk_name,
    walk_reaches,
)


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("self.named_children()", "named_children"),
        ("self.state_dict(prefix='x')", "state_dict"),
        ("self.apply(init)", "apply"),
        ("other.named_children()", None),  # another object's
        ("self.layer.parameters()", None),  # a submodule's walk reads that submodule only
        ("self.forward(x)", None),
    ],
)
def test_walk_name(source, name, adapter):
    assert walk_name(expr(source, adapter), "self") == name


def test_what_each_walk_visits():
    assert walk_reaches("named_children") == {Registration.MODULE}
    assert walk_reaches("parameters") == {Registration.MODULE, Registration.PARAMETER}
    assert walk_reaches("named_buffers") == {Registration.MODULE, Registration.BUFFER}
    assert walk_reaches("state_dict") == set(Registration)
    assert walk_reaches("forward") == frozenset()


def test_what_a_walk_over_another_object_visits():
    assert OBJECT_WALKS["named_children"] == walk_reaches("named_children")
    assert OBJECT_WALKS["_modules"] == {Registration.MODULE}  # ``model._modules.values()``
    assert OBJECT_WALKS["_buffers"] == {Registration.BUFFER}
    assert walk_reaches("_modules") == frozenset()  # on self: a wholesale dynamic access


def test_first_of_walk(adapter):
    assert first_of_walk(expr("next(self.parameters())", adapter), "self") is not None
    assert first_of_walk(expr("next(self.buffers(), None)", adapter), "self") is not None
    assert first_of_walk(expr("next(iter(self.items))", adapter), "self") is None
    assert first_of_walk(expr("list(self.parameters())", adapter), "self") is None


def test_which_reads_of_another_object_walk_it():
    assert object_walk("named_children", called=True)  # ``model.named_children()``
    assert not object_walk("children", called=False)  # ``node.children[c]``: a field of that name
    assert object_walk("_modules", called=False)  # ``model._modules.values()``: a storage
    assert not object_walk("forward", called=True)
