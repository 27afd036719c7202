"""What the liveness fixpoint found about each attribute an ancestor's ``__init__`` allocates.

``build_facts`` turns the fixpoint's result into ``AttrFact``s: which binding a later
assignment replaced, and where; whether anything that counts reads the attribute;
which live attributes keep its value; the evidence chain.  Whether a fact is a
finding, and of which rule, is the rules' decision (``deadinit.rules``); the
analyzer keeps the facts some rule reports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from deadinit.analysis.chain import ChainStmt
from deadinit.analysis.conditions import condition_text
from deadinit.analysis.external import ExternalReads
from deadinit.analysis.naming import display_names
from deadinit.analysis.reach import Reach, short
from deadinit.analysis.symbolic import Size
from deadinit.analysis.unsure import unsure_for
from deadinit.analysis.values import Context
from deadinit.index import dependencies
from deadinit.index.project_index import ProjectIndex
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.summary import AllocInfo, Expr, Pattern

if TYPE_CHECKING:
    from deadinit.analysis.returns import Binding, ReturnResolver
    from deadinit.analysis.sizes import SizeModel


@dataclass(frozen=True)
class Overwrite:
    binding: ChainStmt  # the ancestor's statement whose value is replaced
    by: ChainStmt  # the later definite assignment (or element-by-element refill) that replaces it


@dataclass
class AttrFact:
    cls: str
    attr: str
    owner: str  # the ancestor whose __init__ allocates it
    stmts: list[ChainStmt]
    alloc: AllocInfo
    kind: str
    overwrites: list[Overwrite] = field(default_factory=list)  # in the order of the replacing statements
    allocations_overwritten: bool = False  # every binding that allocates is replaced
    read: bool = False  # something that counts reads the attribute (after the last binding, or outside the chain)
    estimated_bytes: int | None = None  # the size, when it is a number known in full
    size: Size | None = None  # the estimate: a number or an expression over names, maybe a lower bound
    conditional: bool = False
    condition: str | None = None  # what must hold for the allocation to happen, when nothing decides it
    evidence: list[Evidence] = field(default_factory=list)
    unsure: list[str] = field(default_factory=list)
    unsafe_reason: str = ""  # why fixing it may change behaviour ("" : the fix is safe); see analysis.fix_level
    feeds: list[str] = field(default_factory=list)  # dead attributes built from it
    kept_by: list[str] = field(default_factory=list)  # live attributes built from the overwritten value
    names: dict[str, str] = field(default_factory=dict)  # qualname -> name shown (module parts where names clash)

    def show(self, qualname: str) -> str:
        """The class's name in messages: ``Foo``, or ``llama.Foo`` when another class of the finding is a Foo."""
        return self.names.get(qualname) or short(qualname)

    followed: tuple[Evidence, ...] = ()  # the project functions the allocation is made in, outermost first
    part_of: str | None = None  # a part of the object self.<part_of> holds (attr is the path ``a.b``)
    handed_on: str = ""  # why no fix can skip it: code that stays hands it to a constructor (analysis.construction)

    @property
    def killer(self) -> ChainStmt | None:
        """The statement that replaces the value last, if any."""
        return self.overwrites[-1].by if self.overwrites else None


@dataclass
class Fixpoint:
    """The liveness fixpoint over one class's flattened ``__init__`` chain."""

    events: list[ChainStmt]  # the chain statements that may run
    reads: list[set[str]]  # per event: the attributes it reads (through called methods too)
    effective: set[int]  # events whose value something that counts reads
    killed: dict[int, int]  # event -> the later event that replaces its value before a read that counts
    kept: dict[int, list[str]]  # overwritten event -> live attributes built from its value
    read_between: dict[int, list[str]]  # event whose elements are replaced one by one -> reads before that
    live: set[str]  # attributes read by something that counts
    dead_classes: frozenset[str] = frozenset()  # classes constructed only by statements that are not effective
    # event -> attribute it reads only to hand to constructed objects that never use it -> why (analysis.construction)
    transit: dict[int, dict[str, str]] = field(default_factory=dict)


class Analysis(Protocol):
    """What the facts need of ``liveness.Analyzer``."""

    index: ProjectIndex
    ext: ExternalReads
    sizes: SizeModel
    returns: ReturnResolver
    reported: Callable[[AttrFact], bool]

    def classify(self, alloc: AllocInfo | None, module: str) -> str | None: ...


