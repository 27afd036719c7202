"""Small expressions as nested tuples (picklable, comparable): what later stages evaluate.

Each tuple's first item is its form, an ``ExprTag`` (``deadinit.model.kinds``, which lists the
forms and what follows the tag in each): ``(ExprTag.CONST, 3)``, ``(ExprTag.SELF, "x")``,
``(ExprTag.CALL, "torch.empty", args, kwargs)``...
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from deadinit.model.kinds import ExprTag
from deadinit.model.summary import Expr as Expr  # the type of what this module builds
from deadinit.semantics import syntax as sx

UNKNOWN: Expr = (ExprTag.UNKNOWN,)
NOTNONE: Expr = (ExprTag.NOTNONE,)
EMPTY: Expr = (ExprTag.EMPTY,)  # an empty list or dict literal
_FOLDED_OPS = {"+", "-", "*", "//", "/", "<<", "**", "%"}
_KEYWORD_NAMES = {"True": True, "False": False, "None": None}


def dotted(node: sx.Node | None) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    if type(node) is sx.Name:
        return node.id
    if type(node) is not sx.Attribute:
        return None
    value = node.value
    if type(value) is sx.Name:  # ``a.b``: the most common chain
        return f"{value.id}.{node.attr}"
    parts = []
    while type(node) is sx.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is sx.Name:
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def literal(node: sx.Node) -> tuple[bool, Any]:
    """(True, value) for a simple literal (a negative number included), else (False, None)."""
    if isinstance(node, sx.Name) and node.id in _KEYWORD_NAMES:
        return True, _KEYWORD_NAMES[node.id]
    if isinstance(node, sx.Const) and isinstance(node.value, (int, float, str, bytes)):
        return True, node.value
    if isinstance(node, sx.UnaryOp) and node.op == "-":
        ok, v = literal(node.operand)
        if ok and isinstance(v, (int, float)) and not isinstance(v, bool):
            return True, -v
    return False, None


def literal_strings(node: sx.Node) -> tuple[str, ...]:
    """The strings of a list or tuple of string literals (``__all__``); () for anything else."""
    if not (isinstance(node, sx.Sequence) and node.shape in ("list", "tuple")):
        return ()
    out = []
    for el in node.elts:
        if not (isinstance(el, sx.Const) and isinstance(el.value, str)):
            return ()
        out.append(el.value)
    return tuple(out)


def self_attr(node: sx.Node | None, self_name: str | None) -> str | None:
    """``x`` when ``node`` is ``<self_name>.x``."""
    if type(node) is sx.Attribute:
        value = node.value
        if type(value) is sx.Name and self_name is not None and value.id == self_name:
            return node.attr
    return None


def is_name(node: sx.Node | None, name: str | None) -> bool:
    return type(node) is sx.Name and name is not None and node.id == name


def to_expr(node: sx.Node, self_name: str | None = "self", depth: int = 0) -> Expr:
    if depth > 12:
        return UNKNOWN
    ok, v = literal(node)
    if ok:
        return (ExprTag.CONST, v)
    convert = _CONVERTERS.get(type(node))
    return UNKNOWN if convert is None else convert(node, self_name, depth + 1)


# each converter gets the node, the name of ``self`` and the depth its parts are converted at


def _name(node: sx.Name, self_name: str | None, d: int) -> Expr:
    return (ExprTag.NAME, node.id)


def _attribute(node: sx.Attribute, self_name: str | None, d: int) -> Expr:
    if isinstance(node.value, sx.Name) and node.value.id == self_name:
        return (ExprTag.SELF, node.attr)
    name = dotted(node)
    return (ExprTag.DOTTED, name) if name else UNKNOWN


def _unary(node: sx.UnaryOp, self_name: str | None, d: int) -> Expr:
    return (ExprTag.NOT, to_expr(node.operand, self_name, d)) if node.op == "not" else UNKNOWN


def _bool(node: sx.BoolOp, self_name: str | None, d: int) -> Expr:
    return (_BOOL_OPS[node.op], to_expr(node.left, self_name, d), to_expr(node.right, self_name, d))


_BOOL_OPS = {"and": ExprTag.AND, "or": ExprTag.OR}
_COMPARISONS = {"==": ExprTag.EQ, "!=": ExprTag.NE}
_ORDERS = frozenset({"<", "<=", ">", ">="})


def _compare(node: sx.Compare, self_name: str | None, d: int) -> Expr:
    if len(node.ops) != 1:
        return UNKNOWN
    left, right, op = to_expr(node.left, self_name, d), to_expr(node.comparators[0], self_name, d), node.ops[0]
    if op == "is" and right == (ExprTag.CONST, None):
        return (ExprTag.IS_NONE, left)
    if op == "is not" and right == (ExprTag.CONST, None):
        return (ExprTag.IS_NOT_NONE, left)
    if op in _COMPARISONS:
        return (_COMPARISONS[op], left, right)
    if op in _ORDERS:
        return (ExprTag.CMP, op, left, right)
    if op in ("in", "not in"):
        return (ExprTag.IN, left, right) if op == "in" else (ExprTag.NOT, (ExprTag.IN, left, right))
    return UNKNOWN


def _binary(node: sx.BinOp, self_name: str | None, d: int) -> Expr:
    if node.op not in _FOLDED_OPS:
        return UNKNOWN
    return (ExprTag.BIN, node.op, to_expr(node.left, self_name, d), to_expr(node.right, self_name, d))


def _call(node: sx.Call, self_name: str | None, d: int) -> Expr:
    func = dotted(node.func) if self_attr(node.func, self_name) is None else None
    args = tuple(to_expr(a.value, self_name, d) for a in node.args if a.keyword is None and not a.star)
    kwargs = tuple((a.keyword, to_expr(a.value, self_name, d)) for a in node.args if a.keyword is not None)
    return (ExprTag.CALL, func or "?", args, kwargs)


def _if_exp(node: sx.IfExp, self_name: str | None, d: int) -> Expr:
    return (
        ExprTag.IFEXP,
        to_expr(node.test, self_name, d),
        to_expr(node.body, self_name, d),
        to_expr(node.orelse, self_name, d),
    )


def _sequence(node: sx.Sequence, self_name: str | None, d: int) -> Expr:
    if node.shape != "tuple":
        return NOTNONE
    return (ExprTag.TUPLE, tuple(to_expr(e.value if isinstance(e, sx.Starred) else e, self_name, d) for e in node.elts))


def _not_none(node: sx.Node, self_name: str | None, d: int) -> Expr:
    return NOTNONE


def _other(node: sx.Other, self_name: str | None, d: int) -> Expr:
    return NOTNONE if node.notnone else UNKNOWN


# what ``to_expr`` makes of each kind of node that is not a literal (any other kind: UNKNOWN)
_CONVERTERS: dict[type[sx.Node], Callable[[Any, str | None, int], Expr]] = {
    sx.Name: _name,
    sx.Attribute: _attribute,
    sx.UnaryOp: _unary,
    sx.BoolOp: _bool,
    sx.Compare: _compare,
    sx.BinOp: _binary,
    sx.Call: _call,
    sx.IfExp: _if_exp,
    sx.Sequence: _sequence,
    sx.Dict: _not_none,
    sx.Comprehension: _not_none,
    sx.Lambda: _not_none,
    sx.FString: _not_none,
    sx.Other: _other,
}


def substitute(e: Expr, value_of: Callable[[str], Expr | None], depth: int = 0) -> Expr:
    """``e`` with each bare name replaced by what ``value_of`` says it holds (a local's value),
    where that is an expression worth keeping; names it knows nothing about stay."""
    if depth > 3 or not isinstance(e, tuple) or not e:
        return e
    if e[0] == ExprTag.NAME:
        v = value_of(e[1])
        if v is None or v in (UNKNOWN, NOTNONE) or v == e:
            return e
        return substitute(v, value_of, depth + 1)
    if e[0] == ExprTag.BIN:
        return (ExprTag.BIN, e[1], substitute(e[2], value_of, depth), substitute(e[3], value_of, depth))
    if e[0] == ExprTag.IFEXP:
        return (ExprTag.IFEXP, *(substitute(x, value_of, depth) for x in e[1:]))
    if e[0] == ExprTag.CALL:
        args = tuple(substitute(a, value_of, depth) for a in e[2])
        return (ExprTag.CALL, e[1], args, tuple((k, substitute(v, value_of, depth)) for k, v in e[3]))
    if e[0] == ExprTag.TUPLE:
        return (ExprTag.TUPLE, tuple(substitute(x, value_of, depth) for x in e[1]))
    return e


_ORDER_FNS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def ordered(op: str, a: Any, b: Any) -> bool | None:
    """``a op b`` for two literals as Python orders them (numbers with numbers, strings with strings);
    None when they do not order (``None < 1``) or one is a bool."""
    if type(a) is bool or type(b) is bool:
        return None
    numbers = isinstance(a, (int, float)) and isinstance(b, (int, float))
    if not numbers and not (type(a) is type(b) and isinstance(a, (str, bytes))):
        return None
    return bool(_ORDER_FNS[op](a, b))


_NOT_NONE_FORMS = frozenset({ExprTag.NOTNONE, ExprTag.BIN, ExprTag.TUPLE})


def certainly_not_none(e: Expr) -> bool:
    if e[0] == ExprTag.CONST:
        return e[1] is not None
    return e[0] in _NOT_NONE_FORMS


def capitalised(fn: str) -> bool:
    """A dotted callee whose last part starts with a capital: by convention, a class."""
    return fn.rpartition(".")[2][:1].isupper()


def isinstance_classes(test: sx.Node, name: str) -> tuple[str, ...] | None:
    """The classes of an ``isinstance(name, C)`` / ``isinstance(name, (C, D))`` that ``test`` makes
    sure of when true (itself, or one side of an ``and``); None: none it makes sure of."""
    if isinstance(test, sx.BoolOp):
        if test.op != "and":
            return None
        return isinstance_classes(test.left, name) or isinstance_classes(test.right, name)
    if not (isinstance(test, sx.Call) and dotted(test.func) == "isinstance" and len(test.args) == 2):
        return None
    who, what = test.args[0].value, test.args[1].value
    if not isinstance(who, sx.Name) or who.id != name or any(a.star or a.keyword for a in test.args):
        return None
    names = [dotted(e) for e in (what.elts if isinstance(what, sx.Sequence) else (what,))]
    return tuple(n for n in names if n is not None) if names and None not in names else None
