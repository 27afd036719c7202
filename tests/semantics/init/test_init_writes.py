"""``deadinit.semantics.init.writes``: the ``__init__`` statements that write, and what each one emits."""

import pytest
from init_snippets import effects, flatten
from semantic_snippets import PARSE, classifier, function

from deadinit.semantics.init.writes import InitWrites


def test_assignments_to_self(adapter):
    got = flatten("self.a = torch.zeros(n)\nself.b = self.a\nself.c = []\nself.d = make(n)\n", adapter)
    assert [(s.kind, s.attr) for s in got] == [("assign", "a"), ("assign", "b"), ("assign", "c"), ("assign", "d")]
    assert got[0].alloc.kind == "tensor" and got[0].value[0] == "call"
    assert got[1].reads == ("a",)
    assert got[2].value == ("empty",)
    assert got[3].call.kind == "call" and got[3].call.callee == "make"


def test_fills_and_augmented_assignments(adapter):
    got = flatten("self.xs[0] = torch.ones(1)\nself.ys.append(make())\nself.n += 1\n", adapter)
    assert [(s.kind, s.attr, s.fill_kind) for s in got] == [
        ("fill", "xs", "setitem"),
        ("fill", "ys", "append"),
        ("fill", "n", "aug"),
    ]
    assert got[0].alloc.kind == "tensor" and got[2].reads == ("n",)


def test_locals_carry_their_reads_and_allocations(adapter):
    got = flatten("buf = torch.zeros(n)\nself.a = buf\nx = self.w\nself.b = x\n", adapter)
    assert [(s.kind, s.attr) for s in got] == [("assign", "a"), ("assign", "b")]
    assert got[0].alloc.kind == "tensor"  # through the local
    assert got[1].reads == ("w",)


def test_other_targets(adapter):
    got = flatten("cfg.x = None\nself.block.proj = make()\nself.p, self.q = build(n)\nitems[0] = self.r\n", adapter)
    assert [(s.kind, s.attr) for s in got] == [
        ("set", "cfg.x"),
        ("nested", "block.proj"),
        ("assign", "p"),
        ("assign", "q"),
        ("effect", None),
    ]
    assert got[2].value == ("?",) and got[4].reads == ("r",)


def test_named_writes_and_deletes(adapter):
    got = effects(
        """
        setattr(self, "a", torch.zeros(1))
        self.register_buffer("mask", torch.ones(n))
        delattr(self, "a")
        del self.mask
        for name in ("x", "y"):
            delattr(self, name)
        """,
        adapter,
    )
    assert got == [
        ("assign", "a"),
        ("assign", "mask"),
        ("delete", "a"),
        ("delete", "mask"),
        ("effect", None),  # the loop's iterable
        ("delete", "x"),
        ("delete", "y"),
    ]


def test_parent_init_calls(adapter):
    got = flatten("base = Parent\nbase.__init__(self, n, k=cfg)\nsuper(K, self).__init__(*a)\n", adapter)
    calls = [s for s in got if s.kind == "super_init"]
    assert [(s.target, s.start, s.args, s.kwargs, s.star_args) for s in calls] == [
        ("Parent", None, (("name", "n"),), (("k", ("name", "cfg")),), False),
        ("super", "K", (), (), True),
    ]


def test_parent_init_calls_keep_explicit_arguments_beside_spreads(adapter):
    """A positional argument after ``*args`` has no known position: only those before it are kept."""
    got = flatten('super().__init__(n, *a, m, **kw, mode="skip")\nsuper().__init__(**kw)\n', adapter)
    first, second = (s for s in got if s.kind == "super_init")
    assert (first.args, first.kwargs) == ((("name", "n"),), (("mode", ("const", "skip")),))
    assert (first.spreads_args, first.spreads_kwargs, second.spreads_args, second.spreads_kwargs) == (
        True,
        True,
        False,
        True,
    )


def test_method_calls_and_escapes(adapter):
    got = flatten("self.setup(n)\nregister(self)\n", adapter)
    assert [(s.kind, s.method) for s in got] == [("effect", "setup"), ("effect", None)]
    assert got[1].passes_self and got[1].constructs == ("register",)


