"""Slice an ancestor's ``__init__`` body down to what a re-based subclass still needs.

The units of the body (``deadinit.fixes.init_units``) become ``SliceUnit``s: one per
simple statement or compound statement, each with the role it plays.  ``if``
statements whose test the engine can decide for the subclass (literal arguments,
defaults, ``self.__class__ is Parent``) are folded while the slice is built.  A unit is
kept (``deadinit.fixes.direct_base.keep``) when:

* it assigns / fills a ``self`` attribute and the engine found that binding effective
  for the subclass (``ClassAnalysis.effective``), or kept code reads the attribute;
* it binds a local (or nested def) that kept code reads;
* it calls a method on ``self`` (its effect on ``self`` cannot be judged);
* it is the call of the next ``__init__`` (the new base's, or a dropped class's that
  is inlined in turn);
* it is a check (``assert``, ``if ...: raise``, a log call) whose inputs are all
  available anyway.

A call of a method of ``self.X`` goes with ``X`` (kept when ``X`` is).  Other
statements with effects on objects other than ``self`` are dropped and listed, or
block the rewrite when code that stays reads what they change.  Local bindings are
assumed free of side effects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import libcst as cst

from deadinit.fixes.init_units import InitUnit, StatementFacts, UnitKind
from deadinit.model.kinds import StrEnum
from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted

_LOG_ROOTS = {"logger", "logging", "log", "warnings", "print"}


class SliceKind(StrEnum):
    """``SliceUnit.kind``: what the statement is."""

    SMALL = "small"
    IF = "if"
    LOOP = "loop"
    WITH = "with"
    TRY = "try"
    DEF = "def"
    OPAQUE = "opaque"


class SliceRole(StrEnum):
    """``SliceUnit.role`` of a small statement: what it does in the ``__init__``."""

    NONE = ""
    ATTR = "attr"
    LOCAL = "local"
    SELF_CALL = "self_call"
    EFFECT = "effect"
    CHECK = "check"
    SUPER = "super"
    RETURN = "return"
    GLOBAL = "global"
    NOOP = "noop"


_KINDS = {
    UnitKind.IF: SliceKind.IF,
    UnitKind.LOOP: SliceKind.LOOP,
    UnitKind.WITH: SliceKind.WITH,
    UnitKind.TRY: SliceKind.TRY,
    UnitKind.DEF: SliceKind.DEF,
}


@dataclass
class SliceUnit:
    node: cst.CSTNode  # small statement, or compound statement
    kind: SliceKind
    role: SliceRole = SliceRole.NONE  # of a small statement
    line: int = 0
    col: int = 0
    end_line: int = 0
    defs: set[str] = field(default_factory=set)
    uses: set[str] = field(default_factory=set)  # names loaded (params / locals matter)
    self_reads: set[str] = field(default_factory=set)
    self_writes: set[str] = field(default_factory=set)
    eff: bool = False  # matches an effective chain event
    blocks: list[list[SliceUnit]] = field(default_factory=list)  # of a compound statement
    line_node: cst.CSTNode | None = None  # the line of a small statement
    keep: bool = False
    receiver: str = ""  # effect: dotted object it acts on
    inline: cst.Call | None = None  # super: the call node, when the next __init__ is inlined too


@dataclass
class SliceInput:
    self_name: str
    eff: set[tuple[int, int]]  # (line, col) of effective assign/fill events of this owner
    fold: Callable[[sx.Expr], bool | None]  # syntax test -> its value for the subclass, None: unknown
    methods: set[str]  # method names on the class after the rewrite
    method_reads: Callable[[str], set[str]]  # method name -> self attrs its closure reads
    inline_target: Callable[[str], bool]  # super_init target -> is the next __init__ dropped too?


def build(units: list[InitUnit], si: SliceInput) -> list[SliceUnit]:
    out: list[SliceUnit] = []
    for u in units:
        _unit(u, si, out)
    return out


def _unit(u: InitUnit, si: SliceInput, out: list[SliceUnit]) -> None:
    if u.kind == UnitKind.LINE:
        out.extend(_small(f, u.node, si) for f in u.statements)
        return
    head = u.statements[0]
    if u.kind == UnitKind.IF:
        assert isinstance(head.stmt, sx.If)  # an IF unit's header
        decided = si.fold(head.stmt.test)
        if decided is not None:
            if decided:
                out.extend(build(u.blocks[0], si))
            elif len(u.blocks) > 1:
                out.extend(build(u.blocks[1], si))
            return
    kind = _KINDS.get(u.kind, SliceKind.OPAQUE)
    s = SliceUnit(u.node, kind, line=head.line, col=head.col, end_line=head.end_line)
    s.uses, s.self_reads, s.defs = set(head.names_read), set(head.self_reads), set(head.names_bound)
    if kind == SliceKind.OPAQUE:
        s.self_writes = _self_writes(head)
    if u.kind == UnitKind.TRY:  # body, handlers, then the else and finally blocks, empty when absent
        node = u.node
        assert isinstance(node, (cst.Try, cst.TryStar))  # a TRY unit's statement
        first = 1 + len(node.handlers)
        rest = iter(u.blocks[first:])
        s.blocks = [build(b, si) for b in u.blocks[:first]]
        s.blocks += [build(next(rest), si) if part is not None else [] for part in (node.orelse, node.finalbody)]
    else:
        s.blocks = [build(b, si) for b in u.blocks]
    out.append(s)


def _self_writes(f: StatementFacts) -> set[str]:
    """What a statement may change on ``self``: attributes it assigns or fills, and the ones
    whose methods it calls."""
    return set(f.self_assigns) | f.self_fills | f.methods_called_on


def _small(f: StatementFacts, line_node: cst.CSTNode, si: SliceInput) -> SliceUnit:
    st = f.stmt
    u = SliceUnit(
        f.node,
        SliceKind.SMALL,
        line=f.line,
        col=f.col,
        end_line=f.end_line,
        defs=set(f.names_bound),
        uses=set(f.names_read),
        self_reads=set(f.self_reads),
        self_writes=set(f.self_assigns) | f.self_fills,
        line_node=line_node,
    )
    u.eff = (f.line, f.col) in si.eff
    if isinstance(st, sx.ExprStmt) and isinstance(st.value, sx.Call):
        call = st.value
        fn = dotted(call.func) or ""
        if f.init_call is not None:
            u.role = SliceRole.SUPER
            u.receiver = f.init_call.target
            if si.inline_target(f.init_call.target):
                assert isinstance(f.node, cst.Expr) and isinstance(f.node.value, cst.Call)  # an __init__ call
                u.inline = f.node.value
        elif f.calls_self_method:
            u.role = SliceRole.SELF_CALL
        elif fn.split(".")[0] in _LOG_ROOTS:
            u.role = SliceRole.CHECK
        elif f.self_fills or f.methods_called_on:
            u.role, u.self_writes = SliceRole.ATTR, _self_writes(f)
        else:
            u.role = SliceRole.EFFECT
            receiver = dotted(call.func.value) if isinstance(call.func, sx.Attribute) else None
            u.receiver = receiver or fn
    elif isinstance(st, (sx.Assign, sx.AnnAssign, sx.AugAssign)):
        if isinstance(st, sx.AnnAssign) and st.value is None:
            u.role = SliceRole.NOOP
        elif u.self_writes:
            u.role = SliceRole.ATTR
        else:
            others = _other_targets(st, si.self_name)
            u.role = SliceRole.EFFECT if others else SliceRole.LOCAL
            u.receiver = others[0] if others else ""
    elif isinstance(st, (sx.Assert, sx.Raise)):
        u.role = SliceRole.CHECK
    elif isinstance(st, sx.Return):
        u.role = SliceRole.RETURN
    elif isinstance(st, sx.Names) and st.scope == sx.NameScope.GLOBAL:
        u.role = SliceRole.GLOBAL
        u.defs = set(f.globals_declared)
    elif isinstance(st, sx.Import):  # not moved (nor renamed): kept code that needs the name fails ``verify``
        u.role, u.defs = SliceRole.NOOP, set()
    elif isinstance(st, sx.Delete):
        u.role = SliceRole.LOCAL
    else:
        u.role = SliceRole.NOOP
    return u


def _other_targets(st: sx.Assign | sx.AnnAssign | sx.AugAssign, self_name: str) -> list[str]:
    """Dotted targets of an assignment that are attributes of objects other than ``self``."""
    out = []
    for t in st.targets if isinstance(st, sx.Assign) else (st.target,):
        base = t.value if isinstance(t, sx.Subscript) else t
        if isinstance(base, sx.Attribute):
            d = dotted(base) or "<expr>"
            if not d.startswith(self_name + "."):
                out.append(d)
    return out


def walk(units: list[SliceUnit]) -> Iterator[SliceUnit]:
    for u in units:
        yield u
        for b in u.blocks:
            yield from walk(b)


def is_check_block(u: SliceUnit) -> bool:
    """``if cond: raise ...`` (and log lines): a validation, not a builder."""
    return (
        u.kind == SliceKind.IF
        and all(x.kind == SliceKind.SMALL and x.role == SliceRole.CHECK for b in u.blocks for x in walk(b))
        and any(isinstance(x.node, cst.Raise) for b in u.blocks for x in walk(b))
    )
