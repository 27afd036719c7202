"""Targets of assignments and loops, for the flattened ``__init__``.

``a, b = x`` gives each target what it receives: element by element from a literal
sequence, else one ``item`` of the call ``x`` is (``self.layers, self.start, self.end =
make_layers(...)``), counted from the end after a starred target.
"""

from __future__ import annotations

from collections.abc import Callable

from deadinit.model.kinds import ExprTag
from deadinit.model.summary import AllocInfo
from deadinit.semantics import syntax as sx

Classify = Callable[[sx.Expr], AllocInfo | None]
Received = tuple[sx.Expr, AllocInfo | None, AllocInfo | None]  # target, allocation, followed call


def unpacked(target: sx.Sequence, value: sx.Expr, classify: Classify, followed: Classify) -> list[Received]:
    """Each element target of ``target = value`` with what it receives."""
    elts = target.elts
    star = next((i for i, e in enumerate(elts) if isinstance(e, sx.Starred)), None)
    if (
        isinstance(value, sx.Sequence)
        and value.shape in ("tuple", "list")
        and star is None
        and len(value.elts) == len(elts)
        and not any(isinstance(e, sx.Starred) for e in value.elts)
    ):
        return [(t, classify(v), followed(v)) for t, v in zip(elts, value.elts, strict=True)]
    whole = followed(value)
    out: list[Received] = []
    for i, t in enumerate(elts):
        if whole is None or i == star:
            out.append((t, None, None))
            continue
        index = i if star is None or i < star else i - len(elts)
        count = (ExprTag.CONST, len(elts)) if star is None else None
        out.append((t, None, AllocInfo("item", element=whole, index=index, count=count)))
    return out


def nested_path(target: sx.Expr, self_name: str | None) -> list[str] | None:
    """``["block", "proj"]`` for the target ``self.block.proj`` (two attributes or more), else None."""
    path: list[str] = []
    node = target
    while isinstance(node, sx.Attribute):
        path.append(node.attr)
        node = node.value
    if len(path) < 2 or not isinstance(node, sx.Name) or node.id != self_name:
        return None
    return path[::-1]


def leaves_early(body: sx.Body) -> bool:
    """A ``break``, ``continue``, ``return`` or ``raise`` anywhere in a loop body (outside nested functions)."""
    stack: list[sx.Node] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, (sx.Return, sx.Raise)) or (
            isinstance(n, sx.Simple) and n.what in (sx.Jump.BREAK, sx.Jump.CONTINUE)
        ):
            return True
        if isinstance(n, (sx.Stmt, sx.Handler)) and not isinstance(n, (sx.FunctionDef, sx.ClassDef)):
            stack.extend(c for c in n.children() if isinstance(c, (sx.Stmt, sx.Handler)))
    return False
