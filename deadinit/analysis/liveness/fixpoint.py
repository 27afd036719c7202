"""The fixpoint of effective assignments over one class's ``__init__`` chain (``analysis.analyzer``).

An assignment is effective when its attribute is read by something that counts and no later
definite assignment overwrites it before such a read.  Each round finds the classes only dead
statements build (``dead_built``: reads made while building them do not count), then gives each
assignment not yet effective its fate: read later in the chain, read outside it (``LiveSet``,
``ExternalRead``), kept alive by an effective attribute built from it, or replaced first.  A
round that makes nothing effective ends it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict

from deadinit.analysis.fact_records import Fixpoint
from deadinit.analysis.flow.binding_fate import binds, own_if_kill, replaces_elements, touching_events
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.analysis.liveness.outside_chain import EventReads, LiveSet
from deadinit.analysis.reads.external import ExternalReads
from deadinit.index.dependencies import Recorded, note
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import FillKind
from deadinit.model.qualnames import short_name

_BINDINGS = ("assign", "fill")
_REPLACING = ("assign", "kill", "delete")


def dead_built(
    events: list[ChainStmt],
    effective: set[int],
    sites_at: Recorded[tuple[str, int], set[str]],
    site_lines: Recorded[str, int],
) -> set[str]:
    """The classes every construction site of which lies on a line of a binding that is not effective."""
    dead_lines = {
        (c.path, ln)
        for i, c in enumerate(events)
        if c.stmt.kind in _BINDINGS and i not in effective
        for ln in range(c.stmt.line, c.stmt.end_line + 1)
    }
    built_on = Counter(qn for loc in dead_lines for qn in sites_at.get(loc, ()))
    return {qn for qn, n in built_on.items() if n == site_lines[qn]}  # every site on a dead line


class ExternalRead:
    """Why an attribute of ``cls`` counts as read by code outside the class (None: it does not), not
    counting reads inside classes only dead statements build; memoised."""

    def __init__(self, index: ProjectIndex, ext: ExternalReads, cls: str):
        self.index = index
        self.ext = ext
        self.cls = cls
        self._cache: dict[tuple[str, frozenset[str]], str | None] = {}

    def __call__(self, attr: str, dead_classes: frozenset[str]) -> str | None:
        key = (attr, dead_classes)
        if key not in self._cache:
            self._cache[key] = self._first_read(attr, dead_classes)
        return self._cache[key]

    def _first_read(self, attr: str, dead_classes: frozenset[str]) -> str | None:
        for i, (a, mod) in enumerate(self.ext.by_attr.get(attr, [])):
            if a.in_class is not None and a.in_class in dead_classes:
                continue
            ok, reason = self.ext.could_hold(a, mod, self.cls)
            if ok:
                note(("attr_line", (attr, i)))  # the why names the read's line
                return f"read as `{a.receiver}.{attr}` at {self.index.paths[mod]}:{a.line}: {reason}"
        return None


class EffectiveAssignments:
    """Grow the set of effective events to a fixpoint (``run``); marks what they read as live."""

    def __init__(
        self,
        events: list[ChainStmt],
        reads: EventReads,
        live: LiveSet,
        external: ExternalRead,
        sites: tuple[Recorded[tuple[str, int], set[str]], Recorded[str, int]],
    ):
        self.events = events
        self.reads = reads
        self.counted = reads.counted
        self.live = live
        self.external = external
        self.sites = sites
        self.touching: defaultdict[str, list[int]] = touching_events(events, self.counted)
        self.effective: set[int] = set()
        self.killed: dict[int, int] = {}
        self.kept: dict[int, list[str]] = {}
        self.read_between: dict[int, list[str]] = {}

    def run(self) -> Fixpoint:
        while True:
            dead_classes = frozenset(dead_built(self.events, self.effective, *self.sites))
            self.killed = {i: j for i, j in self.killed.items() if i in self.effective}
            self.kept = {i: h for i, h in self.kept.items() if i in self.effective}
            if not self._round(dead_classes):
                break
        return Fixpoint(
            self.events,
            self.reads.reads,
            self.effective,
            self.killed,
            self.kept,
            self.read_between,
            self.live.live,
            dead_classes,
            self.reads.transit,
        )

    def _round(self, dead_classes: frozenset[str]) -> bool:
        """Give each binding not yet effective its fate; whether one became effective."""
        changed = False
        for i, c in enumerate(self.events):
            st = c.stmt
            if st.kind not in _BINDINGS or st.attr is None or i in self.effective:
                continue
            used = self._fate(i, c, st.attr, dead_classes)
            if used is None:
                continue
            self.effective.add(i)
            changed = True
            for a in self.counted[i]:
                if a not in self.live.live and not binds(self.events, self.touching, a):
                    self.live.mark(a, f"used to build self.{st.attr} ({short_name(c.owner)}.__init__ line {st.line})")
        return changed

    def _fate(self, i: int, c: ChainStmt, y: str, dead_classes: frozenset[str]) -> str | None:
        """Why binding ``i`` of ``self.y`` is effective (None: it is not, so far); notes what replaces it."""
        after = self.touching[y][bisect_right(self.touching[y], i) :]
        # reads before a refill do not keep a list appended to; an element-wise rebuild's elements they do read
        appended = c.stmt.fill_kind == FillKind.APPEND
        replaced = next((j for j in after if appended and replaces_elements(c, self.events[j])), None)
        used, holders = self._read_later(i, c, y, after, replaced)
        if used is None and holders and i in self.killed and replaced is None:
            self.kept[i] = sorted(set(holders))
        elif replaced is not None and i in self.killed:
            self.read_between[i] = holders
            holders = []
        if used is None and i not in self.killed:
            used = self._read_elsewhere(y, dead_classes)
        if used is None and holders:
            used = f"kept alive by self.{holders[0]}"
        return used

    def _read_later(
        self, i: int, c: ChainStmt, y: str, after: list[int], replaced: int | None
    ) -> tuple[str | None, list[str]]:
        """Scan the events after ``i`` that touch ``y`` up to the one that replaces the value (noted in
        ``killed``): why a read that counts uses it, and the effective attributes built from it that
        hold it (``(read) ...``: read before its elements are replaced one by one)."""
        holders: list[str] = []
        for j in after:
            k = self.events[j]
            if y in self.counted[j]:
                if replaced is not None and j < replaced:
                    holders.append(f"(read) {k.stmt.attr or 'effect'} at line {k.stmt.line}")
                    continue
                used, holder = self._read_at(j, k, y)
                if used is not None:
                    return used, holders
                if holder is not None:
                    holders.append(holder)
            if self._replaces(c, k, y):
                self.killed[i] = j
                break
        return None, holders

    def _read_at(self, j: int, k: ChainStmt, y: str) -> tuple[str | None, str | None]:
        """Event ``j`` reads ``y`` in a way that counts: why that uses it, or the attribute that holds it."""
        if k.stmt.kind not in (*_BINDINGS, "kill"):
            return f"read in {short_name(k.owner)}.__init__ (line {k.stmt.line})", None
        if j not in self.effective:
            return None, None
        if k.stmt.alloc is not None and k.stmt.attr is not None and k.stmt.attr != y:
            return None, k.stmt.attr  # the object lives on inside it
        return f"used to build self.{k.stmt.attr} ({short_name(k.owner)}.__init__ line {k.stmt.line})", None

    @staticmethod
    def _replaces(c: ChainStmt, k: ChainStmt, y: str) -> bool:
        """``k`` replaces the value ``c`` binds to ``self.y``, for certain."""
        definite = k.stmt.kind in _REPLACING and k.stmt.attr == y and k.definite and not own_if_kill(k, c)
        return definite or replaces_elements(c, k)

    def _read_elsewhere(self, y: str, dead_classes: frozenset[str]) -> str | None:
        """Why ``self.y`` counts as read outside the chain: by the class, a subclass, or outside code."""
        if y in self.live.live:
            return self.live.why[y]
        used = self.external(y, dead_classes)
        if used is not None:
            self.live.mark(y, used)
        return used
