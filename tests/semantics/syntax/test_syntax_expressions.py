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
    assert type(node) is kind and isinstance(node, sx.Expr)
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


def test_literals_are_their_python_values(adapter):
    values = expr("[0x10, 1.5, 'ab', b'by', ..., True, None]", adapter).elts
    assert [v.value for v in values[:5]] == [16, 1.5, "ab", b"by", Ellipsis]
    assert all(isinstance(v, sx.Const) for v in values[:5])
    assert [(type(v), v.id) for v in values[5:]] == [(sx.Name, "True"), (sx.Name, "None")]  # keywords are names


def test_starred_dict_items_and_arguments(adapter):
    seq = expr("[*xs, y]", adapter)
    assert isinstance(seq.elts[0], sx.Starred) and seq.elts[0].value.id == "xs"
    spread, item = expr("{**d, 1: v}", adapter).items
    assert isinstance(spread, sx.DictItem) and spread.key is None and spread.children() == (spread.value,)
    assert (item.key.value, item.value.id) == (1, "v") and len(item.children()) == 2
    (arg,) = expr("f(k=v)", adapter).args
    assert isinstance(arg, sx.Arg) and (arg.keyword, arg.star, arg.value.id) == ("k", "", "v")


def test_comprehension_generators(adapter):
    comp = expr("{k: v for k in ks if k if not k for v in k}", adapter)
    first, second = comp.generators
    assert isinstance(first, sx.Generator) and (first.target.id, first.iter.id, len(first.ifs)) == ("k", "ks", 2)
    assert (second.target.id, second.iter.id, second.ifs) == ("v", "k", ())
    assert comp.shape == "dict" and comp.key.id == "k"


def test_lambda_parameters(adapter):
    params = expr("lambda a, b=1, *c, d, **e: a", adapter).params
    assert all(isinstance(p, sx.Param) for p in params)
    assert [(p.name, p.star, p.group) for p in params] == [
        ("a", "", sx.ParamGroup.NORMAL),
        ("b", "", sx.ParamGroup.NORMAL),
        ("c", "*", sx.ParamGroup.NORMAL),
        ("d", "", sx.ParamGroup.KWONLY),
        ("e", "**", sx.ParamGroup.NORMAL),
    ]
    assert all(isinstance(p.group, sx.ParamGroup) for p in params)
    assert params[1].default.value == 1 and params[0].default is None and params[0].annotation is None
