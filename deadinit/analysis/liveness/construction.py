"""Transitive deadness across construction: a value only handed to an object that never uses it.

``B(buf=self.kv[i])`` reads ``self.kv``, but only to give it to ``B``.  It counts as a read
only if the parameter ``buf`` reaches something live on ``B``: its whole ``__init__`` chain
(``semantics.construction_args.param_flow``) stores it only into attributes whose assignment
``B``'s own liveness fixpoint finds dead (or reads it only to compute the value of such an
assignment: ``self.rows = buf.shape[0]`` with ``rows`` dead on ``B``), hands it only to
parents' ``__init__`` that do the same, or tests it against ``None``.  Anything else (another
call, a method called on it, a condition, a return, a rebinding, a store that is live or into a
property or class-level descriptor, a dynamic access that may reach the attribute, a class built
by a decorator, a metaclass, ``__new__`` or with its own ``__setattr__``) makes it a read, as does
going deeper than ``MAX_DEPTH`` constructions (A builds B builds C ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deadinit.analysis.facts import AttrFact, Fixpoint
from deadinit.analysis.flow.chain import Chain, ChainStmt
from deadinit.analysis.reads.unsure import unsure_for
from deadinit.index.project_index import ProjectIndex
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.kinds import AllocKind, InitStmtKind, ParamKind
from deadinit.model.qualnames import short_name
from deadinit.model.summary import InitStmt, MethodSummary, Pattern
from deadinit.semantics.construction_args import PARAM_CALL, PARAM_COMPUTE, PARAM_INIT, PARAM_STORE, PARAM_TEST, Slot

NEVER_RUNS = "never runs"
MAX_DEPTH = 3  # constructions followed from the class analysed
MAX_HOPS = 30  # parent ``__init__`` calls followed inside one construction
HARMLESS_BASES = frozenset({"object", "abc.ABC", "typing.Generic"})  # bases that add no ``__init__``/``__new__``


@dataclass
class ClassLiveness:
    """The liveness fixpoint of one class (``fixpoint`` None: constructing it raises)."""

    cls: str
    chain: Chain
    order: list[str]  # the MRO
    unsure: list[tuple[str, Pattern]]
    fixpoint: Fixpoint | None
    read_why: dict[str, str]


@dataclass(frozen=True)
class DeadStore:
    attr: str  # the attribute of the constructed class the value becomes (or is read to compute)
    why: str  # "overwritten at x.py:12" / "never read"
    computed: bool = False  # the value is only read to compute the attribute's value, not stored as it


def bound_param(method: MethodSummary, slot: Slot) -> str | None:
    """The parameter of ``method`` an argument in ``slot`` binds to (None: ``*args``/``**kwargs`` or no such one)."""
    if isinstance(slot, int):
        positional = [p for p in method.params if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL)]
        return positional[slot].name if slot < len(positional) else None
    named = [p for p in method.params if p.kind in (ParamKind.NORMAL, ParamKind.KWONLY) and p.name == slot]
    return named[0].name if named else None


def _shown(slot: Slot) -> str:
    return f"{slot}=..." if isinstance(slot, str) else f"<argument {slot + 1}>"


class ConstructionFlow:
    """Which values handed to a project class's constructor nothing live on the built object keeps."""

    def __init__(self, index: ProjectIndex, liveness: Callable[[str, int], ClassLiveness | None]):
        self.index = index
        self.liveness = liveness  # (class, depth) -> its liveness, memoised by the analyzer

    def dead_passes(self, c: ChainStmt, attrs: set[str], depth: int) -> dict[str, str]:
        """attr -> why, for each of ``attrs`` that statement ``c`` reads only to hand to constructors
        whose parameter reaches nothing live."""
        by_attr: dict[str, list[tuple[str, Slot]]] = {}
        for attr, callee, slot in c.stmt.passed:
            if attr in attrs:
                by_attr.setdefault(attr, []).append((callee, slot))
        out: dict[str, str] = {}
        module = self.index.class_module[c.owner]
        for attr, passes in by_attr.items():
            whys = []
            for callee, slot in passes:
                qn = self.index.resolve(module, callee)
                why = self.param_fate(qn, slot, depth + 1) if qn is not None and qn in self.index.classes else None
                if why is None:
                    break
                whys.append(f"`{short_name(str(qn))}({_shown(slot)})`, {why}")
            else:
                out[attr] = f"`self.{attr}` is read only to build " + "; and ".join(whys)
        return out

    def param_fate(self, cls: str, slot: Slot, depth: int) -> str | None:
        """Why the argument in ``slot`` of ``cls(...)`` reaches nothing live on the built object, or None."""
        built = self._built_init(cls, slot, depth)
        if built is None:
            return None
        lv, owner, method, param = built
        stores = self._fate(lv, owner, method, param, depth, 0)
        if stores is None:
            return None
        if not stores:
            return f"whose `__init__` never uses it (parameter `{param}`)"
        handed = [s.why for s in stores if not s.attr]
        kept = list(dict.fromkeys(s for s in stores if s.attr))  # a value mentioned twice in one computation
        parts = []
        if len(kept) == 1:
            how = "is read only to compute" if kept[0].computed else "becomes"
            parts.append(f"whose `{kept[0].attr}` it {how}, which is dead on `{short_name(cls)}` ({kept[0].why})")
        elif kept:
            shown = ", ".join(f"`{s.attr}` ({'computed from it, ' if s.computed else ''}{s.why})" for s in kept)
            parts.append(f"whose {shown} it becomes, all dead on `{short_name(cls)}`")
        parts += [f"which hands it to {h}" for h in handed]
        return "; ".join(parts)

    def _built_init(self, cls: str, slot: Slot, depth: int) -> tuple[ClassLiveness, str, MethodSummary, str] | None:
        """Of ``cls(...)`` built ``depth`` constructions deep: its liveness, the first ``__init__`` (owner and
        method) and the parameter ``slot`` binds; None when the class is not plain or that is not known."""
        lv = self.liveness(cls, depth) if depth <= MAX_DEPTH and self._plain_class(cls) else None
        if lv is None or lv.fixpoint is None or lv.chain.reruns:
            return None
        first = self.index.resolve_method(lv.order, "__init__")
        param = bound_param(first[1], slot) if first is not None else None
        if first is None or param is None:
            return None
        return lv, first[0], first[1], param

    def _plain_class(self, cls: str) -> bool:
        """Calling it runs its ``__init__`` chain on a new instance of exactly it, as far as we know."""
        mro = self.index.mro(cls)
        if not mro or any(b.name not in HARMLESS_BASES for b in self.index.external_bases(cls)):
            return False
        for qn in mro:
            c = self.index.classes[qn]
            if c.decorators or c.keywords or {"__new__", "__setattr__"} & set(c.methods):
                return False
        return True

    def _fate(
        self, lv: ClassLiveness, owner: str, method: MethodSummary, param: str, depth: int, hops: int
    ) -> list[DeadStore] | None:
        """The dead attributes ``param`` of ``owner.__init__`` becomes (None: it reaches something live)."""
        if hops > MAX_HOPS or lv.fixpoint is None:
            return None
        out: list[DeadStore] = []
        for name, kind, target, line, callee_name in method.param_flow:
            if name != param or kind == PARAM_TEST:
                continue
            if kind in (PARAM_STORE, PARAM_COMPUTE):
                store = self._dead_store(lv, owner, str(target), line)
                if store is None:
                    return None
                if store.why != NEVER_RUNS:
                    out.append(DeadStore(store.attr, store.why, kind == PARAM_COMPUTE))
            elif kind == PARAM_INIT:
                called = next(
                    (qn for qn, (caller, st, _) in lv.chain.calls.items() if caller == owner and st.line == line),
                    None,
                )
                if called is None:
                    if self._never_runs(lv, owner, line, "super_init", None):
                        continue
                    return None
                callee = self.index.classes[called].methods["__init__"]
                nxt = bound_param(callee, target)
                deeper = self._fate(lv, called, callee, nxt, depth, hops + 1) if nxt is not None else None
                if deeper is None:
                    return None
                out.extend(deeper)
            elif kind == PARAM_CALL:
                built = self.index.resolve(self.index.class_module[owner], callee_name)
                known = built is not None and built in self.index.classes
                why = self.param_fate(str(built), target, depth + 1) if known else None
                if why is not None:
                    out.append(DeadStore("", f"`{short_name(str(built))}({_shown(target)})`, {why}"))
                    continue
                store = (
                    self._into_dead_object(lv, owner, line, callee_name, str(built), target, depth) if known else None
                )
                if store is None:
                    return None
                if store.why != NEVER_RUNS:
                    out.append(store)
            else:
                return None
        return out

    def _into_dead_object(
        self, lv: ClassLiveness, owner: str, line: int, callee: str, built: str, slot: Slot, depth: int
    ) -> DeadStore | None:
        """``self.updater = Updater(buf)`` (or a list of such): the object built is stored, whole, into an
        attribute that is dead, and its ``__init__`` only keeps the argument in its own attributes (no call,
        no read of them while it runs): what it keeps dies with it.  None: not so."""
        stmt = next(
            (
                c.stmt
                for c in lv.chain.stmts
                if c.owner == owner and c.stmt.line == line and c.stmt.kind == InitStmtKind.ASSIGN
            ),
            None,
        )
        alloc = stmt.alloc if stmt is not None else None
        made = alloc.element if alloc is not None and alloc.kind == AllocKind.CONTAINER else alloc
        if stmt is None or stmt.attr is None or made is None or made.callee != callee:
            return None
        store = self._dead_store(lv, owner, stmt.attr, line)
        if store is None or not self._kept_inside(built, slot, depth + 1):
            return None
        if store.why == NEVER_RUNS:
            return store
        return DeadStore(store.attr, f"{store.why}; `{short_name(built)}` keeps it only in its own attributes", True)

    def _kept_inside(self, cls: str, slot: Slot, depth: int) -> bool:
        """The argument in ``slot`` of ``cls(...)`` is only stored into, or tested by, the built object's own
        attributes, which nothing in its ``__init__`` chain reads, calls a method of, or hands on."""
        built = self._built_init(cls, slot, depth)
        if built is None:
            return False
        lv, _, method, param = built
        stmts = [c.stmt for c in lv.chain.stmts]
        if any(st.self_calls or st.passes_self or st.method or st.dynamic for st in stmts):
            return False
        stored: set[str] = set()
        for name, kind, target, _line, _callee in method.param_flow:
            if name != param or kind == PARAM_TEST:
                continue
            if kind not in (PARAM_STORE, PARAM_COMPUTE):
                return False
            stored.add(str(target))
        classes = [self.index.classes[qn] for qn in lv.order]
        if any(a in c.methods or a in c.class_attrs for c in classes for a in stored):  # code runs on the store
            return False
        return not any(set(st.reads) & stored for st in stmts)

    def _dead_store(self, lv: ClassLiveness, owner: str, attr: str, line: int) -> DeadStore | None:
        """The store of a parameter into ``self.<attr>`` at ``line``: dead (``attr`` "" when it never runs), or None."""
        fp = lv.fixpoint
        assert fp is not None
        found = [
            i
            for i, e in enumerate(fp.events)
            if e.owner == owner and e.stmt.line == line and e.stmt.attr == attr and e.stmt.kind == InitStmtKind.ASSIGN
        ]
        classes = [self.index.classes[qn] for qn in lv.order]
        if any(attr in c.methods or attr in c.class_attrs for c in classes):  # a property or descriptor: code runs
            return None
        if not found:
            return DeadStore(attr, NEVER_RUNS) if self._never_runs(lv, owner, line, "assign", attr) else None
        if any(i in fp.effective for i in found) or unsure_for(lv.unsure, attr, self.index, lv.order):
            return None
        killer = next((fp.killed[i] for i in found if i in fp.killed), None)
        if killer is not None:
            k = fp.events[killer]
            return DeadStore(attr, f"overwritten at {k.path}:{k.stmt.line}")
        return DeadStore(attr, "never read")

    @staticmethod
    def _never_runs(lv: ClassLiveness, owner: str, line: int, kind: str, attr: str | None) -> bool:
        stmts: list[InitStmt] = [
            c.stmt
            for c in lv.chain.stmts
            if c.owner == owner and c.stmt.line == line and c.stmt.kind == kind and c.stmt.attr == attr
        ]
        return bool(stmts) and all(
            c.active is False
            for c in lv.chain.stmts
            if c.owner == owner and c.stmt.line == line and c.stmt.kind == kind and c.stmt.attr == attr
        )


