"""``deadinit.semantics.raises``: what code makes sure of when it completes normally."""

from semantic_snippets import function, module, stmt

from deadinit.semantics.exprs import to_expr
from deadinit.semantics.raises import always_raises, leaf_roots, method_checks, raise_condition, self_call


def test_always_raises(adapter):
    assert always_raises(module("x = 1\nraise ValueError\n", adapter).body)
    assert not always_raises(module("if a:\n    return\nraise ValueError\n", adapter).body)
    assert not always_raises(module("for x in y:\n    break\nraise E\n", adapter).body)
    assert always_raises(module("def f():\n    return 1\nraise E\n", adapter).body)  # a nested def leaves nothing
    assert not always_raises(module("x = 1\n", adapter).body)


def test_raise_condition(adapter):
    st = stmt("if self.n < 0:\n    raise ValueError\n", adapter)
    cond = to_expr(st.test)
    assert raise_condition(st, cond) == ("not", cond)
    st = stmt("if ok:\n    pass\nelse:\n    raise ValueError\n", adapter)
    assert raise_condition(st, ("name", "ok")) == ("name", "ok")
    st = stmt("if a:\n    raise E\nelse:\n    raise F\n", adapter)
    assert raise_condition(st, ("name", "a")) is None  # both raise: nothing holds after
    st = stmt("if a:\n    x = 1\n", adapter)
    assert raise_condition(st, ("name", "a")) is None


def test_method_checks_collects_what_holds_on_self_and_the_calls(adapter):
    fn = function(
        """
        def check(self, n):
            assert self.size is not None
            if self.mode == "fast":
                raise ValueError
            elif n > 3:
                raise ValueError
            self.validate()
            if n:
                return
            self.never_counted()
        """,
        adapter,
    )
    ensures, calls = method_checks(fn, "self")
    assert ensures == (("is_not_none", ("self", "size")), ("not", ("eq", ("self", "mode"), ("const", "fast"))))
    assert calls == ("validate",)  # the call after the first statement that may return is not on every path


def test_method_checks_follows_an_elif_chain(adapter):
    fn = function(
        """
        def check(self):
            if self.a is None:
                raise E
            elif self.b is None:
                raise E
        """,
        adapter,
    )
    ensures, _ = method_checks(fn, "self")
    assert ensures == (("not", ("is_none", ("self", "a"))), ("not", ("is_none", ("self", "b"))))


def test_self_call(adapter):
    assert self_call(stmt("self.setup(x)", adapter), "self") == "setup"
    assert self_call(stmt("other.setup(x)", adapter), "self") is None
    assert self_call(stmt("y = self.setup(x)", adapter), "self") is None


def test_leaf_roots():
    cond = ("and", ("not", ("dotted", "cfg.a.b")), ("eq", ("name", "n"), ("const", 1)))
    assert list(leaf_roots(cond)) == ["cfg", "n"]
    assert list(leaf_roots(("is_none", ("self", "x")))) == []
