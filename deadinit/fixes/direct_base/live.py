"""Which attributes code that survives the rewrite still reads.

The engine's effective set is an upper bound: it also counts reads made by
parent ``__init__`` statements the rewrite drops (a test that only guards dead
allocations, a check folded away because ``self.__class__`` is not the parent).
An inherited binding is inlined only when the engine found it effective *and*
something that stays reads the attribute: a method that can run on the class
(or on a subclass), an ``__init__`` statement that is not moved (the class's
own, the new base's), a statement the inliner keeps, or code outside the
hierarchy that may hold an instance (the DI002 external-read rule, ignoring
classes that only dropped statements construct).
"""

from __future__ import annotations

from collections.abc import Iterable

from deadinit.analysis.analyzer import ClassAnalysis
from deadinit.analysis.reads.reach import method_reads
from deadinit.fixes.direct_base.class_plan import ClassPlan
from deadinit.model.kinds import InitStmtKind


class StayReads:
    def __init__(self, plan: ClassPlan, an: ClassAnalysis) -> None:
        self.p = plan
        self.an = an
        index, analyzer = plan.index, plan.analyzer
        mro = plan.mro
        self.reads: set[str] = set(an.reach.reads)
        for sub in index.all_subclasses(plan.cls):
            if sub in (index.mro(sub) or []) and sub != plan.cls:
                self.reads |= set(analyzer.reach_of(sub).reads)
                init = index.classes[sub].methods.get("__init__")
                for st in (init.init_flow or []) if init else []:
                    self.reads |= set(st.reads)
        for c in an.chain.stmts:
            if c.owner in plan.dropped or c.active is False:
                continue
            self.reads |= self._closure(c.stmt.reads, mro)
        self._init_ranges: dict[str, list[tuple[int, int]]] = {}
        for qn in plan.dropped:
            m = index.classes[qn].methods.get("__init__")
            if m is not None:
                self._init_ranges.setdefault(index.file_of(qn).path, []).append((m.line, m.end_line))
        self.kept_ranges: list[tuple[str, int, int]] = []  # (path, start, end) of statements the inliner keeps
        self.kept_pos: set[tuple[str, int, int]] = set()  # (owner, line, col) of units the inliner keeps
        self._cache: dict[tuple[str, int], bool] = {}
        self.events = [c for c in an.chain.stmts if c.active is not False]
        self._pos = {(c.owner, c.stmt.line, c.stmt.col): i for i, c in reversed(list(enumerate(self.events)))}
        self._ev_reads: dict[int, set[str]] = {}

    def overwritten(self, owner: str, line: int, col: int, attr: str) -> bool:
        """A later definite assignment replaces this binding before anything that stays reads it."""
        i = self._pos.get((owner, line, col))
        if i is None:
            return False
        for j in range(i + 1, len(self.events)):
            k = self.events[j]
            stays = k.owner not in self.p.dropped or (k.owner, k.stmt.line, k.stmt.col) in self.kept_pos
            if j not in self._ev_reads:
                self._ev_reads[j] = self._closure(k.stmt.reads, self.p.mro)
            if stays and attr in self._ev_reads[j]:
                return False
            if (
                k.stmt.kind == InitStmtKind.ASSIGN
                and k.stmt.attr == attr
                and k.definite
                and k.owner not in self.p.dropped
            ):
                return True
        return False

    def _closure(self, names: Iterable[str], mro: list[str]) -> set[str]:
        out: set[str] = set()
        for a in names:
            r = self.p.index.resolve_method(mro, a)
            if r is None:
                out.add(a)
            else:
                out |= set(method_reads(self.p.index, mro, [r], "called in __init__").reads)
        return out

    def _dead_built(self, qn: str) -> bool:
        """Built only by dropped ``__init__`` statements the inliner does not keep."""
        sites = self.p.analyzer.sites.get(qn, [])
        if not sites:
            return False
        for path, line in sites:
            inside = any(a <= line <= b for a, b in self._init_ranges.get(path, []))
            kept = any(p == path and a <= line <= b for p, a, b in self.kept_ranges)
            if not inside or kept:
                return False
        return True

    def external(self, attr: str) -> bool:
        key = (attr, len(self.kept_ranges))
        if key in self._cache:
            return self._cache[key]
        ext = self.p.analyzer.ext
        hit = False
        for a, mod in ext.by_attr.get(attr, []):
            if (
                a.in_class is not None
                and a.in_class in self.p.dropped
                and (a.in_class, a.in_function) not in self.an.reach.methods
            ):
                continue  # inside a dropped class's method that does not run on this class
            if a.in_class is not None and self._dead_built(a.in_class):
                continue
            if ext.could_hold(a, mod, self.p.cls)[0]:
                hit = True
                break
        self._cache[key] = hit
        return hit

    def stays(self, attrs: Iterable[str], extra: set[str]) -> bool:
        return any(a in self.reads or a in extra or self.external(a) for a in attrs)
