"""Kept statements that read a list the subclass refills element-wise (speculative drafts).

sglang's draft parents build one backend per step, then read one element::

    self.attn_backends = []
    for i in range(self.speculative_num_steps - 1):
        self.attn_backends.append(FlashInferAttnBackend(...))
    self.max_context_len = self.attn_backends[0].max_context_len
    self.attn_backend_list = self.attn_backends

and the subclass replaces every element after ``super().__init__()``.  When the
parent skips building (its list becomes ``[None for _ in <same iterable>]``):

* an alias ``self.Y = self.X`` stays as it is: it names the same list object,
  which the subclass fills in place;
* a plain ``self.Y = <expression reading self.X[...]>`` is guarded in the parent
  with the flag and *moved* into the subclass, right after the loop that refills
  the list, so it reads the subclass's element instead of the parent's.  This is
  done only when the statement reads nothing but ``self`` (and builtins), and when
  nothing in between reads or writes ``self.Y``; otherwise the list stays built.
"""

from __future__ import annotations

import builtins

import libcst as cst

from deadinit.analysis.reach import short
from deadinit.fixes.skip_flag.units import SIMPLE, Unit, walk_units

_BUILTINS = set(dir(builtins))


def alias_of(u: Unit, self_name: str) -> str | None:
    """X when the unit is exactly ``self.Y = self.X``."""
    node = u.node
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1):
        return None
    small = node.body[0]
    if isinstance(small, (cst.Assign, cst.AnnAssign)) and len(u.self_assigns) == 1 and not u.other_writes:
        v = small.value
        if isinstance(v, cst.Attribute) and isinstance(v.value, cst.Name) and v.value.value == self_name:
            return v.attr.value
    return None


def movable(u: Unit, self_name: str) -> bool:
    node = u.node
    return (
        u.kind == SIMPLE
        and isinstance(node, cst.SimpleStatementLine)
        and len(node.body) == 1
        and isinstance(node.body[0], (cst.Assign, cst.AnnAssign))
        and bool(u.self_assigns)
        and not u.self_fills
        and not u.other_writes
        and not u.names_written
        and u.reads_names <= {self_name} | _BUILTINS
    )


def destination(builder, g, an, owner: str, u: Unit, attr: str, fact) -> tuple[tuple | None, str | None]:
    """((class, statement to insert after, code), None) or (None, why it cannot move)."""
    src = builder.src.init(owner)
    why = f"{short(owner)}.__init__ line {u.start} reads self.{attr}[...] to set " + ", ".join(
        f"self.{y}" for y in u.self_assigns
    )
    killer = fact.killer if fact is not None else None
    if killer is None or killer.owner not in g.path[: g.path.index(owner)]:
        return None, why + ", and no subclass refills the list"
    dest = builder.src.init(killer.owner)
    if dest.self_name != src.self_name:
        return None, why + f", and {short(killer.owner)}.__init__ names self differently"
    after = next((v for v in dest.units if v.start <= killer.stmt.line <= v.end), None)
    if after is None:
        return None, why + f", and the refill in {short(killer.owner)} cannot be located"
    ys = set(u.self_assigns)
    later = False
    for v in walk_units(src.units):
        if v is u:
            later = True
        elif later and (ys & set(v.reads_self) or ys & (set(v.self_assigns) | v.self_fills)):
            return None, why + f", which line {v.start} uses before the subclass refills the list"
    mro = builder.index.mro(g.leaf) or [g.leaf]
    events = [c for c in an.chain.stmts if c.active is not False]
    last_own = max((i for i, c in enumerate(events) if c.owner == owner), default=-1)
    for c in events[last_own + 1 :]:
        if c.owner == killer.owner and c.stmt.line > after.end:
            break
        if c.owner == owner:
            continue
        if ys & builder.closure_of(mro, c.stmt.reads) or c.stmt.attr in ys:
            return None, why + f", which {short(c.owner)}.__init__ line {c.stmt.line} uses before the list is refilled"
    line = u.node.with_changes(
        leading_lines=[
            cst.EmptyLine(comment=cst.Comment(f"# deadinit: moved here from {short(owner)}.__init__,")),
            cst.EmptyLine(comment=cst.Comment("# which skips it when <flag>=True")),
        ]
    )
    return (killer.owner, after.node, line), None
