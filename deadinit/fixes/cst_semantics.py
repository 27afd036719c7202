"""The semantic model's answers for the libcst nodes a rewrite holds (through the libcst adapter)."""

from __future__ import annotations

import libcst as cst

from deadinit.frontends.cst_adapter import expression
from deadinit.semantics import exprs


def dotted(node: cst.CSTNode | None) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    if not isinstance(node, (cst.Name, cst.Attribute)):
        return None
    return exprs.dotted(expression(node))


def to_expr(node: cst.BaseExpression, self_name: str | None = "self") -> exprs.Expr:
    return exprs.to_expr(expression(node), self_name)
