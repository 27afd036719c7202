"""Turn small libcst expressions into nested tuples (picklable, comparable).

Forms:
  ("const", v)            int / float / str / bool / None literal
  ("name", n)             a bare name
  ("self", a)             self.a
  ("dotted", "a.b.c")     an attribute chain on a name
  ("not", e) ("and", a, b) ("or", a, b)
  ("is_none", e) ("is_not_none", e) ("eq", a, b) ("ne", a, b)
  ("bin", op, a, b)       arithmetic
  ("call", func, args, kwargs)   func is a dotted string or "?"
  ("ifexp", test, body, orelse)
  ("tuple", items)
  ("notnone",)            something that is certainly not None (container, lambda, f-string...)
  ("?",)                  anything else
"""

from __future__ import annotations

import ast

import libcst as cst

UNKNOWN = ("?",)
_BINOPS = {
    cst.Add: "+",
    cst.Subtract: "-",
    cst.Multiply: "*",
    cst.FloorDivide: "//",
    cst.Divide: "/",
    cst.LeftShift: "<<",
    cst.Power: "**",
    cst.Modulo: "%",
}


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def literal(node: cst.BaseExpression):
    """(True, value) for a simple literal, else (False, None)."""
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return True, {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        try:
            return True, ast.literal_eval(node.value)
        except (ValueError, SyntaxError):
            return False, None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        ok, v = literal(node.expression)
        if ok and isinstance(v, (int, float)):
            return True, -v
    return False, None


def to_expr(node: cst.BaseExpression, self_name: str | None = "self", depth: int = 0) -> tuple:
    if depth > 12:
        return UNKNOWN
    d = depth + 1
    ok, v = literal(node)
    if ok:
        return ("const", v)
    if isinstance(node, cst.Name):
        return ("name", node.value)
    if isinstance(node, cst.Attribute):
        if isinstance(node.value, cst.Name) and node.value.value == self_name:
            return ("self", node.attr.value)
        name = dotted(node)
        return ("dotted", name) if name else UNKNOWN
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return ("not", to_expr(node.expression, self_name, d))
    if isinstance(node, cst.BooleanOperation):
        op = "and" if isinstance(node.operator, cst.And) else "or"
        return (op, to_expr(node.left, self_name, d), to_expr(node.right, self_name, d))
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        comp = node.comparisons[0]
        left = to_expr(node.left, self_name, d)
        right = to_expr(comp.comparator, self_name, d)
        if isinstance(comp.operator, cst.Is) and right == ("const", None):
            return ("is_none", left)
        if isinstance(comp.operator, cst.IsNot) and right == ("const", None):
            return ("is_not_none", left)
        if isinstance(comp.operator, cst.Equal):
            return ("eq", left, right)
        if isinstance(comp.operator, cst.NotEqual):
            return ("ne", left, right)
        return UNKNOWN
    if isinstance(node, cst.BinaryOperation):
        op = _BINOPS.get(type(node.operator))
        if op is None:
            return UNKNOWN
        return ("bin", op, to_expr(node.left, self_name, d), to_expr(node.right, self_name, d))
    if isinstance(node, cst.Call):
        func = dotted(node.func) if not _is_self_attr(node.func, self_name) else None
        args = tuple(to_expr(a.value, self_name, d) for a in node.args if a.keyword is None and not a.star)
        kwargs = tuple((a.keyword.value, to_expr(a.value, self_name, d)) for a in node.args if a.keyword is not None)
        return ("call", func or "?", args, kwargs)
    if isinstance(node, cst.IfExp):
        return (
            "ifexp",
            to_expr(node.test, self_name, d),
            to_expr(node.body, self_name, d),
            to_expr(node.orelse, self_name, d),
        )
    if isinstance(node, cst.Tuple):
        return ("tuple", tuple(to_expr(e.value, self_name, d) for e in node.elements))
    if isinstance(
        node,
        (
            cst.List,
            cst.Dict,
            cst.Set,
            cst.ListComp,
            cst.DictComp,
            cst.SetComp,
            cst.GeneratorExp,
            cst.Lambda,
            cst.FormattedString,
            cst.ConcatenatedString,
        ),
    ):
        return ("notnone",)
    return UNKNOWN


def _is_self_attr(node: cst.BaseExpression, self_name: str | None) -> bool:
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == self_name


def certainly_not_none(e: tuple) -> bool:
    if e[0] == "const":
        return e[1] is not None
    return e[0] in ("notnone", "bin", "tuple")