def handing_on(fact: AttrFact, fp: Fixpoint) -> list[int]:
    """The statements that stay and hand the fact's value, between its allocation and its replacement, to
    constructed objects that never use it (``Fixpoint.transit``)."""
    starts = [i for c in fact.stmts if (i := fp.position(c)) is not None]
    if fact.part_of or not starts:  # a part of another object: not one of this chain's bindings
        return []
    start = min(starts)
    end = len(fp.events)
    if fact.killer is not None and (k := fp.position(fact.killer)) is not None:
        end = k
    return [
        j
        for j, passes in sorted(fp.transit.items())
        if start < j < end
        and fact.attr in passes
        and (j in fp.effective or fp.events[j].stmt.kind not in (InitStmtKind.ASSIGN, InitStmtKind.FILL))
    ]


def handed_on(fact: AttrFact, fp: Fixpoint) -> str:
    """Why skipping the allocation would break code that stays: it still hands the value to a constructor."""
    for j in handing_on(fact, fp):
        c = fp.events[j]
        if fact.attr in c.stmt.configures:
            return (
                f"{fact.show(c.owner)}.__init__ (line {c.stmt.line}) still configures self.{fact.attr} (checks its "
                "class or sets a flag on it): without the allocation that code would act on the placeholder"
            )
        return (
            f"{fact.show(c.owner)}.__init__ (line {c.stmt.line}) still hands self.{fact.attr} to a constructor: "
            "the value is still used by code that stays, which would fail without it"
        )
    return ""


def transit_evidence(fact: AttrFact, fp: Fixpoint) -> list[Evidence]:
    """What the kept statements that hand the value on build, and why that is not a read."""
    return [
        Evidence(EvidenceKind.READ_NOT_COUNTED, fp.transit[j][fact.attr], fp.events[j].path, fp.events[j].stmt.line)
        for j in handing_on(fact, fp)
    ]
