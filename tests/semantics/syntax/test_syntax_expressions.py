"""``deadinit.semantics.syntax.expressions``: the expression nodes both adapters build, the same for both."""

import pytest
from semantic_snippets import ADAPTERS, expr

from deadinit.semantics import syntax as sx
from deadinit.semantics.syntax.expressions import FString


def test_both_adapters_build_equal_trees():
    source = "f(a.b[1:2], *xs, k=lambda q=1: q, **kw) if not (x < y <= z) else {u: [v, *w], **d}"
    cst_tree, ast_tree = (expr(source, a) for a in ADAPTERS)
    assert cst_tree == ast_tree


@pytest.mark.parametrize(
    ("source", "kind", "children"),
    [
        ("a.b", sx.Attribute, 1),
        ("f(x, y=1, *z)", sx.Call, 4),
        ("a[1, 2]", sx.Subscript, 3),
        ("(a, *b)", sx.Sequence, 2),
        ("{1: a, **b}", sx.Dict, 2),
        ("[a for b in c if d]", sx.Comprehension, 2),
        ("lambda a, b=1: a", sx.Lambda, 3),
        ("a if b else c", sx.IfExp, 3),
        ("a and b", sx.BoolOp, 2),
        ("-a", sx.UnaryOp, 1),
        ("a + b", sx.BinOp, 2),
        ("a < b < c", sx.Compare, 3),
        ("f'{a}_{b}'", sx.FString, 2),
    ],
)
def test_kinds_and_children_in_source_order(source, kind, children, adapter):
    node = expr(source, adapter)
    assert type(node) is kind
    assert len(node.children()) == children
    lines_cols = [(c.line, c.col) for c in node.children()]
    assert lines_cols == sorted(lines_cols)


def test_call_arguments_keep_keywords_and_stars(adapter):
    call = expr("f(x, k=1, *a, **b)", adapter)
    assert [(a.keyword, a.star) for a in call.args] == [(None, ""), ("k", ""), (None, "*"), (None, "**")]


def test_fstring_prefix_and_suffix():
    name = sx.Name(1, 3, 1, "k")
    assert (FString.of_parts(1, 0, 1, ["pre_", name, "_buf"], False).prefix, "_buf") == ("pre_", "_buf")
    got = FString.of_parts(1, 0, 1, ["a b", name, ".x"], False)
    assert (got.prefix, got.suffix) == ("", "")  # text that no identifier holds
    got = FString.of_parts(1, 0, 1, ["pre_", name], True)
    assert (got.prefix, got.exprs) == ("", (name,))  # a backslash in its source: the text is not trusted
    assert FString.of_parts(1, 0, 1, ["text"], False).exprs == ()


def test_other_keeps_what_it_stores(adapter):
    node = expr("(n := 3)", adapter)
    assert isinstance(node, sx.Other) and [s.id for s in node.stores] == ["n"]
