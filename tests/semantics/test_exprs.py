"""``deadinit.semantics.exprs``: small expressions as nested tuples, the form later stages evaluate."""

import pytest
from semantic_snippets import expr

from deadinit.semantics.exprs import (
    NOTNONE,
    UNKNOWN,
    capitalised,
    certainly_not_none,
    dotted,
    is_name,
    isinstance_classes,
    literal,
    literal_strings,
    ordered,
    self_attr,
    substitute,
    to_expr,
)


@pytest.mark.parametrize(
    ("source", "want"),
    [("a", "a"), ("a.b.c", "a.b.c"), ("self.x", "self.x"), ("a().b", None), ("a[0].b", None), ("1", None)],
)
def test_dotted_names_only_chains_of_names(source, want, adapter):
    assert dotted(expr(source, adapter)) == want


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("3", (True, 3)),
        ("-3", (True, -3)),
        ("-2.5", (True, -2.5)),
        ("'s'", (True, "s")),
        ("b'x'", (True, b"x")),
        ("None", (True, None)),
        ("True", (True, True)),
        ("-True", (False, None)),  # a negated bool is no literal
        ("x", (False, None)),
        ("[1]", (False, None)),
    ],
)
def test_literal(source, want, adapter):
    assert literal(expr(source, adapter)) == want


def test_literal_strings_of_all(adapter):
    assert literal_strings(expr("['A', 'B']", adapter)) == ("A", "B")
    assert literal_strings(expr("('A',)", adapter)) == ("A",)
    assert literal_strings(expr("['A', name]", adapter)) == ()
    assert literal_strings(expr("{'A'}", adapter)) == ()


def test_self_attr_and_is_name(adapter):
    assert self_attr(expr("me.x", adapter), "me") == "x"
    assert self_attr(expr("self.x", adapter), "me") is None
    assert self_attr(expr("me.x.y", adapter), "me") is None
    assert self_attr(expr("me.x", adapter), None) is None
    assert is_name(expr("me", adapter), "me") and not is_name(expr("me", adapter), None)


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("7", ("const", 7)),
        ("n", ("name", "n")),
        ("self.a", ("self", "a")),
        ("cfg.model.size", ("dotted", "cfg.model.size")),
        ("not self.a", ("not", ("self", "a"))),
        ("a and b", ("and", ("name", "a"), ("name", "b"))),
        ("a or b", ("or", ("name", "a"), ("name", "b"))),
        ("a is None", ("is_none", ("name", "a"))),
        ("a is not None", ("is_not_none", ("name", "a"))),
        ("a == 2", ("eq", ("name", "a"), ("const", 2))),
        ("a != 2", ("ne", ("name", "a"), ("const", 2))),
        ("a < 2", ("cmp", "<", ("name", "a"), ("const", 2))),
        ("a >= b", ("cmp", ">=", ("name", "a"), ("name", "b"))),
        ("a in (1, 2)", ("in", ("name", "a"), ("tuple", (("const", 1), ("const", 2))))),
        ("a not in b", ("not", ("in", ("name", "a"), ("name", "b")))),
        ("a is b", UNKNOWN),
        ("a == b == c", UNKNOWN),
        ("h * 2", ("bin", "*", ("name", "h"), ("const", 2))),
        ("h @ w", UNKNOWN),
        ("torch.zeros(n, dtype=d)", ("call", "torch.zeros", (("name", "n"),), (("dtype", ("name", "d")),))),
        ("self.make(n)", ("call", "?", (("name", "n"),), ())),
        ("f(*xs)", ("call", "f", (), ())),
        ("a if c else b", ("ifexp", ("name", "c"), ("name", "a"), ("name", "b"))),
        ("(a, *b)", ("tuple", (("name", "a"), ("name", "b")))),
        ("[a]", NOTNONE),
        ("{1: 2}", NOTNONE),
        ("[x for x in y]", NOTNONE),
        ("lambda: 0", NOTNONE),
        ("f'{a}'", NOTNONE),
        ("-x", UNKNOWN),
        ("x[0]", UNKNOWN),
    ],
)
def test_to_expr_forms(source, want, adapter):
    assert to_expr(expr(source, adapter)) == want


def test_to_expr_self_name_and_depth(adapter):
    assert to_expr(expr("me.a", adapter), "me") == ("self", "a")
    assert to_expr(expr("self.a", adapter), None) == ("dotted", "self.a")
    deep = expr("+".join(["a"] * 20), adapter)
    assert "?" in repr(to_expr(deep))  # cut off past its depth limit


def test_substitute_replaces_names_by_what_they_hold():
    values = {"n": ("const", 4), "m": ("name", "n"), "u": UNKNOWN}.get
    assert substitute(("bin", "*", ("name", "m"), ("name", "k")), values) == ("bin", "*", ("const", 4), ("name", "k"))
    assert substitute(("name", "u"), values) == ("name", "u")  # nothing worth keeping
    assert substitute(("call", "f", (("name", "n"),), (("x", ("name", "n")),)), values) == (
        "call",
        "f",
        (("const", 4),),
        (("x", ("const", 4)),),
    )
    assert substitute(("tuple", (("name", "n"),)), values) == ("tuple", (("const", 4),))
    assert substitute(("ifexp", ("name", "n"), ("name", "k"), ("const", 1)), values)[1] == ("const", 4)
    loop = {"a": ("name", "b"), "b": ("name", "a")}.get
    assert substitute(("name", "a"), loop)[0] == "name"  # a cycle ends at the depth limit


def test_certainly_not_none_and_capitalised():
    assert certainly_not_none(("const", 0)) and not certainly_not_none(("const", None))
    assert certainly_not_none(NOTNONE) and certainly_not_none(("bin", "+", UNKNOWN, UNKNOWN))
    assert not certainly_not_none(UNKNOWN) and not certainly_not_none(("name", "x"))
    assert capitalised("nn.Linear") and capitalised("Block") and not capitalised("torch.zeros")


def test_ordered_compares_literals_as_python_orders_them():
    assert ordered("<", 1, 2.5) is True
    assert ordered(">=", "a", "b") is False
    assert ordered("<", None, 1) is None  # no order between them
    assert ordered("<", "a", 1) is None
    assert ordered(">", True, 0) is None  # a bool is a flag, not a number


@pytest.mark.parametrize("adapter", ["cst", "ast"])
def test_the_classes_an_isinstance_test_makes_sure_of(adapter):
    assert isinstance_classes(expr("isinstance(x, A)", adapter), "x") == ("A",)
    assert isinstance_classes(expr("isinstance(x, (A, m.B))", adapter), "x") == ("A", "m.B")
    assert isinstance_classes(expr("ok and isinstance(x, A)", adapter), "x") == ("A",)
    assert isinstance_classes(expr("ok or isinstance(x, A)", adapter), "x") is None
    assert isinstance_classes(expr("isinstance(y, A)", adapter), "x") is None
    assert isinstance_classes(expr("isinstance(x, kinds[0])", adapter), "x") is None
