"""Shared glue between class analyses and findings."""

from __future__ import annotations

from deadinit.analysis.facts import AttrFact
from deadinit.analysis.sizes.symbolic import rank_key
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.finding import Finding


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
    verdict = fact.verdict
    assert verdict is not None  # every fact the analysis keeps has one (analysis.verdicts)
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
        fix_safety=verdict.safety,
        fix_safety_reason=verdict.reason,
        unsure=fact.unsure,
        related_paths=sorted(set(related)),
        related_lines=lines,
        extra={
            "conditional": fact.conditional,
            **({"condition": fact.condition} if fact.condition else {}),
            "feeds": fact.feeds,
            "kept_by": fact.kept_by,
            "size": verdict.size_text,
        },
        size_expr=fact.size.expression() if fact.size else None,
        size_rank=rank_key(fact.estimated_bytes, fact.size.poly if fact.size else None),
        verdict=verdict,
    )


def describe(fact: AttrFact) -> str:
    where = next((c.method for c in fact.stmts if c.owner == fact.owner), "__init__")
    return f"`self.{fact.attr}` ({fact.kind}) allocated by {fact.show(fact.owner)}.{where}"
