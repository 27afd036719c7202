"""How much of its parent a subclass still uses (DI003, ``explain``, the direct-base fix).

For a class C with direct project parent P, the *dropped* classes are P and every
ancestor of P up to (not including) the *suggested base*: the nearest ancestor
beyond P whose reached behaviour C still needs (a method C reaches resolves to
it or to one of its ancestors, or one of their ``__init__`` statements builds
something C needs), else ``object``.  Over what can run on C (the DI002
reachability) the dropped classes' members fall into:

* methods (``__init__`` and interface stubs aside: a body that only raises
  ``NotImplementedError`` or is ``pass`` / ``...`` / a docstring): *reused* when C
  still resolves to them and reaches them, *overridden* when C (or a class
  between) defines them, *dead* otherwise;
* ``__init__`` attributes: *used* when an assignment of it is effective for C
  (the DI001/DI002 fixpoint), *overwritten* / *dead* when it is a DI001 / DI002
  fact, *unused* when it is a plain value nothing reads;
* class attributes: *read* when a reached method reads ``self.X``, code outside
  may read ``obj.X`` on an instance, or the suggested base defines the same
  name (generic code reads it off any instance), *overridden* or *unread*
  otherwise.

Metric: ``share = (reused methods + used allocations) / (methods + allocations)``,
counting only allocations (what DI001/DI002 call an allocation), not plain
references.  DI003 reports C when ``share <= Settings.di003_threshold`` (default
0.25), at least one dropped allocation is dead (there is redundant
initialization to remove) and C has at least one non-stub override.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deadinit.analysis.analyzer import Analyzer, ClassAnalysis
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.analysis.reads.reach import Reach, method_reads
from deadinit.index.dependencies import note
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import (
    AttrStatus,
    AttrUseStatus,
    BaseKind,
    ClassAttrStatus,
    InitStmtKind,
    MethodStatus,
)
from deadinit.model.qualnames import short_name

_BINDINGS = (InitStmtKind.ASSIGN, InitStmtKind.FILL)


@dataclass
class MethodUse:
    owner: str
    name: str
    lines: int
    status: MethodStatus
    why: str = ""


PLAIN = "plain"  # AttrUse.kind of an attribute that holds no allocation


@dataclass
class AttrUse:
    owner: str
    attr: str
    kind: str  # allocation kind, or PLAIN
    status: AttrUseStatus
    line: int = 0
    why: str = ""
    bytes: int | None = None  # estimated size, for dead allocations

    @property
    def allocation(self) -> bool:
        return self.kind != PLAIN


@dataclass
class ClassAttrUse:
    owner: str
    name: str
    line: int
    status: ClassAttrStatus
    why: str = ""


@dataclass
class Reuse:
    cls: str
    parent: str
    suggestion: str  # qualname of the suggested base, or "object"
    dropped: list[str]
    methods: list[MethodUse] = field(default_factory=list)
    attrs: list[AttrUse] = field(default_factory=list)
    class_attrs: list[ClassAttrUse] = field(default_factory=list)
    super_into_dropped: list[tuple[str, str, str]] = field(default_factory=list)  # (caller, method, resolved owner)
    external_bases: list[str] = field(default_factory=list)  # non-project bases of dropped classes
    dead_bytes: int | None = None
    threshold: float = 0.25

    # -- figures -------------------------------------------------------------
    def _m(self, *status: MethodStatus) -> list[MethodUse]:
        return [m for m in self.methods if m.status in status]

    @property
    def counted_methods(self) -> list[MethodUse]:
        return self._m(MethodStatus.REUSED, MethodStatus.OVERRIDDEN, MethodStatus.DEAD)

    @property
    def reused_methods(self) -> list[MethodUse]:
        return self._m(MethodStatus.REUSED)

    @property
    def allocations(self) -> list[AttrUse]:
        return [a for a in self.attrs if a.allocation and a.status != AttrUseStatus.SKIPPED]

    @property
    def used_allocations(self) -> list[AttrUse]:
        return [a for a in self.allocations if a.status == AttrUseStatus.USED]

    @property
    def dead_allocations(self) -> list[AttrUse]:
        return [a for a in self.allocations if a.status in (AttrUseStatus.DEAD, AttrUseStatus.OVERWRITTEN)]

    @property
    def share(self) -> float:
        total = len(self.counted_methods) + len(self.allocations)
        if total == 0:
            return 1.0
        return (len(self.reused_methods) + len(self.used_allocations)) / total

    @property
    def flagged(self) -> bool:
        return (
            self.share <= self.threshold
            and bool(self.dead_allocations)
            and bool(self._m(MethodStatus.OVERRIDDEN))
            and not self.external_bases
        )

    # -- what would move -----------------------------------------------------
    @property
    def move_attrs(self) -> list[str]:
        seen: list[str] = []
        for a in self.attrs:
            if a.status == AttrUseStatus.USED and a.attr not in seen:
                seen.append(a.attr)
        return seen

    @property
    def move_methods(self) -> list[MethodUse]:
        return self.reused_methods

    @property
    def move_class_attrs(self) -> list[ClassAttrUse]:
        return [c for c in self.class_attrs if c.status == ClassAttrStatus.READ]

    def summary(self) -> str:
        cm = self.counted_methods
        al = self.allocations
        return (
            f"{short_name(self.cls)} reuses {len(self.reused_methods)}/{len(cm)} methods and "
            f"{len(self.used_allocations)}/{len(al)} allocations of {short_name(self.parent)} "
            f"(share {self.share:.0%}, threshold {self.threshold:.0%})"
        )


# -- the computation ------------------------------------------------------------
def _needed_owners(reach: Reach, cls: str) -> set[str]:
    """Classes whose methods still run on ``cls`` (attributes and class attributes can move; behaviour stays)."""
    return {o for (o, _m) in reach.methods if o != cls}


def with_init_calls(index: ProjectIndex, an: ClassAnalysis | None, reach: Reach, cls: str) -> Reach:
    """``reach`` plus the methods that ``__init__`` statements which still run call (``self.m(...)``)."""
    if an is None:
        return reach
    mro = reach.mro
    events = [c for c in an.chain.stmts if c.active is not False]
    names: set[str] = set()
    for i, c in enumerate(events):
        if c.owner == cls or i in an.effective or (c.stmt.kind not in _BINDINGS and c.active is True):
            names |= {a for a in c.stmt.reads if index.resolve_method(mro, a) is not None}
    out = Reach(reach.cls, mro, dict(reach.methods), dict(reach.reads), list(reach.dynamic))
    for name in sorted(names):
        resolved = index.resolve_method(mro, name)
        if resolved is None:
            continue
        owner, m = resolved
        if (owner, name) not in out.methods:
            method_reads(index, mro, [(owner, m)], "called in __init__", out)
    return out


def suggest_base(index: ProjectIndex, cls: str, parent: str, needed: set[str]) -> str:
    """The nearest ancestor beyond ``parent`` whose behaviour is still needed, else "object"."""
    pmro = index.mro(parent) or [parent]
    for qn in pmro[1:]:
        if qn in needed:
            return qn
    return "object"


def compute_reuse(
    index: ProjectIndex,
    analyzer: Analyzer,
    cls: str,
    threshold: float = 0.25,
    an: ClassAnalysis | None = None,
    parent: str | None = None,
) -> Reuse | None:
    """The reuse table of ``cls`` against its first project base (or ``parent``)."""
    bases = [b.name for b in index.bases(cls) if b.kind == BaseKind.CLASS]
    if not bases:
        return None
    parent = parent or bases[0]
    mro = index.mro(cls)
    if not mro or parent not in mro:
        return None
    if an is None:
        an = analyzer.analyse(cls)
    reach = an.reach if an is not None else analyzer.reach_of(cls)
    reach = with_init_calls(index, an, reach, cls)
    needed = _needed_owners(reach, cls)
    suggestion = suggest_base(index, cls, parent, needed)
    kept = set(index.mro(suggestion) or [suggestion]) if suggestion != "object" else set()
    for other in bases:
        if other != parent:
            kept |= set(index.mro(other) or [other])
    dropped = [qn for qn in mro[1:] if qn not in kept]
    r = Reuse(cls, parent, suggestion, dropped, threshold=threshold)
    gone = set(dropped)
    defining = [qn for qn in index.defining(cls) if qn in gone]  # the dropped classes with more than __init__
    for qn in defining:
        r.external_bases += [b.name for b in index.bases(qn) if b.kind != BaseKind.CLASS]
    _methods(index, r, mro, reach, defining)
    _attrs(index, analyzer, r, an, gone)
    _class_attrs(index, analyzer, r, mro, reach, kept, (defining, gone))
    _super_calls(index, r, mro, reach, gone)
    return r


def _methods(index: ProjectIndex, r: Reuse, mro: list[str], reach: Reach, defining: list[str]) -> None:
    methods = index.methods_on(r.cls)  # what ``resolve_method`` finds on ``mro``
    for qn in defining:
        for name, m in index.classes[qn].methods.items():
            if name == "__init__":
                continue
            res = methods.get(name)
            if m.is_stub:
                status, why = MethodStatus.STUB, "interface stub"
            elif res is not None and res[0] != qn:
                status, why = MethodStatus.OVERRIDDEN, f"overridden by {short_name(res[0])}"
            elif (qn, name) in reach.methods:
                status, why = MethodStatus.REUSED, reach.methods[(qn, name)]
            else:
                status, why = MethodStatus.DEAD, "not reachable on this class"
            r.methods.append(MethodUse(qn, name, m.lines, status, why))


def _attrs(index: ProjectIndex, analyzer: Analyzer, r: Reuse, an: ClassAnalysis | None, gone: set[str]) -> None:
    if an is None:
        return
    events = [c for c in an.chain.stmts if c.active is not False]
    eff_ids = {id(events[i]) for i in an.effective if i < len(events)}
    facts = {(f.owner, f.attr): f for f in an.facts}
    groups: dict[tuple[str, str], list[ChainStmt]] = {}
    for c in an.chain.stmts:
        if c.owner in gone and c.stmt.kind in _BINDINGS and c.stmt.attr:
            groups.setdefault((c.owner, c.stmt.attr), []).append(c)
    total_dead = 0
    any_size = False
    for (owner, attr), stmts in groups.items():
        module = index.class_module[owner]
        kind = next((k for k in (analyzer.classify(c.stmt.alloc, module) for c in stmts if c.stmt.alloc) if k), None)
        line = stmts[0].stmt.line
        fact = facts.get((owner, attr))
        size = fact.estimated_bytes if fact is not None else None
        kept = fact is not None and fact.verdict is not None and fact.verdict.status == AttrStatus.KEPT_ALIVE
        if fact is not None and not kept:
            status = AttrUseStatus.OVERWRITTEN if fact.killer is not None else AttrUseStatus.DEAD
            kind = fact.kind
            if fact.estimated_bytes is not None:
                total_dead += fact.estimated_bytes
                any_size = True
            why = "DI001" if fact.killer is not None else "DI002"
        elif fact is not None:  # overwritten, but a live attribute built from it holds the value
            status, why = AttrUseStatus.USED, "kept alive by " + ", ".join(f"self.{k}" for k in fact.kept_by)
        elif attr in an.live or any(id(c) in eff_ids for c in stmts):  # live, as explain's tree says
            status, why = AttrUseStatus.USED, an.read_why.get(attr, "used within the __init__ chain")
        elif all(c.active is False for c in stmts):
            status, why = AttrUseStatus.SKIPPED, "never runs for this class"
        else:
            status, why = AttrUseStatus.UNUSED, "nothing that counts reads it"
        r.attrs.append(AttrUse(owner, attr, kind or PLAIN, status, line, why, size))
    r.dead_bytes = total_dead if any_size else None


def _class_attrs(
    index: ProjectIndex,
    analyzer: Analyzer,
    r: Reuse,
    mro: list[str],
    reach: Reach,
    kept: set[str],
    dropped: tuple[list[str], set[str]],
) -> None:
    """``dropped``: the dropped classes that define more than an ``__init__``, and all of them."""
    ext = analyzer.ext
    defining, gone = dropped
    for qn in defining:
        for name, line in index.classes[qn].class_attrs.items():
            if name in index.classes[qn].methods:
                continue
            owner = next(
                (
                    c
                    for c in index.defining(r.cls)  # the classes of ``mro`` with class attributes among them
                    if name in index.classes[c].class_attrs and name not in index.classes[c].methods
                ),
                qn,
            )
            if owner != qn:
                r.class_attrs.append(
                    ClassAttrUse(qn, name, line, ClassAttrStatus.OVERRIDDEN, f"defined again by {short_name(owner)}")
                )
                continue
            why = ""
            if name in reach.reads:
                o, m, ln = reach.reads[name][0]
                why = f"read by {short_name(o)}.{m} (line {ln})"
            else:
                for i, (a, mod) in enumerate(ext.by_attr.get(name, [])):
                    if a.in_class in gone:
                        continue
                    ok, reason = ext.could_hold(a, mod, r.cls)
                    if ok:
                        note(("attr_line", (name, i)))  # the why names the read's line
                        why = f"read as `{a.receiver}.{name}` at {index.paths[mod]}:{a.line} ({reason})"
                        break
            if not why and any(name in index.classes[k].class_attrs for k in kept):
                why = "the new base defines it too: generic code reads it off any instance"
            status = ClassAttrStatus.READ if why else ClassAttrStatus.UNREAD
            r.class_attrs.append(ClassAttrUse(qn, name, line, status, why or "no read found"))


def _super_calls(index: ProjectIndex, r: Reuse, mro: list[str], reach: Reach, gone: set[str]) -> None:
    """``super().m()`` / ``Parent.m(self)`` in code that stays whose target is a dropped class."""
    for owner, name in reach.methods:
        if owner in gone:
            continue
        m = index.classes[owner].methods.get(name)
        if m is None:
            continue
        for target, start in m.super_calls:
            res = index.resolve_super(mro, owner, target, start)
            if res is not None and res[0] in gone:
                r.super_into_dropped.append((f"{short_name(owner)}.{name}", f"super().{target}", res[0]))
        for base, target in m.parent_calls:
            qn = index.resolve(index.class_module[owner], base)
            if qn in gone:
                r.super_into_dropped.append((f"{short_name(owner)}.{name}", f"{base}.{target}(self)", qn))


def to_dict(r: Reuse) -> dict[str, Any]:
    """Plain JSON-able form of the table (findings' ``extra``, ``--format json``)."""
    return {
        "parent": r.parent,
        "suggested_base": r.suggestion,
        "dropped": list(r.dropped),
        "share": round(r.share, 3),
        "threshold": r.threshold,
        "methods": [
            {"owner": m.owner, "name": m.name, "lines": m.lines, "status": m.status, "why": m.why} for m in r.methods
        ],
        "attributes": [
            {"owner": a.owner, "name": a.attr, "kind": a.kind, "status": a.status, "line": a.line, "why": a.why}
            for a in r.attrs
        ],
        "class_attributes": [
            {"owner": c.owner, "name": c.name, "line": c.line, "status": c.status, "why": c.why} for c in r.class_attrs
        ],
        "move": {
            "attributes": r.move_attrs,
            "methods": [{"name": m.name, "lines": m.lines} for m in r.move_methods],
            "class_attributes": [c.name for c in r.move_class_attrs],
        },
        "super_calls_into_dropped": [list(x) for x in r.super_into_dropped],
    }
