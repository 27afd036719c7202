"""What a class's liveness fixpoint starts from (``analysis.analyzer``).

``unsure_of`` lists the dynamic accesses that make the answer unsure; ``LiveSet`` holds the
attributes read by something that counts, each with the first reason found; ``read_outside_chain``
marks what the class's reachable methods, a second run of an ``__init__`` and the subclasses read;
``EventReads`` says what each statement of the chain reads, and which of those reads count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from deadinit.analysis.flow.chain import Chain, ChainStmt
from deadinit.analysis.liveness.below import SubclassReads, Unsure, own_reads
from deadinit.analysis.liveness.registration import Walks
from deadinit.analysis.reads.reach import Reach, method_reads
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import BaseKind
from deadinit.model.qualnames import short_name
from deadinit.semantics.dynamic import ANY

# what a statement reads only to hand to constructors whose parameter reaches nothing live: attr -> why
DeadPasses = Callable[[ChainStmt, set[str]], dict[str, str]]


@dataclass
class LiveSet:
    """The attributes read by something that counts, each with the first reason found."""

    live: set[str] = field(default_factory=set)
    why: dict[str, str] = field(default_factory=dict)

    def mark(self, attr: str, why: str) -> None:
        if attr not in self.live:
            self.live.add(attr)
            self.why[attr] = why


def unsure_of(index: ProjectIndex, cls: str, chain: Chain, mro: list[str], reach: Reach) -> Unsure:
    """The class's own dynamic accesses: in its reachable methods, its ``__init__`` chain, a
    ``__getattr__``, a base class expression that could not be resolved."""
    unsure: Unsure = [(f"{short_name(o)}.{m} uses {r} (line {ln})", p) for o, m, r, ln, p in reach.dynamic]
    unsure += [
        (f"{short_name(c.owner)}.__init__ uses {r} (line {c.stmt.line})", p)
        for c in chain.stmts
        if c.active is not False
        for r, p in c.stmt.dynamic
    ]
    for qn in mro:
        if "__getattr__" in index.classes[qn].methods or "__getattribute__" in index.classes[qn].methods:
            unsure.append((f"{short_name(qn)} defines __getattr__", ANY))
    blind = [b for b in index.external_bases(cls) if b.kind == BaseKind.OPAQUE]
    if blind:
        names = ", ".join(b.name for b in blind)
        unsure.append((f"a base class expression could not be resolved: {names}", ANY))
    return unsure


def read_outside_chain(
    index: ProjectIndex,
    cls: str,
    chain: Chain,
    mro: list[str],
    reach: Reach,
    reach_of: Callable[[str], Reach],
    subclass_reads: SubclassReads,
    live: LiveSet,
    unsure: Unsure,
) -> list[tuple[str, Walks]]:
    """Mark what the class's reachable methods and a second run of an ``__init__`` read, then what
    each subclass reads (adding its dynamic accesses to ``unsure``), merged once per class by
    ``subclass_reads`` (``analysis.liveness.below``); return who may walk ``self``'s registered
    attributes: (the class it runs on, its reachable walks; a subclass without walks is left out).
    ``reach``: the class's own."""
    for attr, sites in reach.reads.items():
        o, m, ln = sites[0]
        live.mark(attr, f"read by {short_name(o)}.{m} (line {ln}), reachable: {reach.methods.get((o, m), '')}")
    for owner in chain.reruns:  # a second run, not walked: what it reads counts as read
        for st in index.classes[owner].methods["__init__"].init_flow or ():
            for a in st.reads:
                live.mark(a, f"read when {short_name(owner)}.__init__ runs a second time (line {st.line})")
    walkers: list[tuple[str, Walks]] = [(cls, reach.walks)]
    below = subclass_reads.below(cls)
    if below is None:  # a subclass cycle below: each subclass asked itself
        for sub in sorted(index.all_subclasses(cls)):
            if sub not in mro:
                walkers.append((sub, _read_by_subclass(index, sub, reach_of(sub), live, unsure)))
        return walkers
    for attr, why in below.ordered_marks():
        live.mark(attr, why)
    for sub in sorted(below.unsure):
        unsure.extend(below.unsure[sub])
    walkers += [(sub, below.walks[sub]) for sub in sorted(below.walks)]  # a subclass without walks adds none
    return walkers


def _read_by_subclass(index: ProjectIndex, sub: str, sreach: Reach, live: LiveSet, unsure: Unsure) -> Walks:
    """Mark what subclass ``sub`` reads (its reachable methods, its own ``__init__``); its walks."""
    own = own_reads(index, sub, sreach)
    for attr, why in own.ordered_marks():
        live.mark(attr, why)
    unsure.extend(own.unsure.get(sub, []))
    return sreach.walks


class EventReads:
    """What each event (a chain statement that may run) reads, through the methods it calls too
    (``reads``), and of that what counts (``counted``): not what it reads only to hand to constructed
    objects that never use it (``transit``: event -> attr -> why)."""

    def __init__(self, index: ProjectIndex, mro: list[str], events: list[ChainStmt], dead_passes: DeadPasses):
        self.index = index
        self.mro = mro
        self._closure: dict[str, set[str]] = {}  # a method read as ``self.<name>`` -> what calling it reads
        self.reads = [self._reads_of(c) for c in events]
        self.transit: dict[int, dict[str, str]] = {}
        allocated = {
            c.stmt.attr
            for c in events
            if c.stmt.attr is not None and (c.stmt.alloc is not None or c.stmt.call is not None)
        }
        # reads inside the chain reach only the bindings made before them (``analysis.liveness.fixpoint``)
        self.counted = [
            self.reads[j] - self._handed_to_dead(j, c, allocated, dead_passes) for j, c in enumerate(events)
        ]

    def _reads_of(self, c: ChainStmt) -> set[str]:
        out = set()
        for a in c.stmt.reads:
            r = self.index.resolve_method(self.mro, a)
            if r is None:
                out.add(a)
                continue
            if a not in self._closure:
                rr = method_reads(self.index, self.mro, [r], "called in __init__")
                self._closure[a] = set(rr.reads)
            out |= self._closure[a]
        return out

    def _handed_to_dead(self, j: int, c: ChainStmt, allocated: set[str], dead_passes: DeadPasses) -> set[str]:
        """What ``c`` reads only to hand to constructed objects that never use it, or only to configure the
        object it holds (an ``isinstance`` check, a flag set on it); not through a method too."""
        if not c.stmt.passed and not c.stmt.configures:
            return set()
        methods = [a for a in c.stmt.reads if self.index.resolve_method(self.mro, a) is not None]
        through_methods = set().union(*(self._closure[a] for a in methods))
        direct = set(c.stmt.reads) - set(methods)
        passes = dead_passes(c, allocated & direct) if c.stmt.passed else {}
        for a in sorted(allocated & direct & set(c.stmt.configures)):
            passes[a] = (
                f"{short_name(c.owner)}.__init__ only configures self.{a} here "
                "(checks its class or sets a flag on it): not a read that keeps its value"
            )
        passes = {a: why for a, why in passes.items() if a not in through_methods}
        if passes:
            self.transit[j] = passes
        return set(passes)
