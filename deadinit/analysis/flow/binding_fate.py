"""Which later statements of a flattened ``__init__`` chain can decide an earlier binding's fate.

Only a statement that reads the attribute (a read that counts) or binds it again can keep a
binding alive or replace it; the liveness fixpoint looks at those alone, so a binding costs
the statements about its attribute, not the whole chain after it.
"""

from __future__ import annotations

from collections import defaultdict

from deadinit.analysis.flow.chain import ChainStmt
from deadinit.model.kinds import ExprTag, FillKind, InitStmtKind
from deadinit.model.summary import Expr
from deadinit.semantics.exprs import NOTNONE, UNKNOWN

_BINDS = ("assign", "fill")


def touching_events(events: list[ChainStmt], counted: list[set[str]]) -> defaultdict[str, list[int]]:
    """Attribute -> the events that read it (``counted``: the reads that count) or bind it, in order."""
    out: defaultdict[str, list[int]] = defaultdict(list)
    for j, c in enumerate(events):
        attrs = set(counted[j])
        if c.stmt.attr is not None:
            attrs.add(c.stmt.attr)
        for a in attrs:
            out[a].append(j)
    return out


def binds(events: list[ChainStmt], touching: defaultdict[str, list[int]], attr: str) -> bool:
    """Whether some event of the chain assigns or fills ``attr``."""
    return any(events[j].stmt.attr == attr and events[j].stmt.kind in _BINDS for j in touching.get(attr, ()))


def replaces_elements(c: ChainStmt, k: ChainStmt) -> bool:
    """``for i in range(n): self.x[i] = ...`` after a parent's ``for _ in range(n): self.x.append(...)``,
    or after its ``self.x = [...]`` of ``n`` elements (a comprehension over ``range(n)``, a literal), or after
    an ancestor's own such element-wise rebuild (a list built three times down the chain): there the loop's
    iterable must mean the same in both ``__init__``s, so it may name only ``self``'s attributes, constants
    and module-level names, no local or parameter of either."""
    a, b = c.stmt, k.stmt
    refill = (
        b.kind == InitStmtKind.FILL
        and b.fill_kind == FillKind.SETITEM
        and a.attr == b.attr
        and k.owner != c.owner
        and k.guards_hold is True
        and not b.after_return
        and b.alloc is not None
    )
    if refill and a.kind == InitStmtKind.ASSIGN:
        return _counted_range(a.alloc.count if a.alloc is not None else None) == b.loop_iter
    return (
        refill
        and a.kind == InitStmtKind.FILL
        and (
            a.fill_kind == FillKind.APPEND
            or (a.fill_kind == FillKind.SETITEM and a.loop_iter is not None and _scope_free(a.loop_iter))
        )
        and a.loop_iter is not None
        and a.loop_iter == b.loop_iter
    )


def _counted_range(count: Expr | None) -> Expr | None:
    """``range(n)`` over the elements of a container built with a constant number ``n`` of them
    (``[torch.zeros(d) for _ in range(3)]``, a literal of three): what a loop replacing each one iterates."""
    if count is None or count[0] != ExprTag.CONST or not isinstance(count[1], int):
        return None
    return (ExprTag.CALL, "range", ((ExprTag.CONST, count[1]),), ())


def _scope_free(e: Expr) -> bool:
    """``e`` means the same in every method of the instance: no bare name, nothing unknown."""
    if e in (UNKNOWN, NOTNONE):
        return False
    head = e[0]
    if head in (ExprTag.CONST, ExprTag.SELF, ExprTag.DOTTED):
        return True
    if head == ExprTag.CALL:
        return e[1] != "?" and all(_scope_free(x) for x in e[2]) and all(_scope_free(v) for _, v in e[3])
    if head == ExprTag.BIN:
        return _scope_free(e[2]) and _scope_free(e[3])
    return False


def own_if_kill(k: ChainStmt, c: ChainStmt) -> bool:
    """``k`` is the kill of an ``if`` of ``c``'s own ``__init__`` that contains ``c``."""
    return k.stmt.kind == InitStmtKind.KILL and k.owner == c.owner and k.stmt.line <= c.stmt.line <= k.stmt.end_line
