"""semantics.construction_args: what a statement only hands to calls, and where each ``__init__`` parameter goes
(both adapters)."""

import pytest
from semantic_snippets import function, stmt

from deadinit.frontends.parse import summarize_source
from deadinit.model.settings import Settings
from deadinit.semantics.construction_args import (
    PARAM_CALL,
    PARAM_COMPUTE,
    PARAM_INIT,
    PARAM_STORE,
    PARAM_TEST,
    PARAM_USE,
    param_flow,
    passed_only,
)

SRC = b"""
class Kernel(Base):
    def __init__(self, runner, buf=None, last=None, *rest, **extra):
        if buf is None:
            buf = make(runner)
        self.last = [last]
        super().__init__(runner, last, flag=last)
        self.inner = Sink(last[0])
        log(rest, extra)

class Steps:
    def __init__(self, n):
        self.ptr = zeros(n)
        self.kernels = [Kernel(None, buf=self.ptr[i], last=self.ptr) for i in range(n)]
        self.first = Kernel(self.ptr, self.ptr.shape)
        self.star = Kernel(*args, self.ptr)
        local = self.ptr
        self.other = Kernel(None, local)
        self.method = self.build(self.ptr)
        Kernel = pick()
        self.shadowed = Kernel(self.ptr)
"""


@pytest.mark.parametrize("adapter", ["ast", "cst"])
def test_param_flow_and_passed_arguments(adapter):
    s = summarize_source(SRC, "m.py", "m", False, Settings(), adapter=adapter)
    kernel, steps = s.classes
    flow = kernel.methods["__init__"].param_flow
    assert ("buf", "test", "", 4, "") in flow
    assert ("buf", "use", "", 5, "") in flow  # rebound: its value is another one from there on
    assert ("last", "store", "last", 6, "") in flow
    assert ("last", "init", 1, 7, "") in flow and ("last", "init", "flag", 7, "") in flow
    assert ("last", "call", 0, 8, "Sink") in flow
    assert not any(p in ("rest", "extra") for p, *_ in flow)  # star parameters are never followed
    passed = {st.line: st.passed for st in steps.methods["__init__"].init_flow if st.passed}
    assert passed[14] == (("ptr", "Kernel", "buf"), ("ptr", "Kernel", "last"))
    assert 15 not in passed  # ``self.ptr.shape`` is not the whole attribute
    assert 16 not in passed  # after ``*args`` no slot is known
    assert 18 not in passed  # through a local
    assert 19 not in passed  # a method of self
    assert 21 not in passed  # a local: it may hold any callable


BOUND = b"""
class K:
    def __init__(self, buf, norm_layer=None):
        from x import Sink as Imported
        self.a = Sink(buf)
        self.b = norm_layer(buf)
        self.c = Imported(buf)
"""


@pytest.mark.parametrize("adapter", ["ast", "cst"])
def test_a_call_of_a_local_or_parameter_is_a_use(adapter):
    s = summarize_source(BOUND, "m.py", "m", False, Settings(), adapter=adapter)
    flow = s.classes[0].methods["__init__"].param_flow
    assert ("buf", "call", 0, 5, "Sink") in flow
    assert ("buf", "use", "", 6, "") in flow and ("buf", "use", "", 7, "") in flow


# -- the functions themselves, on small trees ---------------------------------------------------


def test_passed_only_keeps_attributes_loaded_only_as_whole_arguments(adapter):
    node = stmt("self.b = Block(self.kv[i], cache=self.cache, n=len(self.n), m=self.m.size)", adapter)
    got = passed_only(node, "self", frozenset({"kv", "cache", "n", "m"}))
    assert got == (("cache", "Block", "cache"), ("kv", "Block", 0), ("n", "len", 0))  # ``m``: its ``size`` is read
    node = stmt("x = self.make(self.kv)", adapter)  # a method of self: not followed
    assert passed_only(node, "self", frozenset({"kv"})) == ()
    node = stmt("x = f(self.kv, *rest, self.kv)", adapter)  # the second after ``*rest``: slot unknown
    assert passed_only(node, "self", frozenset({"kv"})) == ()


def test_param_flow_kinds(adapter):
    init = function(
        """
        class K(Base):
            def __init__(self, a, b, c=None, d=None, *rest, **extra):
                self.a = a
                super().__init__(b, size=d)
                if c is None:
                    c = 1
                make = Block
                Builder(a, key=d)
                make(b)
                def inner():
                    return a
        """,
        adapter,
        "__init__",
    )
    got = param_flow(init, "self")
    by_kind = {(p, kind, target, callee) for p, kind, target, _, callee in got}
    assert ("a", PARAM_STORE, "a", "") in by_kind
    assert ("b", PARAM_INIT, 0, "") in by_kind and ("d", PARAM_INIT, "size", "") in by_kind
    assert ("c", PARAM_TEST, "", "") in by_kind and ("c", PARAM_USE, "", "") in by_kind  # rebound: a use
    assert ("a", PARAM_CALL, 0, "Builder") in by_kind and ("d", PARAM_CALL, "key", "Builder") in by_kind
    assert ("b", PARAM_USE, "", "") in by_kind  # ``make`` is a local: any callable
    assert ("a", PARAM_USE, "", "") in by_kind  # the nested function's mention
    assert {p for p, *_ in got} == {"a", "b", "c", "d"}  # neither self nor the starred parameters
    assert list(got) == sorted(got, key=lambda f: (f[0], f[3], f[1], str(f[2]), f[4]))


COMPUTED = b"""
class K:
    def __init__(self, buf, p, q):
        self.rows = buf.shape[0] * 2 if buf is not None else 0
        self.n = buf.size(0) + p
        self.w = Wrapper(q)
        self.sq = [x for x in q]
        self.pair = local = p
"""


@pytest.mark.parametrize("adapter", ["ast", "cst"])
def test_a_parameter_read_only_to_compute_an_assigned_value(adapter):
    s = summarize_source(COMPUTED, "m.py", "m", False, Settings(), adapter=adapter)
    flow = s.classes[0].methods["__init__"].param_flow
    assert ("buf", PARAM_COMPUTE, "rows", 4, "") in flow and ("buf", PARAM_TEST, "", 4, "") in flow
    assert ("p", PARAM_COMPUTE, "n", 5, "") in flow
    assert ("buf", PARAM_USE, "", 5, "") in flow  # a method called on it may keep it
    assert ("q", PARAM_CALL, 0, 6, "Wrapper") in flow and ("q", PARAM_COMPUTE, "w", 6, "") not in flow
    assert ("q", PARAM_USE, "", 7, "") in flow  # the comprehension binds names of its own
    assert ("p", PARAM_USE, "", 8, "") in flow  # also bound to a local
