"""``deadinit.semantics.walk_elements``: whether what a walk over another object visits leaves the function."""

import pytest
from semantic_snippets import function

from deadinit.semantics.walk_elements import staying_walks

# each a function ``f`` holding one walk over another object; True when its elements stay in ``f``
CASES = [
    (  # a generic recursive walker: each child only recursed into, the walker reads another attribute
        """
        def f(name, module, out):
            if hasattr(module, "get_processor"):
                out[f"{name}.processor"] = module.get_processor()
            for sub, child in module.named_children():
                f(f"{name}.{sub}", child, out)
            return out
        """,
        True,
    ),
    (  # the same by keyword
        """
        def f(module, out):
            for child in module.children():
                f(module=child, out=out)
            return out
        """,
        True,
    ),
    (  # only inspected, tested and compared
        """
        def f(model):
            n = 0
            for m in model.modules():
                if isinstance(m, Linear) and m.bias is not None:
                    n += 1
            return n
        """,
        True,
    ),
    (  # acted on: a method whose result is dropped, an attribute set
        """
        def f(model):
            for m in model.children():
                m.reset_parameters()
                m.frozen = True
            return model
        """,
        True,
    ),
    (  # what it has under another name, asked only of the elements that have it
        """
        def f(model, out):
            for name, m in model.named_children():
                if hasattr(m, "get_processor"):
                    out[name] = m.get_processor()
            return out
        """,
        True,
    ),
    (  # the same asked of every element: its value leaves
        """
        def f(model, out):
            for name, m in model.named_children():
                out[name] = m.get_processor()
            return out
        """,
        False,
    ),
    ("def f(model):\n    return [p.data for n, p in model.named_parameters()]\n", False),  # the tensor itself
    ("def f(model):\n    return [m.weight for m in model.modules() if isinstance(m, Linear)]\n", False),
    ("def f(model):\n    return [n for n in model._modules.keys()]\n", False),  # the names leave
    ("def f(model):\n    return set(model.state_dict().keys())\n", False),
    ("def f(model):\n    for c in model.children():\n        out = getattr(c, 'plan', None)\n    return out\n", False),
    (  # a collector: the recursion's parameter is stored
        """
        def f(module, out):
            out.append(module)
            for child in module.children():
                f(child, out)
            return out
        """,
        False,
    ),
    (  # the recursion hands the child to a parameter that leaves
        """
        def f(module, keep):
            keep.append(keep)
            for child in module.children():
                f(module, child)
            return keep
        """,
        False,
    ),
    ("def f(model):\n    return {n: c for n, c in model.named_children()}\n", False),
    ("def f(model):\n    return list(model.children())\n", False),
    ("def f(model):\n    return model.state_dict()\n", False),
    ("def f(model):\n    return model.apply(visit)\n", False),
    ("def f(model):\n    return [c for c in model._modules.values()]\n", False),
    ("def f(model):\n    for c in model.children():\n        yield c\n", False),
    ("def f(model):\n    for c in model.children():\n        return c\n", False),
    ("def f(model):\n    for c in model.children():\n        out = c\n    return out\n", False),
    ("def f(model, x):\n    for c in model.children():\n        x = c(x)\n    return x\n", False),  # called
    ("def f(model):\n    for c in model.children():\n        g(c)\n    return 1\n", False),  # another call
    ("def f(model):\n    for c in model.children():\n        keep[c] = 1\n    return keep\n", False),
    ("def f(model):\n    for item in model.named_children():\n        g(item[1].x)\n    return 1\n", False),
]


@pytest.mark.parametrize(("source", "stays"), CASES)
def test_a_walks_elements_stay_only_when_nothing_lets_them_leave(source, stays, adapter):
    fn = function(source, adapter, "f")
    assert bool(staying_walks(fn)) == stays


def test_a_walk_in_a_nested_function_is_that_function_s(adapter):
    source = """
    def outer(model):
        def inner(m):
            for c in m.children():
                inner(c)
            return 1
        return list(model.children())
    """
    assert staying_walks(function(source, adapter, "outer")) == frozenset()
    assert [w[2] for w in staying_walks(function(source, adapter, "inner"))] == ["children"]


def test_a_method_s_recursion_through_self(adapter):
    source = """
    class W:
        def f(self, module):
            for child in module.children():
                self.f(child)
            return 1
    """
    assert staying_walks(function(source, adapter, "f"))
