"""What a class inherits along its MRO, kept per class and built from its one base's entry: the same
answers as a walk of the whole MRO, whatever the shape and whichever class is asked first."""

import pytest

from deadinit.index.dependencies import recording
from deadinit.index.project_index import ProjectIndex
from tests.index.test_index import index_of

SHAPES = {
    "m.py": (
        "import torch.nn as nn\n"
        "class Root:\n    size = 1\n    def forward(self): pass\n    def __init__(self): pass\n"
        "class Mixin:\n    mode = 'a'\n    def extra(self): pass\n"
        "class A(Root):\n    size = 2\n    def forward(self): pass\n"
        "class B(A, Mixin):\n    size: int\n    def extra(self): pass\n"
        "class C(B):\n    mode = 'b'\n    def own(self): pass\n"
        "class D(C, nn.Module):\n    pass\n"
        "class E(D):\n    @property\n    def own(self): return 1\n"
        "class Loop1(Loop2):\n    pass\n"
        "class Loop2(Loop1):\n    pass\n"
        "class Under(Loop1):\n    pass\n"
    )
}


def _walked(idx: ProjectIndex, cls: str) -> tuple[dict, dict, tuple, list, tuple]:
    """The answers from the whole MRO, as a walk would give them."""
    mro = idx.mro(cls) or [cls]
    names = dict.fromkeys(n for qn in mro for n in idx.classes[qn].methods)  # in first definitions' order
    methods = {n: idx.resolve_method(mro, n) for n in names}
    roots = tuple(qn for qn in mro if not any(b.kind.name == "CLASS" for b in idx.bases(qn)))
    external = [b for qn in mro for b in idx.bases(qn) if b.kind.name != "CLASS"]
    defining = tuple(
        qn
        for qn in mro
        if idx.classes[qn].class_attrs
        or set(idx.classes[qn].methods) - {"__init__"}
        or any(b.kind.name != "CLASS" for b in idx.bases(qn))
    )
    return methods, idx.class_values(mro), roots, external, defining


@pytest.mark.parametrize("first", ["m.Root", "m.E", "m.C", "m.Under"])
def test_tables_match_the_walk_of_the_mro_whichever_class_comes_first(write_project, first):
    idx = index_of(write_project(SHAPES))
    idx.methods_on(first)
    for cls in ("m.Root", "m.Mixin", "m.A", "m.B", "m.C", "m.D", "m.E", "m.Loop1", "m.Under"):
        methods, values, roots, external, defining = _walked(idx, cls)
        assert idx.methods_on(cls) == methods, cls
        assert list(idx.methods_on(cls)) == list(methods), cls
        assert idx.class_values_of(cls) == values, cls
        assert list(idx.class_values_of(cls)) == list(values), cls  # in the same order
        assert idx.roots_of(cls) == roots, cls
        assert idx.external_bases(cls) == external, cls
        assert idx.defining(cls) == defining, cls
    assert list(idx.methods_on("m.E")) == ["own", "extra", "forward", "__init__"]
    assert idx.methods_on("m.E")["forward"][0] == "m.A"
    assert idx.roots_of("m.E") == ("m.Root", "m.Mixin")
    assert idx.defining("m.E") == ("m.E", "m.D", "m.C", "m.B", "m.A", "m.Root", "m.Mixin")


def test_an_entry_built_from_the_base_depends_on_what_the_base_read(write_project):
    idx = index_of(write_project({"m.py": "class A:\n    x = 1\nclass B(A):\n    pass\nclass C(B):\n    pass\n"}))
    idx.class_values_of("m.B")  # the base's entry first: C's is then built from it
    with recording() as keys:
        assert idx.class_values_of("m.C") == {"x": (idx.classes.data["m.A"].class_values["x"])}
    assert ("class", "m.A") in keys and ("class", "m.C") in keys


def test_a_chain_thousands_deep_is_built_without_recursion(write_project):
    body = "class C0:\n    v0 = 0\n    def m0(self): pass\n" + "".join(
        f"class C{i}(C{i - 1}):\n    v{i} = {i}\n" if i % 2 else f"class C{i}(C{i - 1}):\n    pass\n"
        for i in range(1, 3000)
    )
    idx = index_of(write_project({"m.py": body}))
    assert len(idx.class_values_of("m.C2999")) == 1501  # v0 and the odd ones
    assert idx.methods_on("m.C2999")["m0"][0] == "m.C0"
    assert idx.roots_of("m.C2999") == ("m.C0",)
    assert idx.defining("m.C2999") == tuple(f"m.C{i}" for i in range(2999, -1, -1) if i % 2 or i == 0)
