"""What code makes sure of when it completes normally: after ``if C: raise ...`` C is false,
after ``assert T`` T holds, and what a method it calls on every path makes sure of.

``raise_condition`` is the one rule for an ``if`` (used by the ``__init__`` flattener and by
``method_checks``, which summarises any other method for the ``__init__`` calling it).
"""

from __future__ import annotations

from collections.abc import Iterator

from deadinit.model.kinds import ExprTag
from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import Expr, self_attr, to_expr


def always_raises(body: sx.Body) -> bool:
    """The block reaches a ``raise`` of its own on every path: nothing before it may leave the block."""
    for st in body:
        if isinstance(st, sx.Raise):
            return True
        if _leaves(st):
            return False
    return False


def raise_condition(st: sx.If, cond: Expr) -> Expr | None:
    """What holds once ``if cond: ...`` completes normally: ``not cond`` when its body always raises,
    ``cond`` when its ``else`` block does; None when neither or both."""
    body = always_raises(st.body)
    orelse = bool(st.orelse) and not _is_elif(st.orelse) and always_raises(st.orelse)
    if body == orelse:
        return None
    return (ExprTag.NOT, cond) if body else cond


def method_checks(func: sx.FunctionDef, self_name: str | None) -> tuple[tuple[Expr, ...], tuple[str, ...]]:
    """(what holds on ``self`` whenever ``func`` returns normally, the methods of self it calls on every
    such path).  Only statements before the first that may ``return`` count; conditions that name
    anything but ``self`` and literals are left out (their values are the method's own)."""
    ensures: list[Expr] = []
    calls: list[str] = []
    for st in func.body:
        if isinstance(st, (sx.Return, sx.Raise)):
            break
        for fact in _facts(st, self_name):
            if _on_self(fact, self_name):
                ensures.append(fact)
        method = self_call(st, self_name)
        if method is not None:
            calls.append(method)
        if _returns(st):
            break
    return tuple(ensures), tuple(calls)


def self_call(st: sx.Stmt, self_name: str | None) -> str | None:
    """``m`` for the statement ``self.m(...)``."""
    if isinstance(st, sx.ExprStmt) and isinstance(st.value, sx.Call):
        return self_attr(st.value.func, self_name)
    return None


def _facts(st: sx.Stmt, self_name: str | None) -> Iterator[Expr]:
    if isinstance(st, sx.Assert):
        yield to_expr(st.test, self_name)
    while isinstance(st, sx.If):
        cond = to_expr(st.test, self_name)
        fact = raise_condition(st, cond)
        if fact is None:
            return
        yield fact
        if fact[0] != ExprTag.NOT or not _is_elif(st.orelse):
            return
        st = st.orelse[0]  # the body raised: the ``elif`` runs on every path that goes on


def _on_self(e: Expr, self_name: str | None) -> bool:
    k = e[0]
    if k == ExprTag.CONST or k == ExprTag.SELF:
        return True
    if k == ExprTag.DOTTED:
        return self_name is not None and str(e[1]).split(".", 1)[0] == self_name
    if k == ExprTag.NOT or k in (ExprTag.IS_NONE, ExprTag.IS_NOT_NONE):
        return _on_self(e[1], self_name)
    if k in (ExprTag.AND, ExprTag.OR, ExprTag.EQ, ExprTag.NE):
        return _on_self(e[1], self_name) and _on_self(e[2], self_name)
    return False


def leaf_roots(e: Expr) -> Iterator[str]:
    """The names a condition's leaves start from (``a`` of ``a.b.c``)."""
    k = e[0]
    if k == ExprTag.NAME:
        yield e[1]
    elif k == ExprTag.DOTTED:
        yield str(e[1]).split(".", 1)[0]
    elif k in (ExprTag.NOT, ExprTag.IS_NONE, ExprTag.IS_NOT_NONE):
        yield from leaf_roots(e[1])
    elif k in (ExprTag.AND, ExprTag.OR, ExprTag.EQ, ExprTag.NE):
        yield from leaf_roots(e[1])
        yield from leaf_roots(e[2])


def _is_elif(body: sx.Body) -> bool:
    return len(body) == 1 and isinstance(body[0], sx.If) and body[0].is_elif


def _leaves(st: sx.Stmt) -> bool:
    """``st`` may end the block without raising (a ``return``, ``break`` or ``continue`` in it)."""
    stack: list[sx.Node] = [st]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Return) or (isinstance(n, sx.Simple) and n.what in (sx.Jump.BREAK, sx.Jump.CONTINUE)):
            return True
        if isinstance(n, (sx.Stmt, sx.Handler)) and not isinstance(n, (sx.FunctionDef, sx.ClassDef)):
            stack.extend(c for c in n.children() if isinstance(c, (sx.Stmt, sx.Handler)))
    return False


def _returns(st: sx.Stmt) -> bool:
    stack: list[sx.Node] = [st]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Return):
            return True
        if isinstance(n, (sx.Stmt, sx.Handler)) and not isinstance(n, (sx.FunctionDef, sx.ClassDef)):
            stack.extend(c for c in n.children() if isinstance(c, (sx.Stmt, sx.Handler)))
    return False
