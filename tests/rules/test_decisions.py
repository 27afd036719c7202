"""DI001 and DI002 decide from the analysis' facts; at most one reports a fact, and the analyser keeps only those."""

import pytest

from deadinit.analysis.facts import AttrFact, Overwrite
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.rules.di001_overwritten_parent_allocation import OverwrittenParentAllocation, overwritten_by
from deadinit.rules.di002_unread_parent_allocation import UnreadParentAllocation
from deadinit.rules.registry import attribute_rule_for, reports_attribute

PARENT, CHILD = "pkg.m.P", "pkg.m.C"


def stmt(owner: str) -> ChainStmt:
    return ChainStmt(stmt=None, owner=owner, path="pkg/m.py", active=True)


def fact(overwritten_by_owners=(), all_overwritten=False, read=False) -> AttrFact:
    binding = stmt(PARENT)
    return AttrFact(
        CHILD,
        "ws",
        PARENT,
        [binding],
        alloc=None,
        kind="tensor",
        overwrites=[Overwrite(binding, stmt(o)) for o in overwritten_by_owners],
        allocations_overwritten=all_overwritten,
        read=read,
    )


@pytest.mark.parametrize(
    "f,rule",
    [
        (fact([CHILD], all_overwritten=True), OverwrittenParentAllocation),
        (fact([PARENT, CHILD], all_overwritten=True), OverwrittenParentAllocation),  # the last replacement counts
        (fact([CHILD, PARENT], all_overwritten=True), None),  # replaced inside the parent's own __init__ last
        (fact([CHILD], all_overwritten=False), None),  # some allocation survives, and it is not unread either
        (fact(), UnreadParentAllocation),
        (fact(read=True), None),
        (fact([CHILD], all_overwritten=True, read=True), OverwrittenParentAllocation),  # read only after the overwrite
    ],
)
def test_each_fact_has_at_most_one_rule(f, rule):
    assert attribute_rule_for(f) is rule
    assert reports_attribute(f) is (rule is not None)
    assert [r for r in (OverwrittenParentAllocation, UnreadParentAllocation) if r.reports(f)] == (
        [rule] if rule else []
    )


def test_di001_names_the_last_replacement():
    f = fact([PARENT, CHILD], all_overwritten=True)
    assert overwritten_by(f) is f.overwrites[-1].by and f.killer.owner == CHILD


def test_analysis_keeps_only_reported_facts(write_project):
    from deadinit.api.check import run_check
    from deadinit.rules.di001_overwritten_parent_allocation import WORKSPACE

    result = run_check([str(write_project(WORKSPACE))])
    (an,) = result.analyses
    assert [(f.attr, attribute_rule_for(f).code) for f in an.facts] == [("workspace", "DI001")]
    assert all(reports_attribute(f) for a in result.analyses for f in a.facts)
