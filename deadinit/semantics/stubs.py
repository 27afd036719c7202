"""Whether a method is an interface stub: its body only raises ``NotImplementedError``, or is
``pass`` / ``...`` / a docstring."""

from __future__ import annotations

from deadinit.semantics import syntax as sx


def is_stub(fn: sx.FunctionDef) -> bool:
    return all(_stub_statement(s) for s in fn.body)


def _stub_statement(s: sx.Stmt) -> bool:
    if isinstance(s, sx.Simple) and s.what == sx.Jump.PASS:
        return True
    if isinstance(s, sx.ExprStmt) and isinstance(s.value, sx.Const):
        return True  # a docstring or ``...``
    if isinstance(s, sx.ExprStmt) and isinstance(s.value, sx.Name) and s.value.id in ("True", "False", "None"):
        return True  # a constant, as CPython reads it
    if isinstance(s, sx.Raise) and s.exc is not None:
        exc = s.exc.func if isinstance(s.exc, sx.Call) else s.exc
        return isinstance(exc, sx.Name) and exc.id == "NotImplementedError"
    return False
