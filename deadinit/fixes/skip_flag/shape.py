"""The guards a person would write: which of the dead statements an ``__init__`` actually guards.

``skip_flag.live`` finds every statement that only builds what the subclass never uses.  Guarding
all of them is correct but not what a maintainer writes; this step shapes that set:

* a ``try`` whose body is all skipped is skipped whole (with its handlers, which can then never
  run), and a compound statement whose blocks all end up skipped is skipped whole;
* a statement that allocates nothing (the analysis decides: ``analysis.facts.allocation_of``) is
  not guarded at the edge of a run of guarded statements: ``self.pool = None``, ``self.x = buf``
  stay as they are.  A local binding stays in the run when a statement of the run reads it (the
  locals that only feed the skipped allocations go under the same guard); a run left with no
  allocation is not guarded at all.  A statement that reads a skipped attribute, or a local that a
  guarded statement binds, stays guarded wherever it is: unguarded it would read what was skipped;
* a local that only feeds a later guarded run of the same block moves to the start of that run
  (``pulls``), when nothing in between reads or rebinds what it reads or binds, nor does work
  that could change its value;
* ``settled``: the attributes some statement that stays assigns on every run of the subclass's
  ``__init__`` chain (``self.pool = None`` before the guard, the subclass's own replacement after
  it): the ``else`` branch needs no ``= None`` for those.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from deadinit.analysis.analyzer import Analyzer, ClassAnalysis
from deadinit.analysis.facts import allocation_of
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.fixes.init_units import InitUnit, UnitKind, walk_units
from deadinit.fixes.skip_flag.live import Liveness
from deadinit.model.kinds import InitStmtKind

Pulls = dict[int, list[InitUnit]]  # id(first statement of a guarded run) -> the units of locals moved under it


def allocating_units(
    analyzer: Analyzer, an: ClassAnalysis, owner: str, units: list[InitUnit], mro: list[str]
) -> set[int]:
    """id(node) of each unit of ``owner``'s ``__init__`` holding a statement that allocates."""
    lines = sorted(
        c.stmt.line
        for c in an.chain.stmts
        if c.owner == owner
        and c.stmt.kind in (InitStmtKind.ASSIGN, InitStmtKind.FILL)
        and allocation_of(analyzer, c, mro) is not None
    )
    return {id(u.node) for u in walk_units(units) if any(u.start <= ln <= u.end for ln in lines)}


def shape(live: Liveness, units: list[InitUnit], attrs: set[str], allocating: set[int], lists: set[str]) -> Pulls:
    """Shape ``live`` in place: skipped ``try`` statements whole and no guard over statements that
    allocate nothing.  ``lists``: attributes the ``else`` rebuilds as lists of ``None``; the
    statements that assign them stay with the guard.  Returns the locals to move under a later
    guard: id(first statement of the guarded run) -> the units of the locals, in order."""
    allocating = allocating | {id(u.node) for u in walk_units(units) if set(u.self_assigns) & lists}
    _promote(live, units, attrs)
    feeding = {id(u.node) for u in live.dead_units}
    while _trim_pass(live, units, attrs, allocating):
        pass
    guarded = {id(u.node) for u in live.dead_units}
    live.mixed = {id(u.node) for u in walk_units(units) if u.blocks and _holds(u, guarded)}
    pulls: Pulls = {}
    _pulls(live, units, units, feeding, pulls)
    return pulls


def settled(an: ClassAnalysis, attrs: set[str], skipped: Callable[[ChainStmt], bool]) -> set[str]:
    """The attributes of ``attrs`` a statement that stays (``skipped(chain stmt)`` is False) assigns
    unconditionally in the chain of ``an``'s class."""
    out: set[str] = set()
    for c in an.chain.stmts:
        st = c.stmt
        if (
            st.attr is not None
            and st.attr in attrs
            and st.kind in (InitStmtKind.ASSIGN, InitStmtKind.KILL)
            and c.definite
            and not st.guards
            and not skipped(c)
        ):
            out.add(st.attr)
    return out


def _holds(u: InitUnit, guarded: set[int]) -> bool:
    return any(id(v.node) in guarded for b in u.blocks for v in walk_units(b))


# -- whole compound statements --------------------------------------------------------------------
def _promote(live: Liveness, block: list[InitUnit], attrs: set[str]) -> None:
    for u in block:
        if id(u.node) not in live.mixed:
            continue
        for b in u.blocks:
            _promote(live, b, attrs)
        if _skippable_whole(live, u, attrs):
            inner = {id(v.node) for v in walk_units([u])}
            live.dead -= inner
            live.mixed -= inner
            live.dead.add(id(u.node))
            live.dead_units = [v for v in live.dead_units if id(v.node) not in inner] + [u]
            live.live_units = [v for v in live.live_units if id(v.node) not in inner]
            live.live_writes = _writes(live.live_units, attrs)


