"""The verdict on each fact, decided once (``model.verdict.Verdict``).

``decide`` puts together what the analysis found about one attribute: its status (overwritten,
unread, or kept alive by a live attribute built from it), whether a fix may remove it (the level
``fix_level`` gives, and what no rewrite can skip), and what it costs:

* *steady*: held for the object's life.  An unread allocation is; so is an overwritten one that a
  global cache keeps (a cached buffer, a module-level singleton: replacing the attribute does not
  free it);
* *transient*: built, then replaced.  The old value is freed once replaced: it costs construction
  time and peak memory, not memory held;
* an overwritten value that a live attribute was built from is kept alive: no waste at all.

``analysis.fixable.settle`` then refines the safety of the class's verdicts by what the fixer
can rewrite.
"""

from __future__ import annotations

from deadinit.analysis.fact_records import AttrFact
from deadinit.analysis.fix_safety.fix_level import FixLevel
from deadinit.index.project_index import ProjectIndex
from deadinit.model.evidence import EvidenceKind
from deadinit.model.finding import human_bytes
from deadinit.model.kinds import AllocKind, AttrStatus, FixSafety, InitStmtKind, Lifetime
from deadinit.model.qualnames import short_name
from deadinit.model.verdict import Verdict

CACHED_KINDS = frozenset({AllocKind.CACHED_BUFFER, AllocKind.GLOBAL_SINGLETON})
FOLLOWED = "the allocation is made inside a project function: skipping the call also skips whatever else it does"
DECLARED = "the class built comes from a class-typed field: skipping the call also skips whatever else it does"


def status_of(fact: AttrFact) -> AttrStatus:
    if fact.kept_by:
        return AttrStatus.KEPT_ALIVE
    if not fact.overwrites and not fact.read:
        return AttrStatus.UNREAD
    return AttrStatus.OVERWRITTEN


def lifetime_of(fact: AttrFact, status: AttrStatus) -> Lifetime:
    if status == AttrStatus.KEPT_ALIVE:
        return Lifetime.NONE
    if status == AttrStatus.UNREAD or fact.kind.removeprefix("list of ") in CACHED_KINDS:
        return Lifetime.STEADY
    return Lifetime.TRANSIENT


def size_text(fact: AttrFact) -> str:
    """The size as every report shows it: a number in binary units, an expression, or ``unknown``."""
    return (fact.size.expression() if fact.size is not None else None) or human_bytes(fact.estimated_bytes)


def decide(index: ProjectIndex, fact: AttrFact, level: FixLevel) -> Verdict:
    status = status_of(fact)
    safety, reason = _safety(index, fact, level)
    return Verdict(
        status=status,
        safety=safety,
        reason=reason,
        lifetime=lifetime_of(fact, status),
        bytes=fact.estimated_bytes,
        size_text=size_text(fact),
        certain=not fact.condition,
    )


def _safety(index: ProjectIndex, fact: AttrFact, level: FixLevel) -> tuple[FixSafety, str]:
    if fact.kept_by:
        kept = ", ".join(f"self.{k}" for k in fact.kept_by)
        verb = "is" if len(fact.kept_by) == 1 else "are"
        return FixSafety.NONE, (
            f"the parent's value is still used: {kept} {verb} built from it and "
            f"{'stays' if len(fact.kept_by) == 1 else 'stay'} live, so "
            f"{short_name(fact.owner)} must keep allocating self.{fact.attr}"
        )
    not_fixable = (
        fact.handed_on
        or (_part_reason(fact) if fact.part_of else _deleted_for_a_class_attribute(fact, index))
        or _built_in_a_helper(fact)
        or _replaced_conditionally(fact)
    )
    if not_fixable:
        return FixSafety.NONE, not_fixable
    if not level.safe:
        return FixSafety.UNSAFE, level.reason
    if any(e.kind == EvidenceKind.FOLLOWED for e in fact.followed):
        return FixSafety.UNSAFE, FOLLOWED
    if fact.followed:
        return FixSafety.UNSAFE, DECLARED
    return FixSafety.SAFE, ""


def _part_reason(fact: AttrFact) -> str:
    return (
        f"self.{fact.attr} is a part of self.{fact.part_of}: skipping it in {short_name(fact.owner)}.__init__ "
        f"would change every {short_name(fact.owner)}; pass the replacement to its constructor instead"
    )


def _deleted_for_a_class_attribute(fact: AttrFact, index: ProjectIndex) -> str:
    """A removal that makes way for a class attribute of the same name (a property): the flag's ``None``
    placeholder could not be assigned there."""
    k = fact.killer
    if k is None or k.stmt.kind != InitStmtKind.DELETE:
        return ""
    for qn in index.mro(fact.cls) or [fact.cls]:
        c = index.classes[qn]
        if fact.attr in c.methods or fact.attr in c.class_attrs:
            return (
                f"{short_name(k.owner)}.__init__ deletes self.{fact.attr} to uncover {short_name(qn)}.{fact.attr}: "
                f"a skipped allocation's placeholder could not be assigned there"
            )
    return ""


def _built_in_a_helper(fact: AttrFact) -> str:
    """An allocation made in a helper the parent's ``__init__`` calls: the skip flag guards only the
    ``__init__``'s own statements."""
    helper = next((c for c in fact.stmts if c.method != "__init__"), None)
    if helper is None:
        return ""
    where = f"{short_name(helper.owner)}.{helper.method}"
    return (
        f"self.{fact.attr} is built in {where}, a helper that construction calls, not in "
        f"{short_name(fact.owner)}.__init__ itself: a skip flag guards only an __init__'s own statements"
    )


def _replaced_conditionally(fact: AttrFact) -> str:
    """A replacement under guards nothing decides: a skip flag would have to decide them before the parent runs."""
    if not fact.replaced_when:
        return ""
    return (
        f"self.{fact.attr} is replaced only when {fact.replaced_when}: skipping the parent's allocation "
        "would leave it unset on the other paths"
    )
