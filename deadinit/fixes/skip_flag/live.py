"""Which units of an ``__init__`` body only build a given set of dead attributes.

A unit is *dead* for a set ``D`` of attributes when everything it writes is an
attribute in ``D`` (assigned, filled, mutated) or a local variable that nothing
kept reads, and it does nothing else (no other call, no ``obj.x = ...``).  A
compound statement is dead when all of its blocks are; the conditions and loop
headers of dead compounds are assumed free of side effects.  Locals are solved to
a fixpoint: a local is dead when only dead units read it.

Everything that stays (live units, headers of the compounds that are only partly
dead) is summarised in ``live_reads`` / ``live_writes`` so the planner can see
when kept work still needs a dead attribute.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from deadinit.fixes.init_units import InitUnit, UnitKind, walk_units

WHOLE = (UnitKind.LINE, UnitKind.DEF)  # units guarded as one statement
SPLITTABLE = (UnitKind.IF, UnitKind.LOOP, UnitKind.TRY)  # guarded whole, or inside their blocks
# ``with`` (a context manager has effects) and statements without rules are never guarded
# as a whole; only the body of a ``with`` can be guarded


@dataclass
class Liveness:
    dead: set[int] = field(default_factory=set)  # id(node) of units guarded as a whole
    mixed: set[int] = field(default_factory=set)  # id(node) of compounds to guard inside
    dead_units: list[InitUnit] = field(default_factory=list)  # the units in ``dead``
    dead_locals: set[str] = field(default_factory=set)
    # self attr -> (first line kept code reads it, what it writes)
    live_reads: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    live_writes: dict[str, int] = field(default_factory=dict)  # attr in D -> line of kept code that writes it
    live_units: list[InitUnit] = field(default_factory=list)  # every unit that stays (its header, for compounds)

    def covers(self, line: int, end_line: int) -> bool:
        return any(u.start <= line and end_line <= u.end for u in self.dead_units)

    def overlaps(self, line: int, end_line: int) -> bool:
        return any(u.start <= end_line and line <= u.end for u in self.dead_units)

    def assigned(self) -> list[str]:
        out: list[str] = []
        for u in self.dead_units:
            for v in walk_units([u]):
                out.extend(a for a in v.self_assigns if a not in out)
        return out


def solve(
    units: list[InitUnit],
    dead_attrs: Iterable[str],
    keep_names: Iterable[str] = (),
    forbidden_globals: set[str] | None = None,
    done: set[int] | None = None,
    forced: set[int] | None = None,
) -> Liveness:
    """Dead units of ``units`` for attributes ``dead_attrs``.

    ``keep_names``: locals that must stay defined (read by code the rewrite adds).
    ``forbidden_globals``: module globals that other code reads: never treated as dead.
    ``done``: id(node) of units the flag already guards: neither dead nor live, left alone.
    ``forced``: id(node) of top-level units to guard although they write live attributes
    (statements the planner moves into the subclass).
    """
    dead_attrs = set(dead_attrs)
    all_names: set[str] = set()
    for u in walk_units(units):
        all_names |= u.names_bound | u.globals_declared
    cand = all_names - set(keep_names) - (forbidden_globals or set())
    while True:
        live = _Pass(dead_attrs, cand, done or set(), forced or set())
        live.block(units)
        narrowed = cand - live.names
        if narrowed == cand:
            break
        cand = narrowed
    out = Liveness(live.dead, live.mixed, live.dead_units, cand, live.reads, live.writes, live.units)
    return out


class _Pass:
    def __init__(self, dead_attrs: set[str], cand: set[str], done: set[int], forced: set[int]) -> None:
        self.done = done
        self.forced = forced
        self.units: list[InitUnit] = []
        self.D = dead_attrs
        self.L = cand
        self.dead: set[int] = set()
        self.mixed: set[int] = set()
        self.dead_units: list[InitUnit] = []
        self.names: set[str] = set()
        self.reads: dict[str, tuple[int, tuple[str, ...]]] = {}
        self.writes: dict[str, int] = {}
        self._memo: dict[int, bool] = {}

    def inner_dead(self, u: InitUnit) -> bool:
        """Dead when it is part of a dead compound (``pass`` and ``global`` allowed)."""
        key = id(u.node)
        if key in self._memo:
            return self._memo[key]
        ok = (
            u.kind in WHOLE + SPLITTABLE
            and not u.untracked_writes
            and set(u.self_assigns) <= self.D
            and u.self_fills <= self.D
            and u.names_bound <= self.L
            and u.globals_declared <= self.L
        )
        if ok and u.kind in SPLITTABLE:
            ok = all(self.inner_dead(v) for b in u.blocks for v in b)
        self._memo[key] = ok
        return ok

    def dead_whole(self, u: InitUnit) -> bool:
        if id(u.node) in self.forced:
            return True
        if not u.can_wrap or not self.inner_dead(u):
            return False
        return any(
            v.weight > 0 and (v.self_assigns or v.self_fills or v.names_bound)
            for v in walk_units([u])
            if v.kind in WHOLE
        )

    def block(self, units: list[InitUnit]) -> bool:
        """Visit a block; True when some unit in it is guarded."""
        any_dead = False
        for u in units:
            if id(u.node) in self.done:
                continue
            if self.dead_whole(u):
                self.dead.add(id(u.node))
                self.dead_units.append(u)
                any_dead = True
                continue
            self._live(u)
            if u.blocks:
                inner = False
                for b in u.blocks:
                    inner = self.block(b) or inner
                if inner:
                    self.mixed.add(id(u.node))
                    any_dead = True
        return any_dead

    def _live(self, u: InitUnit) -> None:
        self.units.append(u)
        self.names |= u.names_read
        for a, ln in u.self_reads.items():
            self.reads.setdefault(a, (ln, tuple(u.self_assigns) + tuple(sorted(u.self_fills))))
        for a in list(u.self_assigns) + sorted(u.self_fills):
            if a in self.D:
                self.writes.setdefault(a, u.start)