def _skippable_whole(live: Liveness, u: InitUnit, attrs: set[str]) -> bool:
    header_dead = (
        u.can_wrap
        and not u.untracked_writes
        and set(u.self_assigns) <= attrs
        and u.self_fills <= attrs
        and u.names_bound <= live.dead_locals
    )
    if not header_dead:
        return False
    if u.kind == UnitKind.TRY:
        node = u.node
        return (
            getattr(node, "orelse", None) is None
            and getattr(node, "finalbody", None) is None
            and _all_dead(live, u.blocks[0])
        )
    return u.kind in (UnitKind.IF, UnitKind.LOOP) and all(_all_dead(live, b) for b in u.blocks)


def _all_dead(live: Liveness, block: list[InitUnit]) -> bool:
    dead = [id(v.node) in live.dead for v in block]
    idle = [v.kind == UnitKind.LINE and v.weight == 0 and not v.untracked_writes for v in block]
    return any(dead) and all(d or i for d, i in zip(dead, idle, strict=True))


def _writes(units: list[InitUnit], attrs: set[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in units:
        for a in list(v.self_assigns) + sorted(v.self_fills):
            if a in attrs:
                out.setdefault(a, v.start)
    return out


# -- statements that allocate nothing -------------------------------------------------------------
def _trim_pass(live: Liveness, units: list[InitUnit], attrs: set[str], allocating: set[int]) -> bool:
    """Take one statement that allocates nothing off a run's edge; True when one was taken."""
    for run in _runs(live, units):
        for v in _trimmable(live, run, attrs, allocating):
            live.dead.discard(id(v.node))
            live.dead_units = [w for w in live.dead_units if w is not v]
            live.live_units.append(v)
            return True
    return False


def _runs(live: Liveness, block: list[InitUnit]) -> Iterator[list[InitUnit]]:
    run: list[InitUnit] = []
    for u in block:
        if id(u.node) in live.dead:
            run.append(u)
            continue
        if run:
            yield run
        run = []
        for b in u.blocks:
            yield from _runs(live, b)
    if run:
        yield run


def _trimmable(live: Liveness, run: list[InitUnit], attrs: set[str], allocating: set[int]) -> Iterator[InitUnit]:
    """The edge statements of ``run`` that can leave the guard (a run without an allocation: any)."""
    if any(id(v.node) in allocating for v in run):
        candidates = [run[0], run[-1]] if len(run) > 1 else [run[0]]
    else:
        candidates = list(run)
    for v in candidates:
        if id(v.node) in allocating or not _free(live, v, attrs):
            continue
        rest = [w for w in run if w is not v]
        feeds = any(v.names_bound & x.names_read for w in rest for x in walk_units([w]))
        if feeds and v is run[0] and any(id(w.node) in allocating for w in rest):
            continue  # a local the run's allocations are built from: it stays under the guard
        yield v


def _free(live: Liveness, v: InitUnit, attrs: set[str]) -> bool:
    """Unguarded, ``v`` reads nothing the guard skips: no skipped attribute, no local a guarded
    statement binds."""
    if set(v.self_reads) & attrs or any(set(w.self_reads) & attrs for w in walk_units([v])):
        return False
    bound = {n for w in live.dead_units if w is not v for x in walk_units([w]) for n in x.names_bound}
    return not any(x.names_read & bound for x in walk_units([v]))


# -- locals that feed a later guard ---------------------------------------------------------------
def _pulls(live: Liveness, units: list[InitUnit], block: list[InitUnit], feeding: set[int], out: Pulls) -> None:
    for i, u in enumerate(block):
        if u.blocks and id(u.node) in live.mixed:
            for b in u.blocks:
                _pulls(live, units, b, feeding, out)
        if not _pure_local(u) or id(u.node) not in feeding or id(u.node) in live.dead:
            continue
        target = _feeds_run(live, units, block, i)
        if target is not None:
            out.setdefault(id(target.node), []).append(u)


def _pure_local(u: InitUnit) -> bool:
    return (
        u.kind == UnitKind.LINE and bool(u.names_bound) and not (u.self_assigns or u.self_fills or u.untracked_writes)
    )


def _feeds_run(live: Liveness, units: list[InitUnit], block: list[InitUnit], i: int) -> InitUnit | None:
    """The first unit of the guarded run after ``block[i]`` that alone reads what ``block[i]`` binds,
    when ``block[i]`` can move there; else None."""
    u = block[i]
    start = next((k for k in range(i + 1, len(block)) if id(block[k].node) in live.dead), None)
    if start is None:
        return None
    end = start
    while end < len(block) and id(block[end].node) in live.dead:
        end += 1
    run = {id(x.node) for w in block[start:end] for x in walk_units([w])}
    readers = [x for x in walk_units(units) if x is not u and x.names_read & u.names_bound]
    if not readers or any(id(x.node) not in run for x in readers):
        return None
    first = block[start]
    if end - start == 1 and first.kind == UnitKind.IF and getattr(first.node, "orelse", True) is None:
        return None  # its condition is extended instead: the local stays where it is
    mine = u.names_bound | u.names_read
    for w in block[i + 1 : start]:
        for x in walk_units([w]):
            if x.untracked_writes or x.names_read & u.names_bound or x.names_bound & mine:
                return None
            if (set(x.self_assigns) | x.self_fills) & set(u.self_reads):
                return None
    return first