def _context(index: ProjectIndex, events: list[ChainStmt], upto: int) -> Context:
    """Where the allocation of event ``upto`` is evaluated: its ``__init__``'s parameters and the
    ``self`` attributes the chain assigned before it."""

    def at(c: ChainStmt, self_values: dict[str, tuple[Expr, Context]]) -> Context:
        m = index.classes[c.owner].methods.get("__init__")
        params = {p.name: p for p in m.params} if m is not None else {}
        return Context(index.class_module[c.owner], {}, c.env, params, self_values)

    vals: dict[str, tuple[Expr, Context]] = {}
    for c in events[:upto]:
        st = c.stmt
        if st.kind == "assign" and st.attr and st.value is not None and c.active is True:
            vals[st.attr] = (st.value, at(c, {}))
    return at(events[upto], vals)


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
        elif st.call is not None and st.kind == "assign":
            got = an.returns.resolve(st.call, module, mro)
            kind = an.classify(got.alloc, got.module) if got is not None else None
            if got is not None and kind:
                return FirstAllocation(i, got.alloc, kind, got.module, got.steps, got.bindings)
    return None


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
        if c.owner == cls or c.stmt.kind not in ("assign", "fill") or c.stmt.attr is None:
            continue
        groups.setdefault((c.owner, c.stmt.attr), []).append(i)
    facts = []
    names = display_names(index, {cls, *mro, *(c.owner for c in events)})
    for (owner, attr), idxs in groups.items():
        live_idxs = [i for i in idxs if i in effective]
        if any(events[i].stmt.fill_kind == "append" and i in killed and i not in effective for i in idxs):
            # elements replaced one by one: the (cheap) empty list itself stays
            live_idxs = [i for i in live_idxs if events[i].stmt.value != ("empty",)]
        kept_by = sorted({a for i in live_idxs for a in kept.get(i, [])})
        if live_idxs and not (kept_by and all(i in kept for i in live_idxs)):
            continue
        module = index.class_module[owner]
        found = _first_allocation(an, events, idxs, module, mro)
        if found is None:
            continue
        rep, alloc, kind = found.event, found.alloc, found.kind
        fills = [i for i in idxs if events[i].stmt.kind == "fill"]
        assigns = [i for i in idxs if events[i].stmt.kind == "assign"]
        if events[rep].stmt.kind == "fill" and assigns and any(events[j].stmt.value == ("empty",) for j in assigns):
            kind = f"list of {kind}"
        alloc_idxs = [i for i in idxs if events[i].stmt.kind == "assign" and events[i].stmt.value != ("empty",)] or [
            i for i in idxs if events[i].stmt.alloc is not None or events[i].stmt.call is not None
        ]
        overwritten = sorted((i for i in idxs if i in killed), key=lambda i: killed[i])
        c = events[rep]
        fact = AttrFact(
            cls,
            attr,
            owner,
            [events[i] for i in idxs],
            alloc,
            kind,
            overwrites=[Overwrite(events[i], events[killed[i]]) for i in overwritten],
            allocations_overwritten=all(i in killed for i in alloc_idxs),
            read=attr in fp.live,
            conditional=any(events[i].active is None for i in idxs),
            condition=condition_text(events[rep].open_guards),
            kept_by=kept_by,
            names=names,
        )
        if not reported(fact):
            continue
        ctx = _context(index, events, rep)
        if found.followed:
            ctx = an.sizes.followed_context(ctx, found.bindings)
        size = an.sizes.size(alloc, ctx)
        if alloc.kind not in ("container",) and fills and c.stmt.kind == "fill":
            size = an.sizes.filled(c, size, ctx)  # one element per iteration: n of them for range(n)
        if size is not None and size.exact_bytes == 0:
            continue  # a known-empty allocation wastes nothing worth a finding
        fact.size = size
        fact.estimated_bytes = size.exact_bytes if size is not None else None
        fact.followed = found.followed
        fact.evidence = _evidence(an, fact, fp, idxs, reach, mro)
        fact.evidence[len(idxs) : len(idxs)] = found.followed
        fact.unsure = unsure_for(unsure, attr, an.index, mro)
        facts.append(fact)
    # attributes built from a dead one
    dead = {f.attr for f in facts}
    for f in facts:
        f.feeds = sorted(
            {
                fed
                for i, r in enumerate(fp.reads)
                if (fed := events[i].stmt.attr) is not None
                and f.attr in r
                and events[i].stmt.kind in ("assign", "fill")
                and fed in dead
                and fed != f.attr
                and i not in effective
            }
        )
    return facts


