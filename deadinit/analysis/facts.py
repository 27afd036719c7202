"""What the liveness fixpoint found about each attribute an ancestor's ``__init__`` allocates.

``build_facts`` turns the fixpoint's result into ``AttrFact``s: which binding a later
assignment replaced, and where; whether anything that counts reads the attribute;
which live attributes keep its value; the evidence chain.  Whether a fact is a
finding, and of which rule, is the rules' decision (``deadinit.rules``); the
analyzer keeps the facts some rule reports.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deadinit.analysis.evidence_chain import ClassEvidence, class_evidence, fact_evidence
from deadinit.analysis.fact_records import Analysis, AttrFact, Fixpoint, Overwrite
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.analysis.flow.conditions import condition_text
from deadinit.analysis.naming import display_names
from deadinit.analysis.reads.reach import Reach
from deadinit.analysis.reads.unsure import unsure_for
from deadinit.analysis.sizes.symbolic import Size
from deadinit.analysis.sizes.values import Context
from deadinit.index.project_index import ProjectIndex
from deadinit.model.evidence import Evidence
from deadinit.model.kinds import AllocKind, FillKind, InitStmtKind
from deadinit.model.summary import AllocInfo, Expr, Pattern
from deadinit.semantics.exprs import EMPTY

__all__ = ["Analysis", "AttrFact", "Fixpoint", "Overwrite", "build_facts"]  # the records live in fact_records

if TYPE_CHECKING:
    from deadinit.analysis.flow.returns import Binding


class _Contexts:
    """Where the allocation of each event is evaluated: its ``__init__``'s parameters and the ``self``
    attributes the chain assigned before it (each earlier assignment's own context built once)."""

    def __init__(self, index: ProjectIndex, events: list[ChainStmt]) -> None:
        self.index, self.events = index, events
        self.at_index: list[int] = []  # the events that assign a value ``self.a`` is then known by
        self.pairs: list[tuple[str, tuple[Expr, Context]]] | None = None  # built on first use

    def _assigned(self) -> list[tuple[str, tuple[Expr, Context]]]:
        if self.pairs is None:
            self.pairs = []
            for i, c in enumerate(self.events):
                st = c.stmt
                if st.kind == InitStmtKind.ASSIGN and st.attr and st.value is not None and c.active is True:
                    self.at_index.append(i)
                    self.pairs.append((st.attr, (st.value, self._at(c, {}))))
        return self.pairs

    def _at(self, c: ChainStmt, self_values: dict[str, tuple[Expr, Context]]) -> Context:
        m = self.index.classes[c.owner].methods.get("__init__")
        params = {p.name: p for p in m.params} if m is not None else {}
        return Context(self.index.class_module[c.owner], {}, c.env, params, self_values)

    def of(self, upto: int) -> Context:
        pairs = self._assigned()
        return self._at(self.events[upto], dict(pairs[: bisect_left(self.at_index, upto)]))


@dataclass(frozen=True)
class FirstAllocation:
    event: int
    alloc: AllocInfo
    kind: str
    module: str  # the module whose names the allocation uses (a followed function's)
    followed: tuple[Evidence, ...] = ()  # the project functions the value came through
    bindings: tuple[Binding, ...] = ()  # ... and the arguments their calls pass


def _first_allocation(
    an: Analysis, events: list[ChainStmt], idxs: list[int], module: str, mro: list[str]
) -> FirstAllocation | None:
    """The group's first statement whose value counts as an allocation, also through project functions."""
    for i in idxs:
        st = events[i].stmt
        if st.alloc is not None:
            kind = an.classify(st.alloc, module)
            if kind:
                return FirstAllocation(i, st.alloc, kind, module)
        elif st.call is not None and st.kind == InitStmtKind.ASSIGN:
            got = an.returns.resolve(st.call, module, mro)
            kind = an.classify(got.alloc, got.module) if got is not None else None
            if got is not None and kind:
                return FirstAllocation(i, got.alloc, kind, got.module, got.steps, got.bindings)
    return None


def allocation_of(an: Analysis, c: ChainStmt, mro: list[str]) -> FirstAllocation | None:
    """What the chain statement ``c`` allocates, as the facts count an allocation (also through
    project functions); None when it allocates nothing."""
    return _first_allocation(an, [c], [0], an.index.class_module[c.owner], mro)


def build_facts(
    an: Analysis,
    cls: str,
    fp: Fixpoint,
    reach: Reach,
    mro: list[str],
    unsure: list[tuple[str, Pattern]],
    reported: Callable[[AttrFact], bool],
) -> list[AttrFact]:
    """The facts ``reported`` keeps, for the allocations of ``cls``'s ancestors whose value nothing uses."""
    index = an.index
    events, effective, killed, kept = fp.events, fp.effective, fp.killed, fp.kept
    groups: dict[tuple[str, str], list[int]] = {}
    for i, c in enumerate(events):
        if c.owner == cls or c.stmt.kind not in (InitStmtKind.ASSIGN, InitStmtKind.FILL) or c.stmt.attr is None:
            continue
        groups.setdefault((c.owner, c.stmt.attr), []).append(i)
    facts = []
    names = display_names(index, {cls, *mro, *(c.owner for c in events)})
    shared: ClassEvidence | None = None
    contexts = _Contexts(index, events)
    for (owner, attr), idxs in groups.items():
        live_idxs = [i for i in idxs if i in effective]
        if any(events[i].stmt.fill_kind == FillKind.APPEND and i in killed and i not in effective for i in idxs):
            # elements replaced one by one: the (cheap) empty list itself stays
            live_idxs = [i for i in live_idxs if events[i].stmt.value != EMPTY]
        kept_by = sorted({a for i in live_idxs for a in kept.get(i, [])})
        replaced = {}
        if live_idxs and not (kept_by and all(i in kept for i in live_idxs)):
            replaced = _replaced_when(events, fp.reads, live_idxs)
            if not replaced:
                continue
        module = index.class_module[owner]
        found = _first_allocation(an, events, idxs, module, mro)
        if found is None:
            continue
        rep, alloc, kind = found.event, found.alloc, found.kind
        fills = [i for i in idxs if events[i].stmt.kind == InitStmtKind.FILL]
        assigns = [i for i in idxs if events[i].stmt.kind == InitStmtKind.ASSIGN]
        if (
            events[rep].stmt.kind == InitStmtKind.FILL
            and assigns
            and any(events[j].stmt.value == EMPTY for j in assigns)
        ):
            kind = f"list of {kind}"
        alloc_idxs = [
            i for i in idxs if events[i].stmt.kind == InitStmtKind.ASSIGN and events[i].stmt.value != EMPTY
        ] or [i for i in idxs if events[i].stmt.alloc is not None or events[i].stmt.call is not None]
        by = {**killed, **replaced}
        overwritten = sorted((i for i in idxs if i in by), key=lambda i: by[i])
        c = events[rep]
        guards = (*c.open_guards, *(g for j in sorted(set(replaced.values())) for g in events[j].open_guards))
        fact = AttrFact(
            cls,
            attr,
            owner,
            [events[i] for i in idxs],
            alloc,
            kind,
            overwrites=[Overwrite(events[i], events[by[i]]) for i in overwritten],
            allocations_overwritten=all(i in by for i in alloc_idxs),
            read=attr in fp.live,
            conditional=bool(replaced) or any(events[i].active is None for i in idxs),
            condition=condition_text(tuple(dict.fromkeys(guards))),
            replaced_when=condition_text(
                tuple(g for j in sorted(set(replaced.values())) for g in events[j].open_guards)
            ),
            kept_by=kept_by,
            names=names,
        )
        if not reported(fact):
            continue
        size = _size(an, contexts, found, c, bool(fills))
        if size is not None and size.exact_bytes == 0:
            continue  # a known-empty allocation wastes nothing worth a finding
        fact.size = size
        fact.estimated_bytes = size.exact_bytes if size is not None else None
        fact.followed = found.followed
        if shared is None:
            shared = class_evidence(an, fact, fp, reach, mro)
        fact.evidence = fact_evidence(an, fact, fp, idxs, shared, mro)
        fact.evidence[len(idxs) : len(idxs)] = found.followed
        fact.unsure = unsure_for(unsure, attr, an.index, mro)
        facts.append(fact)
    _mark_feeds(facts, fp)
    return facts


def _replaced_when(events: list[ChainStmt], reads: list[set[str]], idxs: list[int]) -> dict[int, int]:
    """Each binding of ``idxs`` -> the later assignment (or removal) of another class that replaces it
    under guards nothing decides, before anything reads it: wasted only when those guards hold. Empty
    unless every binding has one."""
    out: dict[int, int] = {}
    for i in idxs:
        c = events[i]
        attr = c.stmt.attr
        for j in range(i + 1, len(events)):
            k = events[j]
            if attr in reads[j]:
                return {}
            if k.stmt.attr != attr or k.stmt.kind not in (
                InitStmtKind.ASSIGN,
                InitStmtKind.KILL,
                InitStmtKind.DELETE,
                InitStmtKind.FILL,
            ):
                continue
            if k.stmt.kind == InitStmtKind.FILL or k.owner == c.owner or not _undecided_only(k):
                return {}
            out[i] = j
            break
        else:
            return {}
    return out


def _undecided_only(k: ChainStmt) -> bool:
    """The statement runs on every path but for guards nothing decides (no loop, no early return)."""
    return (
        k.active is None
        and k.guards_hold is None
        and bool(k.open_guards)
        and not k.stmt.in_loop
        and not k.stmt.after_return
    )


def _size(an: Analysis, contexts: _Contexts, found: FirstAllocation, c: ChainStmt, filled: bool) -> Size | None:
    """The size of the allocation ``found`` names, evaluated where the chain makes it."""
    ctx = contexts.of(found.event)
    if found.followed:
        ctx = an.sizes.followed_context(ctx, found.bindings)
    size = an.sizes.size(found.alloc, ctx)
    if found.alloc.kind not in (AllocKind.CONTAINER,) and filled and c.stmt.kind == InitStmtKind.FILL:
        size = an.sizes.filled(c, size, ctx)  # one element per iteration: n of them for range(n)
    return size


def _mark_feeds(facts: list[AttrFact], fp: Fixpoint) -> None:
    """Each fact's dead attributes built from it (``AttrFact.feeds``)."""
    events = fp.events
    dead = {f.attr for f in facts}
    fed_from: dict[str, set[str]] = {}
    for i, r in enumerate(fp.reads):
        fed = events[i].stmt.attr
        if fed in dead and events[i].stmt.kind in (InitStmtKind.ASSIGN, InitStmtKind.FILL) and i not in fp.effective:
            for a in r & dead:
                fed_from.setdefault(a, set()).add(fed)
    for f in facts:
        f.feeds = sorted(fed_from.get(f.attr, set()) - {f.attr})
