"""``deadinit.semantics.statements``: loads with Python's scoping, bound names, ``__init__`` calls, method receivers.

Every question is asked of the trees of both adapters (libcst and stdlib ``ast``): the
answers must not depend on the parser.
"""

import ast
import textwrap

import libcst as cst
import pytest

from deadinit.frontends import ast_adapter, cst_adapter
from deadinit.semantics import syntax as sx
from deadinit.semantics.statements import (
    Loads,
    bound_names,
    called_method_attr,
    header_loads,
    init_calls_within,
    loads,
)

ADAPTERS = ("cst", "ast")


def parse(source: str, adapter: str) -> sx.Module:
    text = textwrap.dedent(source)
    if adapter == "cst":
        return cst_adapter.to_syntax(cst.parse_module(text))[0]
    return ast_adapter.to_syntax(ast.parse(text), text)


def first(source: str, adapter: str) -> sx.Stmt:
    return parse(source, adapter).body[0]


@pytest.fixture(params=ADAPTERS)
def adapter(request):
    return request.param


@pytest.mark.parametrize(
    ("source", "names", "attrs"),
    [
        ("x = a + self.b", ["a"], ["b"]),
        ("self.x = v", ["v"], []),
        ("self.x[i] = v", ["v", "i"], ["x"]),  # the list is loaded, the element stored
        ("obj.x = v", ["v", "obj"], []),
        ("a, (b, *c) = d", ["d"], []),
        ("x += 1", ["x"], []),
        ("self.n += k", ["k"], ["n"]),
        ("del x, self.y", ["x"], ["y"]),  # both fail when absent
        ("x: Tensor = self.make()", [], ["make"]),  # a local's annotation is not evaluated
        ("y = [i * n for i in range(self.k) if i != m]", ["n", "m", "range"], ["k"]),
        ("f = lambda a, b=dflt: a + b + outer", ["dflt", "outer"], []),
        ("v = getattr(self, 'w')", ["getattr", "self"], ["w"]),
        ("foo(self)", ["foo", "self"], []),  # self as a value of its own
        ("if (n := size()) > 0: pass", ["size"], []),
        ("import os.path as p", [], []),
        ("global g", [], []),
    ],
)
def test_loads_of_simple_statements(adapter, source, names, attrs):
    got = loads(first(source, adapter), "self")
    assert sorted(got.names) == sorted(names)
    assert got.attrs == attrs


def test_comprehension_scope(adapter):
    st = first("out = [[j for j in row] for row in table if row]", adapter)
    assert loads(st, "self").names == ["table"]


def test_nested_function_loads_its_free_names_only(adapter):
    source = """
    @deco(arg)
    def helper(p, q=default):
        local = p + q + free
        for k in local:
            total = k
        return self.size + total
    """
    got = loads(first(source, adapter), "self")
    assert sorted(got.names) == ["arg", "deco", "default", "free"]
    assert got.attrs == ["size"]  # the closure reads self.size


def test_nested_function_with_its_own_self(adapter):
    got = loads(first("def f(self):\n    return self.x\n", adapter), "self")
    assert got.attrs == [] and got.names == []


def test_nonlocal_and_global_names_are_the_outer_scope(adapter):
    source = """
    def f():
        nonlocal count
        global seen
        count = count + 1
        seen = 1
    """
    assert sorted(loads(first(source, adapter), "self").names) == ["count"]


def test_class_body_names_are_not_seen_by_its_methods(adapter):
    source = """
    class K:
        size = 4
        width = size * 2
        def m(self):
            return size
    """
    assert loads(first(source, adapter), "self").names == ["size"]  # the method's ``size`` is the outer one


def test_compound_statement_loads_and_header_loads(adapter):
    source = """
    for i in range(self.n):
        self.items.append(make(i))
    """
    st = first(source, adapter)
    assert sorted(loads(st, "self").names) == ["i", "make", "range"]
    assert loads(st, "self").attrs == ["n", "items"]
    head = header_loads(st, "self")
    assert head.names == ["range"] and head.attrs == ["n"]


def test_header_loads_of_with_try_and_if(adapter):
    source = """
    with ctx(self.a) as c:
        use(c)
    try:
        risky()
    except (ValueError, self.err) as e:
        handle(e)
    if self.flag and ok:
        go()
    """
    w, t, i = parse(source, adapter).body
    assert header_loads(w, "self").names == ["ctx"] and header_loads(w, "self").attrs == ["a"]
    assert header_loads(t, "self").names == ["ValueError"] and header_loads(t, "self").attrs == ["err"]
    assert header_loads(i, "self").names == ["ok"] and header_loads(i, "self").attrs == ["flag"]


def test_loads_can_leave_one_statement_out(adapter):
    module = parse("def a():\n    return g\n\ndef b():\n    return h\n", adapter)
    assert loads(module, None, skip=module.body[0]).names == ["h"]


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("a, [b, *c] = self.x = d = v", ["a", "b", "c", "d"]),
        ("x: int", []),  # a bare annotation binds nothing
        ("x: int = 1", ["x"]),
        ("n += 1", ["n"]),
        ("import os.path, numpy as np", ["os", "np"]),
        ("from . import mod as m, other", ["m", "other"]),
        ("def f(): pass", ["f"]),
        ("class K: pass", ["K"]),
        ("for i, (j, k) in pairs: pass", ["i", "j", "k"]),
        ("with a() as (x, y), b() as z: pass", ["x", "y", "z"]),
        ("try:\n    pass\nexcept E as err:\n    inner = 1", ["err"]),  # not ``inner``: its block's
        ("if (m := f()):\n    q = 1", ["m"]),
        ("y = [(t := i) for i in r]", ["y", "t"]),  # := in a comprehension binds outside it
        ("global g", []),
        ("del x", []),
    ],
)
def test_bound_names(adapter, source, names):
    assert sorted(bound_names(first(source, adapter))) == sorted(names)


def test_init_calls_within(adapter):
    source = """
    def __init__(self, n):
        if n:
            super().__init__(n)
        else:
            Base.__init__(self, 0)
        Other.__init__(other)
        helper = lambda: super(Kind, self).__init__()
    """
    calls = init_calls_within(first(source, adapter), "self")
    assert [(ic.target, ic.start) for _, ic in calls] == [("super", None), ("Base", None), ("super", "Kind")]
    assert all(isinstance(c, sx.Call) for c, _ in calls)


@pytest.mark.parametrize(
    ("source", "attr"),
    [
        ("self.pool.start(1)", "pool"),
        ("self.items.append(1)", None),  # a fill, not just a call
        ("self.run()", None),
        ("other.pool.start()", None),
    ],
)
def test_called_method_attr(adapter, source, attr):
    call = first(source, adapter).value
    assert called_method_attr(call, "self") == attr


def test_loads_record_each_name_and_attribute_once_in_source_order(adapter):
    got = loads(parse("x = f(self.a, b, self.a, b, self.c.d)", adapter).body[0], "self")
    assert got == Loads(names=["f", "b"], attrs=["a", "c"])  # self itself is no name loaded; c, not c.d
    record = Loads()
    for name in ("n", "m", "n"):
        record.add_name(name)
    record.add_attr("w")
    record.add_attr("w")
    assert (record.names, record.attrs) == (["n", "m"], ["w"])
