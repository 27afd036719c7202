"""``deadinit.semantics.init.unpacking``: what each target of a tuple assignment receives."""

from semantic_snippets import classifier, module, stmt

from deadinit.semantics.init.unpacking import leaves_early, nested_path, unpacked


def receive(source: str, adapter: str):
    st = stmt(source, adapter)
    c = classifier()

    def classify(e):
        return c.classify(e, lambda _: None, "self")

    def followed(e):
        return c.followed_call(e, "self", None)

    return [
        (type(t).__name__, a.kind if a else None, f.kind if f else None)
        for t, a, f in unpacked(st.targets[0], st.value, classify, followed)
    ]


def test_element_by_element_from_a_literal(adapter):
    assert receive("self.a, b = torch.zeros(1), 2", adapter) == [("Attribute", "tensor", None), ("Name", None, None)]


def test_items_of_a_call(adapter):
    got = receive("self.layers, self.start, *rest, self.end = make_layers(n)", adapter)
    assert [k for _, k, _ in got] == [None, None, None, None]
    assert got[0][2] == "item" and got[-1][2] == "item"  # each an item of what the call returns


def test_nested_path(adapter):
    target = stmt("self.block.proj = x", adapter).targets[0]
    assert nested_path(target, "self") == ["block", "proj"]
    assert nested_path(stmt("self.a = x", adapter).targets[0], "self") is None
    assert nested_path(stmt("other.a.b = x", adapter).targets[0], "self") is None


def test_leaves_early(adapter):
    assert leaves_early(module("if x:\n    break\n", adapter).body)
    assert leaves_early(module("return\n", adapter).body)
    assert not leaves_early(module("x = 1\n", adapter).body)
