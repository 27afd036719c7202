"""Which units of a sliced ``__init__`` the direct-base inliner keeps (a fixpoint over names and attributes).

See ``deadinit.fixes.direct_base.slice`` for the rules.  Problems block the rewrite
(``ClassPlan.block``); side effects that are dropped are listed in the result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

from deadinit.fixes.direct_base.class_plan import ClassPlan
from deadinit.fixes.direct_base.live import StayReads
from deadinit.fixes.direct_base.slice import SliceInput, SliceKind, SliceRole, SliceUnit, is_check_block, walk
from deadinit.fixes.direct_base.source import ModuleSource
from deadinit.model.qualnames import short_name


@dataclass
class InlineResult:
    statements: list[cst.BaseStatement] = field(default_factory=list)
    globals_used: list[tuple[ModuleSource, str]] = field(default_factory=list)  # (module, name) pairs
    attrs: set[str] = field(default_factory=set)  # self attributes the kept code assigns
    dropped_effects: list[str] = field(default_factory=list)
    dropped_attrs: set[str] = field(default_factory=set)
    self_reads: set[str] = field(default_factory=set)  # self attributes / methods the kept code reads


class KeepDecider:
    """``stay``: what code that survives the rewrite reads; ``retained``: dotted names it
    mentions; ``extra_attrs``: attributes set before the inlined code runs."""

    def __init__(
        self, plan: ClassPlan, stay: StayReads | None, out: InlineResult, retained: set[str], extra_attrs: set[str]
    ) -> None:
        self.p = plan
        self.stay = stay
        self.out = out
        self.retained = retained
        self.extra_attrs = extra_attrs
        self.owner = ""

    def decide(self, units: list[SliceUnit], si: SliceInput, params: set[str], owner: str, path: str) -> None:
        """Mark the units kept, then judge the checks, dropped side effects, early returns and
        rebound globals (``params``: the ``__init__``'s parameter names)."""
        self.owner = owner
        self._grow(units, si, owner, path)
        ok = self._check_ok(units, si, params)
        for u in walk(units):
            if (u.kind == SliceKind.SMALL and u.role == SliceRole.CHECK) or is_check_block(u):
                u.keep = ok(u)
                if u.keep:
                    for x in walk([u]):
                        x.keep = True
            elif u.kind == SliceKind.SMALL and u.role == SliceRole.EFFECT:
                self._effect(u, si, owner)
            elif u.kind == SliceKind.SMALL and u.role == SliceRole.RETURN and u is not units[-1]:
                self.p.block(
                    f"{short_name(owner)}.__init__ returns early (line {u.line}): "
                    "inlining would skip the subclass's own code"
                )
        self._block_rebound_globals(units, owner)

    def _grow(self, units: list[SliceUnit], si: SliceInput, owner: str, path: str) -> None:
        """Keep what is effective and what kept code needs (names, attributes), to a fixpoint."""
        needed_names: set[str] = set()
        needed_attrs: set[str] = set()
        base_ranges = list(self.stay.kept_ranges) if self.stay is not None else []
        while True:
            self._mark(units, needed_names, needed_attrs)
            if self.stay is not None:
                self.stay.kept_ranges = base_ranges + [
                    (path, u.line, u.end_line)
                    for u in walk(units)
                    if u.keep and u.kind in (SliceKind.SMALL, SliceKind.DEF, SliceKind.OPAQUE)
                ]
                self.stay.kept_pos |= {(owner, u.line, u.col) for u in walk(units) if u.keep}
            names, attrs = _kept_needs(units, si)
            if names <= needed_names and attrs <= needed_attrs and self._stable(units, needed_names, needed_attrs):
                break
            needed_names |= names
            needed_attrs |= attrs

    def _check_ok(self, units: list[SliceUnit], si: SliceInput, params: set[str]) -> Callable[[SliceUnit], bool]:
        """Whether a check can stay: every local it uses is defined by kept code (or a parameter)
        and every attribute it reads is written first (or is a method)."""
        defined = set(params) | {"self"}
        written = set(self.extra_attrs)
        for u in walk(units):
            if u.keep:
                defined |= u.defs
                written |= u.self_writes
        local_names = set(params)
        for u in walk(units):
            local_names |= u.defs

        def ok(u: SliceUnit) -> bool:
            return (
                (u.uses & local_names) <= defined
                and u.self_reads <= (written | si.methods)
                and all(ok(x) for b in u.blocks for x in b)
            )

        return ok

    def _effect(self, u: SliceUnit, si: SliceInput, owner: str) -> None:
        """A side effect the rewrite drops: listed, or a blocker when it matters to code that stays."""
        what = cst.Module([]).code_for_node(u.node).strip().splitlines()[0][:100]
        where = f"{short_name(owner)}.__init__ line {u.line}"
        if si.self_name in u.uses:
            self.p.block(f"{where} passes self to another object: `{what}`")
        elif self._needed(u.receiver):
            self.p.block(f"{where} changes `{u.receiver}`, which code that stays reads: `{what}`")
        else:
            self.out.dropped_effects.append(f"{where}: `{what}`")

    def _block_rebound_globals(self, units: list[SliceUnit], owner: str) -> None:
        declared: set[str] = set()
        for u in walk(units):
            if u.role == SliceRole.GLOBAL:
                declared |= u.defs
        for u in walk(units):
            if u.keep and u.defs & declared:
                rebound = ", ".join(sorted(u.defs & declared))
                self.p.block(f"{short_name(owner)}.__init__ rebinds module global(s) {rebound} of its own module")

    def _stable(self, units: list[SliceUnit], names: set[str], attrs: set[str]) -> bool:
        before = [u.keep for u in walk(units)]
        self._mark(units, names, attrs)
        return before == [u.keep for u in walk(units)]

    def _effective(self, u: SliceUnit, attrs: set[str]) -> bool:
        if not u.eff:
            return False
        if self.stay is None:
            return True
        if all(self.stay.overwritten(self.owner, u.line, u.col, a) for a in u.self_writes):
            return False
        return self.stay.stays(u.self_writes, attrs)

    def _mark(self, units: list[SliceUnit], names: set[str], attrs: set[str]) -> bool:
        any_kept = False
        for u in units:
            if u.kind == SliceKind.SMALL:
                if u.role == SliceRole.ATTR:
                    u.keep = self._effective(u, attrs) or bool(u.self_writes & attrs) or bool(u.defs & names)
                elif u.role == SliceRole.LOCAL:
                    u.keep = bool(u.defs & names)
                elif u.role in (SliceRole.SELF_CALL, SliceRole.SUPER):
                    u.keep = True
                else:
                    u.keep = False
            elif u.kind == SliceKind.DEF:
                u.keep = bool(u.defs & names)
            elif u.kind == SliceKind.OPAQUE:
                u.keep = self._effective(u, attrs) or bool(u.self_writes & attrs) or bool(u.defs & names)
            else:
                kids = [self._mark(b, names, attrs) for b in u.blocks]
                u.keep = any(kids) and not is_check_block(u)
            any_kept |= u.keep
        return any_kept

    def _needed(self, receiver: str) -> bool:
        if not receiver or receiver.startswith("<"):
            return True
        return any(
            r == receiver or r.startswith(receiver + ".") or (receiver.startswith(r + ".") and r.count(".") >= 1)
            for r in self.retained
        )


def _kept_needs(units: list[SliceUnit], si: SliceInput) -> tuple[set[str], set[str]]:
    """(names, self attributes) the kept units use, through the methods they call too."""
    names: set[str] = set()
    attrs: set[str] = set()
    for u in walk(units):
        if not u.keep:
            continue
        names |= u.uses
        attrs |= u.self_reads
        for m in u.self_reads & si.methods:
            attrs |= si.method_reads(m)
    return names, attrs
