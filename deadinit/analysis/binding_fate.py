"""Which later statements of a flattened ``__init__`` chain can decide an earlier binding's fate.

Only a statement that reads the attribute (a read that counts) or binds it again can keep a
binding alive or replace it; the liveness fixpoint looks at those alone, so a binding costs
the statements about its attribute, not the whole chain after it.
"""

from __future__ import annotations

from collections import defaultdict

from deadinit.analysis.chain import ChainStmt

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
    """``for i in range(n): self.x[i] = ...`` after a parent's ``for _ in range(n): self.x.append(...)``."""
    a, b = c.stmt, k.stmt
    return (
        a.kind == "fill"
        and a.fill_kind == "append"
        and b.kind == "fill"
        and b.fill_kind == "setitem"
        and a.attr == b.attr
        and k.owner != c.owner
        and a.loop_iter is not None
        and a.loop_iter == b.loop_iter
        and k.guards_hold is True
        and not b.after_return
        and b.alloc is not None
    )


def own_if_kill(k: ChainStmt, c: ChainStmt) -> bool:
    """``k`` is the kill of an ``if`` of ``c``'s own ``__init__`` that contains ``c``."""
    return k.stmt.kind == "kill" and k.owner == c.owner and k.stmt.line <= c.stmt.line <= k.stmt.end_line
