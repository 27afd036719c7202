"""What the classes below a class read, make unsure and walk, merged once per class from its
direct subclasses' merges (``analysis.liveness.outside_chain`` marks it on the class).

A class's liveness counts what every subclass reads.  Asking each subclass again for every class
above it costs depth² on a chain; ``Below`` keeps, per class, the merge over all its subclasses,
built from the merges of its direct subclasses (children first, without recursion) and memoised,
so each class adds its own reads once.  The merge keeps what the walk over the subclasses in name
order would find: each attribute's first reason (the first subclass by name, its first read), the
dynamic accesses and the walks of each subclass.  Below a subclass cycle no merge is kept
(``SubclassReads.below`` answers None) and the caller asks each subclass itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from deadinit.analysis.liveness.registration import Walks
from deadinit.analysis.reads.reach import Reach
from deadinit.index.dependencies import Memo
from deadinit.index.project_index import ProjectIndex
from deadinit.model.qualnames import short_name
from deadinit.model.summary import Pattern

Unsure = list[tuple[str, Pattern]]  # (why the answer is unsure, what the dynamic access may touch)


@dataclass(frozen=True)
class Mark:
    """The first reason a subclass gives for an attribute: ``(sub, place)`` orders subclasses by name,
    then their reads in the order the subclass walk meets them."""

    sub: str
    place: int
    why: str


@dataclass
class Below:
    """Merged over the classes below one class: attr -> its first ``Mark``; per subclass with any,
    its dynamic accesses and its reachable walks."""

    marks: dict[str, Mark] = field(default_factory=dict)
    unsure: dict[str, Unsure] = field(default_factory=dict)
    walks: dict[str, Walks] = field(default_factory=dict)

    def add(self, other: Below) -> None:
        for attr, mark in other.marks.items():
            now = self.marks.get(attr)
            if now is None or (mark.sub, mark.place) < (now.sub, now.place):
                self.marks[attr] = mark
        self.unsure.update(other.unsure)
        self.walks.update(other.walks)

    def ordered_marks(self) -> list[tuple[str, str]]:
        """(attr, why) in the order the subclass walk would mark them."""
        ordered = sorted(self.marks.items(), key=lambda item: (item[1].sub, item[1].place))
        return [(attr, mark.why) for attr, mark in ordered]


def own_reads(index: ProjectIndex, sub: str, sreach: Reach) -> Below:
    """What subclass ``sub`` itself reads (its reachable methods, its own ``__init__``), its dynamic
    accesses and its walks."""
    marks: dict[str, Mark] = {}

    def mark(attr: str, why: str) -> None:
        if attr not in marks:
            marks[attr] = Mark(sub, len(marks), why)

    for attr, sites in sreach.reads.items():
        o, m, ln = sites[0]
        mark(attr, f"read by {short_name(o)}.{m} (line {ln}) on subclass {short_name(sub)}")
    unsure: Unsure = [
        (f"subclass {short_name(sub)}: {short_name(o)}.{m} uses {r}", p) for o, m, r, _, p in sreach.dynamic
    ]
    sm = index.classes[sub].methods.get("__init__")
    if sm and sm.init_flow:
        for st in sm.init_flow:
            for a in st.reads:
                mark(a, f"read in {short_name(sub)}.__init__ (line {st.line})")
            unsure.extend((f"subclass {short_name(sub)}.__init__ uses {r} (line {st.line})", p) for r, p in st.dynamic)
    return Below(marks, {sub: unsure} if unsure else {}, {sub: sreach.walks} if sreach.walks else {})


class SubclassReads:
    """``below(cls)``: the merge over every class below ``cls``, memoised per class (a hit notes again
    what its merge read: the subclass table's entries and each subclass's reach and summary)."""

    def __init__(self, index: ProjectIndex, reach_of: Callable[[str], Reach]) -> None:
        self.index = index
        self.reach_of = reach_of
        self._below: Memo[str, Below] = Memo()

    def below(self, cls: str) -> Below | None:
        """None when a subclass cycle lies below ``cls``."""
        if cls not in self._below:
            order = self._children_first(cls)
            if order is None:
                return None
            for x in order:
                self._below.get_or(x, partial(self._merge, x))
        return self._below.get_or(cls, partial(self._merge, cls))

    def _merge(self, cls: str) -> Below:
        out = Below()
        for s in self.index.subclasses.get(cls, []):
            out.add(own_reads(self.index, s, self.reach_of(s)))
            out.add(self._below.get_or(s, partial(self._merge, s)))  # kept: computed children first
        return out

    def _children_first(self, cls: str) -> list[str] | None:
        """The classes below ``cls`` whose merge is not kept yet, each after every class below it
        (an iterative depth-first walk); None on a cycle."""
        order: list[str] = []
        done: set[str] = set()
        on_path: set[str] = {cls}
        stack: list[tuple[str, list[str]]] = [(cls, list(self.index.subclasses.get(cls, [])))]
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                on_path.discard(node)
                done.add(node)
                if node != cls:
                    order.append(node)
                continue
            s = todo.pop()
            if s in on_path:
                return None
            if s in done or s in self._below:
                continue
            on_path.add(s)
            stack.append((s, list(self.index.subclasses.get(s, []))))
        return order
