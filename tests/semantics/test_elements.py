"""``deadinit.semantics.elements``: what a value may hold, and the classes of a collection's elements."""

import pytest
from semantic_snippets import expr, stmt

from deadinit.model.access import TypeRef
from deadinit.semantics.elements import ELEMENT_OF, ValueTyping, call_types, union

B, C = TypeRef("B", True), TypeRef("C", True)
LOCALS = {"b": (B,), "unknown": None}
ELEMENTS = {"bs": (B,), "empty": ()}


def typing() -> ValueTyping:
    return ValueTyping(
        "self",
        lambda name: {"nn.ModuleList": "torch.nn.ModuleList"}.get(name, name),
        lambda name: (name in LOCALS, LOCALS.get(name)),
        lambda name: (name in ELEMENTS, ELEMENTS.get(name)),
    )


def test_call_types():
    assert call_types("pkg.Block", "self") == (TypeRef("pkg.Block", True),)
    assert call_types("make", "self") == (TypeRef("make()", False),)
    assert call_types("self.build", "self") == (TypeRef("self.build()", False),)
    assert call_types("self.a.build", "self") is None
    assert call_types(None, "self") is None


def test_union():
    assert union((B,), (C, B)) == (B, C)
    assert union((B,), None) is None and union(None, ()) is None


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("B(1)", (B,)),
        ("b", (B,)),
        ("unknown", None),
        ("self.a", (TypeRef("self.a", False),)),
        ("self.a.b", (TypeRef("self.a.b", False),)),
        ("self.a.b.c", None),
        ("bs[0]", (B,)),
        ("bs[0:2]", None),
        ("3", None),
    ],
)
def test_value(source, want, adapter):
    assert typing().value(expr(source, adapter)) == want


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("[B(), C()]", (B, C)),
        ("[*bs, C()]", (B, C)),
        ("[B() for _ in range(n)]", (B,)),
        ("{k: B() for k in ks}", None),
        ("bs", (B,)),
        ("empty", None),  # empty: what fills it later is not known
        ("self.a", (TypeRef(f"self.a{ELEMENT_OF}", False),)),
        ("bs[1:]", (B,)),
        ("bs + [C()]", (B, C)),
        ("list(bs)", (B,)),
        ("sorted(bs, key=f)", None),
        ("nn.ModuleList([B()])", (B,)),
        ("zip(bs, bs)", None),
    ],
)
def test_elements(source, want, adapter):
    assert typing().elements(expr(source, adapter)) == want


def test_an_empty_collection_is_known_to_be_empty(adapter):
    assert typing().collection(expr("[]", adapter)) == ()
    assert typing().collection(expr("list()", adapter)) == ()


def test_loop_bindings(adapter):
    t = typing()
    loop = stmt("for m in bs:\n    pass\n", adapter)
    assert t.loop_bindings(loop.target, loop.iter) == [("m", (B,), None)]
    loop = stmt("for i, m in enumerate(bs, 1):\n    pass\n", adapter)
    assert t.loop_bindings(loop.target, loop.iter) == [("m", (B,), None), ("i", None, None)]
    loop = stmt("for k, v in items:\n    pass\n", adapter)
    assert t.loop_bindings(loop.target, loop.iter) == [("k", None, None), ("v", None, None)]
