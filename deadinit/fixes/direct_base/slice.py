"""Slice an ancestor's ``__init__`` body down to what a re-based subclass still needs.

The body becomes a tree of *units* (one per small statement or compound
statement).  ``if`` statements whose test the engine can decide for the
subclass (literal arguments, defaults, ``self.__class__ is Parent``) are folded
while the tree is built.  A unit is kept when:

* it assigns / fills a ``self`` attribute and the engine found that binding
  effective for the subclass (``ClassAnalysis.effective``), or kept code reads
  the attribute;
* it binds a local (or nested def) that kept code reads;
* it calls a method on ``self`` (its effect on ``self`` cannot be judged);
* it is the call of the next ``__init__`` (the new base's, or a dropped class's
  that is inlined in turn);
* it is a check (``assert``, ``if ...: raise``, a log call) whose inputs are all
  available anyway.

Other statements with effects on objects other than ``self`` are dropped and
listed, or block the rewrite when code that stays reads what they change.
Local bindings are assumed free of side effects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

from deadinit.fixes.direct_base.names import names_of
from deadinit.fixes.cst_semantics import dotted

_LOG_ROOTS = {"logger", "logging", "log", "warnings", "print"}


@dataclass
class Unit:
    node: cst.CSTNode  # small statement, or compound statement
    kind: str  # small | if | loop | with | try | def | opaque
    role: str = ""  # small: attr | local | self_call | effect | check | super | return | global | noop
    line: int = 0
    col: int = 0
    end_line: int = 0
    defs: set = field(default_factory=set)
    uses: set = field(default_factory=set)  # names loaded (params / locals matter)
    self_reads: set = field(default_factory=set)
    self_writes: set = field(default_factory=set)
    eff: bool = False  # matches an effective chain event
    has_event: bool = False
    blocks: list = field(default_factory=list)  # list[list[Unit]] for compounds
    line_node: cst.SimpleStatementLine | None = None
    keep: bool = False
    receiver: str = ""  # effect: dotted object it acts on
    inline: object = None  # super: the call node, when the next __init__ is inlined too


def _is_super_init(call: cst.BaseExpression, self_name: str) -> str | None:
    """ "super" / dotted parent for ``super().__init__(...)`` / ``P.__init__(self, ...)``."""
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "__init__"):
        return None
    v = call.func.value
    if isinstance(v, cst.Call) and dotted(v.func) == "super":
        return "super"
    d = dotted(v)
    if d and call.args and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == self_name:
        return d
    return None


@dataclass
class SliceInput:
    self_name: str
    pos: Callable  # node -> (line, col)
    eff: set  # (line, col) of effective assign/fill events of this owner
    events: set  # (line, col) of every chain event of this owner
    fold: Callable  # test node -> Optional[bool]
    methods: set  # method names on the class after the rewrite
    method_reads: Callable  # method name -> self attrs its closure reads
    inline_target: Callable  # super_init target -> bool (is the next __init__ dropped too?)
    end: Callable = lambda node: 0  # node -> last line


def build(body: list, si: SliceInput) -> list[Unit]:
    out: list[Unit] = []
    for st in body:
        _stmt(st, si, out)
    for u in out:
        if not u.end_line:
            u.end_line = si.end(u.node)
    return out


def _block(suite, si: SliceInput) -> list[Unit]:
    return build(list(suite.body) if isinstance(suite, cst.IndentedBlock) else list(suite.body), si)


def _stmt(st, si: SliceInput, out: list[Unit]) -> None:
    if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        for small in st.body:
            out.append(_small(small, st, si))
            out[-1].end_line = si.end(small)
        return
    line, col = si.pos(st)
    if isinstance(st, cst.If):
        v = si.fold(st.test)
        if v is True:
            out.extend(_block(st.body, si))
            return
        if v is False:
            if isinstance(st.orelse, cst.If):
                _stmt(st.orelse, si, out)
            elif st.orelse is not None:
                out.extend(_block(st.orelse.body, si))
            return
        n = names_of(st.test, si.self_name)
        u = Unit(st, "if", line=line, col=col, uses=n.loads, self_reads=n.self_reads)
        u.blocks = [_block(st.body, si)]
        if isinstance(st.orelse, cst.If):
            sub: list[Unit] = []
            _stmt(st.orelse, si, sub)
            u.blocks.append(sub)
        elif st.orelse is not None:
            u.blocks.append(_block(st.orelse.body, si))
        out.append(u)
        return
    if isinstance(st, (cst.For, cst.While)):
        head = st.iter if isinstance(st, cst.For) else st.test
        n = names_of(head, si.self_name)
        u = Unit(st, "loop", line=line, col=col, uses=n.loads, self_reads=n.self_reads)
        if isinstance(st, cst.For):
            u.defs = names_of(st.target, si.self_name).loads
        u.blocks = [_block(st.body, si)] + ([_block(st.orelse.body, si)] if st.orelse is not None else [])
        out.append(u)
        return
    if isinstance(st, cst.With):
        u = Unit(st, "with", line=line, col=col)
        for item in st.items:
            n = names_of(item.item, si.self_name)
            u.uses |= n.loads
            u.self_reads |= n.self_reads
            if item.asname is not None:
                u.defs |= names_of(item.asname.name, si.self_name).loads
        u.blocks = [_block(st.body, si)]
        out.append(u)
        return
    if isinstance(st, cst.Try):
        u = Unit(st, "try", line=line, col=col)
        u.blocks = [_block(st.body, si)] + [_block(h.body, si) for h in st.handlers]
        u.blocks += [_block(st.orelse.body, si)] if st.orelse is not None else [[]]
        u.blocks += [_block(st.finalbody.body, si)] if st.finalbody is not None else [[]]
        out.append(u)
        return
    if isinstance(st, (cst.FunctionDef, cst.ClassDef)):
        n = names_of(st, si.self_name)
        out.append(
            Unit(st, "def", line=line, col=col, defs={st.name.value}, uses=n.loads - n.stores, self_reads=n.self_reads)
        )
        return
    n = names_of(st, si.self_name)
    out.append(
        Unit(
            st,
            "opaque",
            line=line,
            col=col,
            defs=n.stores,
            uses=n.loads,
            self_reads=n.self_reads,
            self_writes=n.self_stores,
        )
    )


def _small(small, line_node, si: SliceInput) -> Unit:
    line, col = si.pos(small)
    n = names_of(small, si.self_name)
    u = Unit(
        small,
        "small",
        line=line,
        col=col,
        defs=n.stores,
        uses=n.loads,
        self_reads=n.self_reads,
        self_writes=n.self_stores,
        line_node=line_node,
    )
    u.has_event = (line, col) in si.events
    u.eff = (line, col) in si.eff
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        call = small.value
        target = _is_super_init(call, si.self_name)
        fn = dotted(call.func) or ""
        if target is not None:
            u.role = "super"
            u.receiver = target
            if si.inline_target(target):
                u.inline = call
        elif u.has_event and u.self_writes:
            u.role = "attr"
        elif (
            isinstance(call.func, cst.Attribute)
            and isinstance(call.func.value, cst.Name)
            and call.func.value.value == si.self_name
        ):
            u.role = "self_call"
        elif fn.split(".")[0] in _LOG_ROOTS:
            u.role = "check"
        else:
            fill = _self_fill(call, si.self_name)
            if fill:
                u.role, u.self_writes = "attr", {fill}
            else:
                u.role = "effect"
                u.receiver = (
                    dotted(call.func.value) if isinstance(call.func, cst.Attribute) and dotted(call.func.value) else fn
                )
    elif isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
        if isinstance(small, cst.AnnAssign) and small.value is None:
            u.role = "noop"
        elif u.self_writes:
            u.role = "attr"
        else:
            others = _other_targets(small, si.self_name)
            u.role = "effect" if others else "local"
            u.receiver = others[0] if others else ""
    elif isinstance(small, cst.Assert):
        u.role = "check"
    elif isinstance(small, cst.Return):
        u.role = "return"
    elif isinstance(small, cst.Raise):
        u.role = "check"
    elif isinstance(small, cst.Global):
        u.role = "global"
        u.defs = {x.name.value for x in small.names}
    elif isinstance(small, (cst.Import, cst.ImportFrom)):
        u.role = "local"
    elif isinstance(small, cst.Del):
        u.role = "attr" if u.self_writes else "local"
    else:
        u.role = "noop"
    return u


def _self_fill(call: cst.Call, self_name: str) -> str | None:
    f = call.func
    if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Attribute):
        inner = f.value
        if isinstance(inner.value, cst.Name) and inner.value.value == self_name:
            return inner.attr.value
    return None


def _other_targets(small, self_name: str) -> list[str]:
    """Dotted targets of an assignment that are attributes of objects other than ``self``."""
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
    out = []
    for t in targets:
        base = t.value if isinstance(t, cst.Subscript) else t
        if isinstance(base, cst.Attribute):
            d = dotted(base) or "<expr>"
            if not d.startswith(self_name + "."):
                out.append(d)
    return out


def walk(units: list[Unit]):
    for u in units:
        yield u
        for b in u.blocks:
            yield from walk(b)


def is_check_block(u: Unit) -> bool:
    """``if cond: raise ...`` (and log lines): a validation, not a builder."""
    return (
        u.kind == "if"
        and all(x.kind == "small" and x.role in ("check",) for b in u.blocks for x in walk(b))
        and any(isinstance(x.node, cst.Raise) for b in u.blocks for x in walk(b))
    )