def _evidence(
    an: Analysis, fact: AttrFact, fp: Fixpoint, idxs: list[int], reach: Reach, mro: list[str]
) -> list[Evidence]:
    index = an.index
    events = fp.events
    out = []
    for i in idxs:
        c = events[i]
        cond = "" if c.active is True else " (conditionally)"
        verb = "fills" if c.stmt.kind == "fill" else "assigns"
        out.append(
            Evidence(
                EvidenceKind.ALLOCATED,
                f"{fact.show(c.owner)}.__init__ {verb} self.{fact.attr}{cond}",
                c.path,
                c.stmt.line,
            )
        )
    chain_text = " -> ".join(f"{fact.show(x)}.__init__" for x in _inits(events))
    out.append(Evidence(EvidenceKind.CHAIN, f"runs {chain_text}"))
    if fact.killer is not None:
        k = fact.killer
        if k.stmt.kind == "delete":
            out.append(
                Evidence(
                    EvidenceKind.DELETED,
                    f"{fact.show(k.owner)}.__init__ deletes self.{fact.attr} on every path, "
                    "before any read that counts",
                    k.path,
                    k.stmt.line,
                )
            )
        else:
            out.append(
                Evidence(
                    EvidenceKind.OVERWRITTEN,
                    f"{fact.show(k.owner)}.__init__ re-assigns self.{fact.attr} on every path, "
                    "before any read that counts",
                    k.path,
                    k.stmt.line,
                )
            )
        for i in idxs:
            for note in fp.read_between.get(i, []):
                out.append(
                    Evidence(
                        EvidenceKind.READ_BETWEEN,
                        f"an element is read before being replaced: {note.replace('(read) ', 'self.')}; "
                        "the fix must keep that value",
                    )
                )
        for h in fact.kept_by:
            out.append(
                Evidence(
                    EvidenceKind.KEPT_ALIVE,
                    f"the first value lives on inside self.{h}, which is live: not fixable by skipping the allocation",
                )
            )
    checked = sorted({f"{fact.show(o)}.{m}" for o, m in reach.methods})
    listed = ", ".join(checked[:40]) + (" ..." if len(checked) > 40 else "")
    text = (
        f"{len(checked)} methods reachable on {fact.show(fact.cls)} checked: {listed}"
        if checked
        else f"no method is reachable on {fact.show(fact.cls)} besides __init__"
    )
    out.append(Evidence(EvidenceKind.CHECKED, text))
    # reads that exist but do not count
    reached = set(reach.methods)
    for qn in mro:
        for name, m in index.classes[qn].methods.items():
            if name == "__init__":
                continue
            if any(a == fact.attr for a, _, _ in m.reads) and (qn, name) not in reached:
                res = index.resolve_method(mro, name)
                if res is not None and res[0] != qn:
                    why = f"overridden by {fact.show(res[0])}.{name}"
                else:
                    why = "not reachable on this class (no entry point calls it)"
                line = next(ln for a, ln, _ in m.reads if a == fact.attr)
                out.append(
                    Evidence(
                        EvidenceKind.READ_NOT_COUNTED,
                        f"{fact.show(qn)}.{name} reads self.{fact.attr} but is {why}",
                        index.path_of(qn),
                        line,
                    )
                )
    for c in events:
        if (
            fact.attr in c.stmt.reads
            and c.stmt.kind in ("assign", "fill")
            and c.stmt.attr != fact.attr
            and c.owner != fact.cls
        ):
            out.append(
                Evidence(
                    EvidenceKind.READ_NOT_COUNTED,
                    f"{fact.show(c.owner)}.__init__ reads it only to build self.{c.stmt.attr}, which is dead too",
                    c.path,
                    c.stmt.line,
                )
            )
    for i, (a, mod) in enumerate(an.ext.by_attr.get(fact.attr, [])[:20]):
        dependencies.note(("attr_line", (fact.attr, i)))  # the evidence names the read's line
        ok, reason = an.ext.could_hold(a, mod, fact.cls)
        if not ok:
            out.append(
                Evidence(
                    EvidenceKind.EXTERNAL_NOT_COUNTED,
                    f"`{a.receiver}.{fact.attr}`: {reason}",
                    index.paths[mod],
                    a.line,
                )
            )
        else:
            out.append(
                Evidence(
                    EvidenceKind.EXTERNAL_NOT_COUNTED,
                    f"`{a.receiver}.{fact.attr}` {_why_not_counted(fact, a.in_class)}",
                    index.paths[mod],
                    a.line,
                )
            )
    return out


def _why_not_counted(fact: AttrFact, in_class: str | None) -> str:
    """Why a read whose receiver may be the class does not keep the allocation alive."""
    k = fact.killer
    if k is not None and fact.allocations_overwritten:
        return f"may read the attribute, but only after {fact.show(k.owner)}.__init__ replaced the value"
    if in_class is not None:
        return f"is in {short(in_class)}, a class built only by dead statements"
    return "may read the attribute but was not counted as a read"


def _inits(events: list[ChainStmt]) -> list[str]:
    """The owners of the chain's statements, each once, in the order they run."""
    return list(dict.fromkeys(c.owner for c in events))
