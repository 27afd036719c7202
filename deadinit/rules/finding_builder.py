"""Shared glue between class analyses and findings."""

from __future__ import annotations

from deadinit.analysis.facts import AttrFact
from deadinit.analysis.reach import short
from deadinit.analysis.symbolic import rank_key
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.finding import Finding, human_bytes


def finding_from_fact(rule, fact: AttrFact, ctx, message: str) -> Finding:
    index = ctx.index
    first = next((c for c in fact.stmts if c.stmt.alloc is not None or c.stmt.call is not None), fact.stmts[0])
    sub_file = index.path_of(fact.cls)
    related = [sub_file, first.path]
    lines = [(first.path, c.stmt.line) for c in fact.stmts]
    cls_sum = index.classes[fact.cls]
    lines.append((sub_file, cls_sum.line))
    if fact.killer is not None:
        related.append(fact.killer.path)
        lines.append((fact.killer.path, fact.killer.stmt.line))
    not_fixable = (
        fact.handed_on
        or (_part_reason(fact) if fact.part_of else _deleted_for_a_class_attribute(fact, index))
        or _built_in_a_helper(fact)
        or _replaced_conditionally(fact)
    )
    unsafe_reason = fact.unsafe_reason or (
        "the allocation is made inside a project function: skipping the call also skips whatever else it does"
        if fact.followed
        else ""
    )
    safety = "none" if fact.kept_by or not_fixable else ("unsafe" if unsafe_reason else "safe")
    evidence = list(fact.evidence)
    if fact.condition:
        message += f" (only when {fact.condition})"
        evidence.insert(
            1,
            Evidence(
                EvidenceKind.CONDITIONAL,
                f"{'wasted' if fact.replaced_when else 'allocated'} only when {fact.condition}: nothing the "
                f"class passes or sets decides it, so its size is not counted as certain waste",
            ),
        )
    return Finding(
        code=rule.code,
        name=rule.name,
        path=first.path,
        line=first.stmt.line,
        column=first.stmt.col + 1,
        cls=fact.cls,
        parent=fact.owner,
        attribute=fact.attr,
        kind=fact.kind,
        estimated_bytes=fact.estimated_bytes,
        message=message,
        evidence=evidence,
        fix_safety=safety,
        fix_safety_reason=unsafe_reason if safety == "unsafe" else "",
        unsure=fact.unsure,
        related_paths=sorted(set(related)),
        related_lines=lines,
        extra={
            "conditional": fact.conditional,
            **({"condition": fact.condition} if fact.condition else {}),
            "feeds": fact.feeds,
            "kept_by": fact.kept_by,
            **({"not_fixable": not_fixable} if not_fixable else {}),
            "size": (fact.size.expression() if fact.size else None) or human_bytes(fact.estimated_bytes),
        },
        size_expr=fact.size.expression() if fact.size else None,
        size_rank=rank_key(fact.estimated_bytes, fact.size.poly if fact.size else None),
    )


def _part_reason(fact: AttrFact) -> str:
    return (
        f"self.{fact.attr} is a part of self.{fact.part_of}: skipping it in {short(fact.owner)}.__init__ "
        f"would change every {short(fact.owner)}; pass the replacement to its constructor instead"
    )


def _deleted_for_a_class_attribute(fact: AttrFact, index) -> str | None:
    """A removal that makes way for a class attribute of the same name (a property): the flag's ``None``
    placeholder could not be assigned there."""
    k = fact.killer
    if k is None or k.stmt.kind != "delete":
        return None
    for qn in index.mro(fact.cls) or [fact.cls]:
        c = index.classes[qn]
        if fact.attr in c.methods or fact.attr in c.class_attrs:
            return (
                f"{short(k.owner)}.__init__ deletes self.{fact.attr} to uncover {short(qn)}.{fact.attr}: "
                f"a skipped allocation's placeholder could not be assigned there"
            )
    return None


def _built_in_a_helper(fact: AttrFact) -> str | None:
    """An allocation made in a helper the parent's ``__init__`` calls: the skip flag guards only the
    ``__init__``'s own statements."""
    helper = next((c for c in fact.stmts if c.method != "__init__"), None)
    if helper is None:
        return None
    where = f"{short(helper.owner)}.{helper.method}"
    return (
        f"self.{fact.attr} is built in {where}, a helper that construction calls, not in "
        f"{short(fact.owner)}.__init__ itself: a skip flag guards only an __init__'s own statements"
    )


def _replaced_conditionally(fact: AttrFact) -> str | None:
    """A replacement under guards nothing decides: a skip flag would have to decide them before the parent runs."""
    if not fact.replaced_when:
        return None
    return (
        f"self.{fact.attr} is replaced only when {fact.replaced_when}: skipping the parent's allocation "
        "would leave it unset on the other paths"
    )


def describe(fact: AttrFact) -> str:
    where = next((c.method for c in fact.stmts if c.owner == fact.owner), "__init__")
    return f"`self.{fact.attr}` ({fact.kind}) allocated by {fact.show(fact.owner)}.{where}"
