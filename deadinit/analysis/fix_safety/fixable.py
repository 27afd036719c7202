"""Whether ``deadinit fix --strategy skip-flag`` can rewrite what a verdict calls fixable.

A safe verdict promises that a plain ``deadinit fix`` removes the finding.  The skip-flag fix
threads a flag from the subclass up its ``__init__`` chain to the ancestors that allocate and
guards their dead statements with it; ``settle`` keeps that promise by asking, of the class's
``__init__`` chain (the analysis' statements, not a reading of its own), what the rewrite
needs:

* a chain the flag can travel: the subclass has an ``__init__`` of its own, each ancestor's
  ``__init__`` is called directly by the one below without ``*args``/``**kwargs``, every subclass's
  MRO reaches the same ancestors, the top ancestor takes no ``*args``/``**kwargs``
  (``fix_path``, which the planner reads too);
* statements that can be skipped: no statement that stays (it builds something the fix keeps, or
  does other work) reads a skipped attribute, in its own ``__init__`` or in one between it and the
  statement that replaces it; no statement builds a skipped attribute together with one that stays.
  Keeping one attribute can keep what it reads: this runs to a fixpoint.

What no fix can rewrite, even with ``--unsafe-fixes``, becomes ``none``; what a plain fix cannot
rewrite because a statement it keeps is an unsafe fix's becomes ``unsafe``; each with the reason
``fix`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from deadinit.analysis.fact_records import AttrFact
from deadinit.analysis.flow.binding_fate import replaces_elements
from deadinit.analysis.flow.chain import Chain, ChainStmt
from deadinit.analysis.reads.reach import method_reads
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import ExprTag, FillKind, FixSafety, InitStmtKind, ParamKind
from deadinit.model.qualnames import short_name

BINDINGS = ("assign", "fill")
STAR_PARAMS = (ParamKind.STAR, ParamKind.DSTAR)


@dataclass(frozen=True)
class FixPath:
    """The ``__init__`` owners a flag travels, the subclass first; ``refusal``: why it cannot."""

    path: tuple[str, ...] = ()
    refusal: str = ""


def fix_path(index: ProjectIndex, chain: Chain, owners: Iterable[str]) -> FixPath:
    """The chain from ``chain.cls`` up to the highest of ``owners``, or why a flag cannot travel it."""
    leaf, inits = chain.cls, chain.inits
    owners = list(owners)
    if not inits or inits[0] != leaf:
        return FixPath(refusal=f"{short_name(leaf)} has no __init__ of its own to pass a flag from")
    missing = [o for o in owners if o not in inits]
    if missing:
        return FixPath(refusal=f"{short_name(missing[0])}.__init__ is not on {short_name(leaf)}'s __init__ chain")
    path = tuple(inits[: max(inits.index(o) for o in owners) + 1])
    for i, cls in enumerate(path[1:], start=1):
        caller, st, _env = chain.calls.get(cls, (None, None, None))
        if caller != path[i - 1] or st is None:
            return FixPath(
                path, f"{short_name(cls)}.__init__ is not called directly by {short_name(path[i - 1])}.__init__"
            )
        if st.star_args:
            return FixPath(
                path,
                f"{short_name(caller)}.__init__ forwards *args/**kwargs to {short_name(cls)}.__init__ "
                f"(line {st.line}): a flag cannot be threaded through it safely",
            )
    wrong = _wrong_turn(index, leaf, path)
    if wrong:
        return FixPath(path, wrong)
    top = index.classes[path[-1]].methods.get("__init__")
    if top is not None and any(p.kind in STAR_PARAMS for p in top.params):
        return FixPath(
            path,
            f"{short_name(path[-1])}.__init__ takes *args/**kwargs: a new parameter would change which "
            "arguments they capture",
        )
    return FixPath(path)


def _wrong_turn(index: ProjectIndex, leaf: str, path: tuple[str, ...]) -> str:
    """Why some subclass's MRO sends ``super().__init__`` off ``path``, or "". A class with one base has
    its base's MRO after itself, so below a chain of single bases every MRO follows ``leaf``'s: only a
    subclass with several bases somewhere below ``leaf`` is walked, once, along its ``__init__`` owners."""
    subs = sorted(index.all_subclasses(leaf))
    if all(len(index.bases(s)) <= 1 for s in subs):
        return ""
    for sub in subs:
        inits = [c for c in index.mro(sub) or [] if "__init__" in index.classes[c].methods]
        at = {c: j for j, c in enumerate(inits)}
        for here, there in pairwise(path):
            j = at.get(here)
            if j is not None and j + 1 < len(inits) and inits[j + 1] != there:
                return (
                    f"{short_name(sub)} inherits {short_name(here)}.__init__, but in its MRO super().__init__ "
                    f"reaches {short_name(inits[j + 1])}, not {short_name(there)}: the flag would go to the wrong class"
                )
    return ""


def settle(index: ProjectIndex, chain: Chain, facts: list[AttrFact], mro: list[str]) -> None:
    """Each fact's verdict, refined by what the skip-flag rewrite can make of the class's chain."""
    reads = _Reads(index, mro)
    for fact, why in _refills_of_a_refilled_list(chain, facts):
        fact.verdict = fact.verdict.refused(FixSafety.NONE, why) if fact.verdict else None
    fixable = [f for f in facts if f.verdict is not None and f.verdict.safety != FixSafety.NONE]
    for fact, why in refusals(index, chain, fixable, reads):
        fact.verdict = fact.verdict.refused(FixSafety.NONE, why) if fact.verdict else None
    safe = [f for f in facts if f.verdict is not None and f.verdict.safety == FixSafety.SAFE]
    for fact, why in refusals(index, chain, safe, reads):
        fact.verdict = fact.verdict.refused(FixSafety.UNSAFE, why) if fact.verdict else None


def _refills_of_a_refilled_list(chain: Chain, facts: list[AttrFact]) -> list[tuple[AttrFact, str]]:
    """An ancestor's element-wise refill (``self.xs[i] = ...`` in a loop) of the list its own parent
    built, which the class refills again. Skipping it would leave the parent's placeholders to what
    reads the list after it (the ancestor's own fix moves such reads there), so no flag skips it."""
    return [
        (
            f,
            f"{short_name(f.owner)}.__init__ line {c.stmt.line} refills self.{f.attr} element by element: a flag "
            "that skips the refill would leave the placeholders of the list its parent built to what reads "
            "the list after it",
        )
        for f in facts
        if f.owner != chain.cls
        for c in f.stmts[:1]
        if c.stmt.kind == InitStmtKind.FILL and c.stmt.fill_kind == FillKind.SETITEM
    ]


def refusals(index: ProjectIndex, chain: Chain, group: list[AttrFact], reads: _Reads) -> list[tuple[AttrFact, str]]:
    """The facts of ``group`` (one class's, fixed together) the rewrite would leave, and why."""
    if not group:
        return []
    found = fix_path(index, chain, {f.owner for f in group})
    if found.refusal:
        return [(f, found.refusal) for f in group]
    dead: dict[str, set[str]] = {}
    by_key = {}
    for f in group:
        dead.setdefault(f.owner, set()).add(f.attr)
        by_key[(f.owner, f.attr)] = f
    events = _Events([c for c in chain.stmts if c.active is not False], reads)
    out: list[tuple[AttrFact, str]] = []
    while True:
        conflicts = _conflicts(events, dead, by_key, reads)
        if not conflicts:
            return out
        for (owner, attr), why in conflicts.items():
            dead[owner].discard(attr)
            out.append((by_key[(owner, attr)], why))


class _Events:
    """The statements of a chain that may run, indexed for ``_conflicts``: each one's position, the
    statements written at each place (one source statement may stand for several), and per attribute
    the positions of the statements whose reads reach it (``_Reads.reached``), in chain order."""

    def __init__(self, events: list[ChainStmt], reads: _Reads) -> None:
        self.events = events
        self.pos = {id(c): i for i, c in enumerate(events)}
        self.at: dict[tuple[str, int, int], list[ChainStmt]] = {}
        self.readers: dict[str, list[int]] = {}
        for i, c in enumerate(events):
            self.at.setdefault((c.owner, c.stmt.line, c.stmt.col), []).append(c)
            for a in reads.reached(c.stmt.reads):
                self.readers.setdefault(a, []).append(i)


def _conflicts(
    indexed: _Events, dead: dict[str, set[str]], facts: dict[tuple[str, str], AttrFact], reads: _Reads
) -> dict[tuple[str, str], str]:
    events, pos = indexed.events, indexed.pos

    def stays(c: ChainStmt) -> bool:
        return not (c.stmt.kind in BINDINGS and c.stmt.attr in dead.get(c.owner, ()))

    out: dict[tuple[str, str], str] = {}
    for owner, attrs in dead.items():
        where = f"{short_name(owner)}.__init__"
        for a in sorted(attrs):
            f = facts[(owner, a)]
            starts = [pos[id(c)] for c in f.stmts if id(c) in pos]
            if not starts:
                continue
            end = pos.get(id(f.killer), len(events)) if f.killer is not None else len(events)
            for c in f.stmts:
                here = indexed.at.get((c.owner, c.stmt.line, c.stmt.col), ())
                if any(e is not c and stays(e) for e in here):
                    out[(owner, a)] = (
                        f"{where} line {c.stmt.line} writes self.{a} in a statement that also does work that "
                        "stays: it cannot be split"
                    )
                    break
            if (owner, a) in out:
                continue
            refill = _refill(f)
            for i in indexed.readers.get(a, ()):  # a statement whose reads reach nothing of ``a`` never keeps it
                c = events[i]
                if not stays(c) or (c.owner != owner and not min(starts) < i < end):
                    continue
                if refill is not None and c.owner == owner and _moves(c, refill, events, pos, reads):
                    continue
                via = reads.via(c.stmt.reads, a)
                if via is None:
                    continue
                out[(owner, a)] = _kept(c, a, via) if c.owner == owner else _read_before(c, a)
                break
    return out


def _refill(f: AttrFact) -> ChainStmt | None:
    """The subclass's statement that refills, element by element, the list ``f`` builds (or None)."""
    k = f.killer
    return k if k is not None and any(replaces_elements(b, k) for b in f.stmts) else None


def _moves(c: ChainStmt, refill: ChainStmt, events: list[ChainStmt], pos: dict[int, int], reads: _Reads) -> bool:
    """``c`` (``self.y = <an expression of the list>``) can follow the list: the rewrite keeps an alias
    ``self.y = self.xs`` as it is, and moves any other such assignment after the subclass's refill,
    when nothing between uses ``self.y``."""
    y = c.stmt.attr
    if c.stmt.kind != InitStmtKind.ASSIGN or y is None or c.stmt.alloc is not None or c.stmt.call is not None:
        return False
    if c.stmt.value == (ExprTag.SELF, refill.stmt.attr):
        return True
    at, until = pos.get(id(c)), pos.get(id(refill))
    if at is None or until is None:
        return False
    return not any(e.stmt.attr == y or y in reads.reached(e.stmt.reads) for e in events[at + 1 : until])


def _kept(c: ChainStmt, a: str, via: str) -> str:
    through = "" if via == a else f" through self.{via}()"
    where = f"{short_name(c.owner)}.__init__ line {c.stmt.line}"
    if c.stmt.kind in BINDINGS and c.stmt.attr:
        return f"kept by live work: {where} builds self.{c.stmt.attr}, which stays, from self.{a}{through}"
    return f"kept by live work: {where} stays and reads self.{a}{through}"


def _read_before(c: ChainStmt, a: str) -> str:
    return f"{short_name(c.owner)}.__init__ line {c.stmt.line} reads self.{a} before it is re-assigned"


class _Reads:
    """What a statement's reads reach: an attribute, or what the ``self`` method of that name reads."""

    def __init__(self, index: ProjectIndex, mro: list[str]) -> None:
        self.index, self.mro = index, mro
        self._closure: dict[str, frozenset[str]] = {}

    def closure(self, name: str) -> frozenset[str]:
        if name not in self._closure:
            r = self.index.resolve_method(self.mro, name)
            self._closure[name] = (
                frozenset({name}) if r is None else frozenset(method_reads(self.index, self.mro, [r], "").reads)
            )
        return self._closure[name]

    def reached(self, names: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for n in names:
            out |= self.closure(n)
        return out

    def via(self, names: Iterable[str], attr: str) -> str | None:
        """The name among ``names`` through which ``attr`` is read (``attr`` itself first), or None."""
        names = list(names)
        if attr in names and attr in self.closure(attr):
            return attr
        return next((n for n in names if attr in self.closure(n)), None)
