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
from collections.abc import Callable
from typing import NamedTuple

import libcst as cst

from deadinit.analysis.analyzer import ClassAnalysis
from deadinit.analysis.fact_records import AttrFact
from deadinit.fixes.init_units import InitUnit, UnitKind, walk_units
from deadinit.fixes.skip_flag.source import InitLocator
from deadinit.model.qualnames import short_name
from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import self_attr

_BUILTINS = set(dir(builtins))


class Move(NamedTuple):
    """A statement a guarded ``__init__`` gives up, put in a subclass's ``__init__`` instead."""

    owner: str  # the subclass
    after: cst.CSTNode  # its statement the moved one goes after
    line: cst.SimpleStatementLine | cst.BaseCompoundStatement  # the moved statement


def _single_assignment(u: InitUnit) -> sx.Assign | sx.AnnAssign | None:
    """The statement of a line that holds one assignment and nothing else."""
    if u.kind != UnitKind.LINE or not isinstance(u.node, cst.SimpleStatementLine) or len(u.statements) != 1:
        return None
    st = u.statements[0].stmt
    return st if isinstance(st, (sx.Assign, sx.AnnAssign)) else None


def alias_of(u: InitUnit, self_name: str) -> str | None:
    """X when the unit is exactly ``self.Y = self.X``."""
    st = _single_assignment(u)
    if st is None or len(u.self_assigns) != 1 or u.untracked_writes:
        return None
    return self_attr(st.value, self_name)


def movable(u: InitUnit, self_name: str) -> bool:
    return (
        _single_assignment(u) is not None
        and bool(u.self_assigns)
        and not u.self_fills
        and not u.untracked_writes
        and not u.names_bound
        and u.names_read <= {self_name} | _BUILTINS
    )


def destination(
    inits: InitLocator,
    reads_closure: Callable[[list[str], tuple[str, ...]], set[str]],
    mro: list[str],
    path: list[str],
    an: ClassAnalysis,
    owner: str,
    u: InitUnit,
    attr: str,
    fact: AttrFact | None,
) -> Move | str:
    """Where the statement moves, or why it cannot move.

    ``reads_closure(mro, names)``: the attributes reading ``names`` reads, through methods."""
    src = inits.located(owner)
    why = f"{short_name(owner)}.__init__ line {u.start} reads self.{attr}[...] to set " + ", ".join(
        f"self.{y}" for y in u.self_assigns
    )
    killer = fact.killer if fact is not None else None
    if killer is None or killer.owner not in path[: path.index(owner)]:
        return why + ", and no subclass refills the list"
    dest = inits.located(killer.owner)
    if dest.self_name != src.self_name:
        return why + f", and {short_name(killer.owner)}.__init__ names self differently"
    after = next((v for v in dest.units if v.start <= killer.stmt.line <= v.end), None)
    if after is None:
        return why + f", and the refill in {short_name(killer.owner)} cannot be located"
    ys = set(u.self_assigns)
    later = False
    for v in walk_units(src.units):
        if v is u:
            later = True
        elif later and (ys & set(v.self_reads) or ys & (set(v.self_assigns) | v.self_fills)):
            return why + f", which line {v.start} uses before the subclass refills the list"
    events = [c for c in an.chain.stmts if c.active is not False]
    last_own = max((i for i, c in enumerate(events) if c.owner == owner), default=-1)
    for c in events[last_own + 1 :]:
        if c.owner == killer.owner and c.stmt.line > after.end:
            break
        if c.owner == owner:
            continue
        if ys & reads_closure(mro, c.stmt.reads) or c.stmt.attr in ys:
            return why + f", which {short_name(c.owner)}.__init__ line {c.stmt.line} uses before the list is refilled"
    assert isinstance(u.node, (cst.SimpleStatementLine, cst.BaseCompoundStatement))  # a unit's statement
    line = u.node.with_changes(
        leading_lines=[
            cst.EmptyLine(comment=cst.Comment(f"# deadinit: moved here from {short_name(owner)}.__init__,")),
            cst.EmptyLine(comment=cst.Comment("# which skips it when <flag>=True")),
        ]
    )
    return Move(killer.owner, after.node, line)
