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
    ("def f(model):\n    return [m.weight for m in model.named_parameters() if isinstance(m, Linear)]\n", False),
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
    assert list(staying_walks(fn).values()) == ([()] if stays else [])


def test_a_walk_in_a_nested_function_is_that_function_s(adapter):
    source = """
    def outer(model):
        def inner(m):
            for c in m.children():
                inner(c)
            return 1
        return list(model.children())
    """
    assert staying_walks(function(source, adapter, "outer")) == {}
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


# each a function ``f`` whose walk over submodules lets an element leave only under an ``isinstance`` guard
GUARDED = [
    (  # a replacer: acts on a matching child, recurses into the others through its class
        """
        class Patcher:
            @staticmethod
            def f(module, make):
                n = 0
                for name, child in module.named_children():
                    if isinstance(child, nn.GroupNorm) and child.affine:
                        new = make(child.num_groups, child.weight)
                        setattr(module, name, new)
                        n += 1
                    else:
                        n += Patcher.f(child, make)
                return n
        """,
        ("nn.GroupNorm",),
    ),
    (  # a collector through a comprehension's filter, two classes
        "def f(model):\n    return [m for m in model.modules() if isinstance(m, (Linear, pkg.Conv))]\n",
        ("Linear", "pkg.Conv"),
    ),
    (  # a plain method recursing through its class with self passed on
        """
        class W:
            def f(self, module, out):
                for child in module.children():
                    if isinstance(child, Norm):
                        out.append(child)
                    W.f(self, child, out)
                return out
        """,
        ("Norm",),
    ),
    (  # a classmethod: ``W.f(child)`` binds ``cls`` itself
        """
        class W:
            @classmethod
            def f(cls, module):
                for child in module.children():
                    if isinstance(child, Norm):
                        return child
                    W.f(child)
                return None
        """,
        ("Norm",),
    ),
    (  # an early exit: ``if not isinstance(...): continue`` guards the rest of the loop's body
        "def f(model, out):\n    for c in model.children():\n        if not isinstance(c, Norm):\n"
        "            continue\n        out.append(c)\n    return out\n",
        ("Norm",),
    ),
    (  # ... or ``return`` / ``raise`` at the end of the if's body
        "def f(model, out):\n    for c in model.modules():\n        if not isinstance(c, Norm):\n"
        "            log(1)\n            raise TypeError\n        out.append(c)\n    return out\n",
        ("Norm",),
    ),
]


@pytest.mark.parametrize(("source", "guard"), GUARDED)
def test_a_walk_whose_elements_leave_only_under_isinstance_is_guarded(source, guard, adapter):
    fn = function(source, adapter, "f")
    owner = "Patcher" if "Patcher" in source else "W" if "class W" in source else None
    assert list(staying_walks(fn, owner).values()) == [guard]


@pytest.mark.parametrize(
    "source",
    [
        # a use outside the guard: in the else branch, handed to another call
        "def f(model):\n    for c in model.children():\n        if isinstance(c, N):\n            g(c)\n"
        "        else:\n            h(c)\n    return 1\n",
        # the guard tests another name
        "def f(model, x):\n    for c in model.children():\n        if isinstance(x, N):\n            g(c)\n    return 1\n",
        # an ``or`` makes sure of nothing
        "def f(model):\n    for c in model.children():\n        if isinstance(c, N) or c.x:\n            g(c)\n    return 1\n",
        # a guard that is not a class name (a call)
        "def f(model):\n    for c in model.children():\n        if isinstance(c, kinds()):\n            g(c)\n    return 1\n",
        # an early exit that does not always leave, or comes after the use, or before a rebinding
        "def f(model):\n    for c in model.children():\n        if not isinstance(c, N):\n"
        "            if c.x:\n                continue\n        g(c)\n    return 1\n",
        "def f(model):\n    for c in model.children():\n        g(c)\n        if not isinstance(c, N):\n"
        "            continue\n    return 1\n",
        "def f(model):\n    for c in model.children():\n        if not isinstance(c, N):\n"
        "            continue\n        c = c.inner\n        g(c)\n    return 1\n",
        "def f(model):\n    for c in model.children():\n        if not isinstance(c, N):\n"
        "            pass\n        g(c)\n    return 1\n",
        # a parameter walk: the guard is kept only for walks over submodules
        "def f(model):\n    return [p for p in model.parameters() if isinstance(p, P)]\n",
        # a call through another class's name is no recursion
        """
        class W:
            @staticmethod
            def f(module):
                for child in module.children():
                    if isinstance(child, Norm):
                        return child
                    Other.f(child)
                return None
        """,
    ],
)
def test_a_walk_whose_elements_leave_unguarded_is_no_guarded_walk(source, adapter):
    assert staying_walks(function(source, adapter, "f"), "W") == {}
