"""The evidence lines of a fact: where the attribute is allocated, the ``__init__`` chain that
runs, what replaces it, and the reads that exist but do not count.

What every fact of one class shares (the chain, the methods checked, who reads which
attribute) is worked out once per class (``ClassEvidence``), so a class deep in a long
hierarchy costs its facts' own lines, not the whole chain again for each fact.
"""

from __future__ import annotations

from dataclasses import dataclass

from deadinit.analysis.fact_records import Analysis, AttrFact, Fixpoint
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.analysis.reads.reach import Reach
from deadinit.index import dependencies
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.kinds import InitStmtKind
from deadinit.model.qualnames import short_name

_ASSIGNS = ("assign", "fill")


@dataclass(frozen=True)
class MethodRead:
    owner: str
    method: str
    line: int  # the method's first read of the attribute


@dataclass(frozen=True)
class ClassEvidence:
    """What the evidence of every fact of one class shares."""

    chain: Evidence
    checked: Evidence
    reached: frozenset[tuple[str, str]]
    method_reads: dict[str, list[MethodRead]]  # attr -> the MRO's methods other than __init__ that read it
    init_reads: dict[str, list[ChainStmt]]  # attr -> ancestors' chain statements that read it to build another


def class_evidence(an: Analysis, fact: AttrFact, fp: Fixpoint, reach: Reach, mro: list[str]) -> ClassEvidence:
    """The shared part, named as ``fact`` names classes (every fact of a class names them alike)."""
    bodies = dict.fromkeys((c.owner, c.method) for c in fp.events)  # the __init__s and helpers, as they ran
    chain_text = " -> ".join(f"{fact.show(x)}.{m}" for x, m in bodies)
    checked = sorted({f"{fact.show(o)}.{m}" for o, m in reach.methods})
    listed = ", ".join(checked[:40]) + (" ..." if len(checked) > 40 else "")
    text = (
        f"{len(checked)} methods reachable on {fact.show(fact.cls)} checked: {listed}"
        if checked
        else f"no method is reachable on {fact.show(fact.cls)} besides __init__"
    )
    checked_line = Evidence(EvidenceKind.CHECKED, text)
    method_reads: dict[str, list[MethodRead]] = {}
    for qn in an.index.defining(mro[0]):  # the classes of ``mro`` with methods besides __init__ among them
        for name, m in an.index.classes[qn].methods.items():
            if name == "__init__":
                continue
            first: dict[str, int] = {}
            for a, ln, _ in m.reads:
                first.setdefault(a, ln)
            for a, ln in first.items():
                method_reads.setdefault(a, []).append(MethodRead(qn, name, ln))
    init_reads: dict[str, list[ChainStmt]] = {}
    for c in fp.events:
        if c.stmt.kind in _ASSIGNS and c.owner != fact.cls:
            for a in dict.fromkeys(c.stmt.reads):
                init_reads.setdefault(a, []).append(c)
    return ClassEvidence(
        Evidence(EvidenceKind.CHAIN, f"runs {chain_text}"),
        checked_line,
        frozenset(reach.methods),
        method_reads,
        init_reads,
    )


def fact_evidence(
    an: Analysis, fact: AttrFact, fp: Fixpoint, idxs: list[int], shared: ClassEvidence, mro: list[str]
) -> list[Evidence]:
    """The evidence chain of ``fact``, whose statements are the events ``idxs``."""
    out = [_allocated(fact, fp.events[i]) for i in idxs]
    out.append(shared.chain)
    if fact.killer is not None:
        out.append(_replaced(fact, fact.killer))
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
    out.append(shared.checked)
    out += _reads_not_counted(an, fact, shared, mro)
    out += _external_reads(an, fact)
    return out


def _allocated(fact: AttrFact, c: ChainStmt) -> Evidence:
    cond = "" if c.active is True else " (conditionally)"
    verb = "fills" if c.stmt.kind == InitStmtKind.FILL else "assigns"
    return Evidence(
        EvidenceKind.ALLOCATED, f"{fact.show(c.owner)}.{c.method} {verb} self.{fact.attr}{cond}", c.path, c.stmt.line
    )


def _replaced(fact: AttrFact, k: ChainStmt) -> Evidence:
    if k.stmt.kind == InitStmtKind.DELETE:
        kind, verb = EvidenceKind.DELETED, "deletes"
    else:
        kind, verb = EvidenceKind.OVERWRITTEN, "re-assigns"
    return Evidence(
        kind,
        f"{fact.show(k.owner)}.{k.method} {verb} self.{fact.attr} on every path, before any read that counts",
        k.path,
        k.stmt.line,
    )


def _reads_not_counted(an: Analysis, fact: AttrFact, shared: ClassEvidence, mro: list[str]) -> list[Evidence]:
    out = []
    for r in shared.method_reads.get(fact.attr, []):
        if (r.owner, r.method) in shared.reached:
            continue
        res = an.index.resolve_method(mro, r.method)
        if res is not None and res[0] != r.owner:
            why = f"overridden by {fact.show(res[0])}.{r.method}"
        else:
            why = "not reachable on this class (no entry point calls it)"
        out.append(
            Evidence(
                EvidenceKind.READ_NOT_COUNTED,
                f"{fact.show(r.owner)}.{r.method} reads self.{fact.attr} but is {why}",
                an.index.path_of(r.owner),
                r.line,
            )
        )
    for c in shared.init_reads.get(fact.attr, []):
        if c.stmt.attr != fact.attr:
            out.append(
                Evidence(
                    EvidenceKind.READ_NOT_COUNTED,
                    f"{fact.show(c.owner)}.__init__ reads it only to build self.{c.stmt.attr}, which is dead too",
                    c.path,
                    c.stmt.line,
                )
            )
    return out


def _external_reads(an: Analysis, fact: AttrFact) -> list[Evidence]:
    out = []
    for i, (a, mod) in enumerate(an.ext.by_attr.get(fact.attr, [])[:20]):
        dependencies.note(("attr_line", (fact.attr, i)))  # the evidence names the read's line
        ok, reason = an.ext.could_hold(a, mod, fact.cls)
        text = (
            f"`{a.receiver}.{fact.attr}`: {reason}"
            if not ok
            else f"`{a.receiver}.{fact.attr}` {_why_not_counted(fact, a.in_class)}"
        )
        out.append(Evidence(EvidenceKind.EXTERNAL_NOT_COUNTED, text, an.index.paths[mod], a.line))
    return out


def _why_not_counted(fact: AttrFact, in_class: str | None) -> str:
    """Why a read whose receiver may be the class does not keep the allocation alive."""
    k = fact.killer
    if k is not None and fact.allocations_overwritten:
        return f"may read the attribute, but only after {fact.show(k.owner)}.__init__ replaced the value"
    if in_class is not None:
        return f"is in {short_name(in_class)}, a class built only by dead statements"
    return "may read the attribute but was not counted as a read"