def test_one_assignment_under_guards(adapter):
    init = function("class K:\n    def __init__(self, n):\n        self.a, self.b = torch.zeros(n), None\n", adapter)
    writes = InitWrites(init, "self", classifier(), PARSE[adapter])
    writes._assign(init.body[0], (("name", "n"),), True)
    got = [(s.kind, s.attr, s.alloc.kind if s.alloc else None, s.guards, s.in_loop) for s in writes.out]
    assert got == [("assign", "a", "tensor", (("name", "n"),), True), ("assign", "b", None, (("name", "n"),), True)]


def test_calls_of_helpers_keep_their_arguments(adapter):
    """``self.m(...)`` and ``super().m(...)``: the chain binds the arguments to the helper's parameters."""
    got = flatten("self._init_layers(dim, depth=2)\nsuper()._init_layers(dim)\nsuper(Kid, self).reset(*a)\n", adapter)
    assert [(s.kind, s.method, s.target, s.start) for s in got] == [
        ("effect", "_init_layers", None, None),
        ("super_call", "_init_layers", "super", None),
        ("super_call", "reset", "super", "Kid"),
    ]
    assert got[0].args == (("name", "dim"),) and got[0].kwargs == (("depth", ("const", 2)),)
    assert got[1].args == (("name", "dim"),) and not got[1].star_args
    assert got[2].star_args
    assert [s.kind for s in flatten("super().__init__(n)\nsuper().__init_subclass__()\n", adapter)] == [
        "super_init",
        "super_call",
    ]


def test_a_copy_of_an_attribute_is_a_new_tensor_while_the_attribute_surely_holds_one(adapter):
    """``self.b = self.a.clone()``: only after ``self.a`` was assigned a new tensor on every path, with no write to it,
    no parent ``__init__`` and no method of self run in between."""
    got = flatten(
        "self.a = torch.zeros(n)\nself.b = self.a.clone()\nif cfg:\n    self.c = torch.ones(n)\n"
        "self.d = torch.cat([self.a, self.c])\nself.setup()\nself.e = self.a.clone()\n",
        adapter,
    )
    allocs = {s.attr: s.alloc for s in got if s.kind == "assign"}
    assert allocs["b"] == allocs["a"]
    assert allocs["d"].callee == "torch.cat" and allocs["d"].items == ()  # ``self.c`` may not hold one: size unknown
    assert allocs["e"] is None  # ``self.setup()`` may have replaced ``self.a``


def _sees_self(st) -> bool:
    """``st`` reads ``buf`` of ``self``, or lets ``self`` escape, or is unsure about what it reads."""
    return "buf" in st.reads or st.passes_self or bool(st.dynamic)


@pytest.mark.parametrize("use", ["self.saved = me.buf.sum()", "record(me)", "self.t = getattr(me, 'buf')"])
def test_a_local_alias_of_self_reads_what_it_names(use, adapter):
    got = flatten(f"super().__init__(n)\nme = self\n{use}\nself.buf = torch.zeros(n)\n", adapter)
    overwrite = max(i for i, s in enumerate(got) if s.kind == "assign" and s.attr == "buf")
    assert any(_sees_self(s) for s in got[:overwrite])


@pytest.mark.parametrize(
    "bind",
    ["me = self", "me = [self]", "me, k = self, 1", "for me in (self,):\n    pass", "me = self\nif n:\n    me = cfg"],
)
def test_a_local_that_may_hold_self_is_an_alias(bind, adapter):
    got = flatten(f"{bind}\nrecord(me)\nself.buf = torch.zeros(n)\n", adapter)
    assert [s.passes_self for s in got if s.kind == "effect"][-1]


def test_a_local_bound_again_to_another_object_is_no_alias(adapter):
    got = flatten("me = self\nme = cfg\nself.saved = me.buf\nrecord(me)\n", adapter)
    assert not any("buf" in s.reads or s.passes_self for s in got)
