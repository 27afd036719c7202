"""A plan made from the stored findings, with the analyses made on demand (``fixes.analyses``), is the
plan made from a full run that analysed every class: same files, changes, refusals, checks."""

import dataclasses

import pytest
from codemod_helpers import copy_fixtures

from deadinit.api.check import index_project, run_check
from deadinit.fixes.analyses import PlanAnalyses
from deadinit.fixes.driver import plan_checked
from deadinit.fixes.registry import load_strategies
from deadinit.model.fix import FixOptions

BROKEN_CALLER = {
    "pkg/__init__.py": "",
    "pkg/base.py": """import torch


class Parent:
    def __init__(self, n):
        self.ws = torch.empty(1024)
        self.buf = torch.zeros(n)

    def forward(self, x):
        return self.ws, self.buf
""",
    "pkg/child.py": """import torch

from pkg.base import Parent


class Child(Parent):
    def __init__(self):
        super().__init__(4)
        self.ws = torch.empty(8)

    def forward(self, x):
        return self.ws, self.buf


class Broken(Parent):
    def __init__(self):
        super().__init__(1, 2)
""",
}


@pytest.fixture(scope="module")
def fixtures_run(tmp_path_factory):
    """The fixtures' root and the full run's result."""
    root = str(copy_fixtures(tmp_path_factory.mktemp("fixtures")))
    return root, run_check([root])


def lazy(full, root="."):
    """``full``'s findings with a fresh index and analyzer and no analysis: what ``fix`` starts from
    after a warm ``check`` (``api.project.analyse_for_fix``)."""
    fresh = index_project([root])
    return dataclasses.replace(full, index=fresh.index, analyzer=fresh.analyzer, analyses=[], analyses_complete=False)


def plan_record(plan) -> tuple:
    return (
        [(fp.path, fp.new, fp.regions, fp.changes) for fp in plan.files],
        [c.to_json() for c in plan.changes],
        [r.to_json() for r in plan.refusals],
    )


def outcome_record(out) -> tuple:
    after = None if out.after is None else sorted(f.key for f in out.after.findings)
    return plan_record(out.plan), [r.to_json() for r in out.rejected], after


def test_on_demand_analyses_are_the_full_runs_list(fixtures_run):
    root, full = fixtures_run
    ondemand = PlanAnalyses(lazy(full, root))
    assert [an.cls for an in ondemand.everything()] == [an.cls for an in full.analyses]
    assert [an.cls for an in ondemand.broken()] == [an.cls for an in PlanAnalyses(full).broken()]
    assert [an.cls for an in ondemand.broken()] == [
        "fixtures.precision.broken_call.HostKVPool",
        "fixtures.precision.broken_call.PinnedHostKVPool",
    ]
    for an in full.analyses:
        again = ondemand.get(an.cls)
        assert again is not None
        assert [(f.owner, f.attr) for f in again.facts] == [(f.owner, f.attr) for f in an.facts]
    assert ondemand.get("fixtures.app") is None and PlanAnalyses(full).get("fixtures.app") is None


@pytest.mark.parametrize("strategy", ["skip-flag", "direct-base"])
@pytest.mark.parametrize("unsafe", [False, True])
def test_the_fixtures_plan_from_stored_findings_is_the_full_runs(fixtures_run, strategy, unsafe):
    root, full = fixtures_run
    options = FixOptions(unsafe_fixes=unsafe)
    plan = load_strategies()[strategy]
    assert plan_record(plan(lazy(full, root), options)) == plan_record(plan(full, options))
    assert outcome_record(plan_checked(lazy(full, root), strategy, options)) == outcome_record(
        plan_checked(full, strategy, options)
    )


def test_a_call_that_cannot_bind_refuses_the_flag_without_the_full_analysis(write_project, monkeypatch):
    monkeypatch.chdir(write_project(BROKEN_CALLER))
    full = run_check(["."])
    assert "DI004" in {f.code for f in full.findings}
    options = FixOptions(unsafe_fixes=True)
    plan = load_strategies()["skip-flag"]
    expected = plan(full, options)
    assert any("cannot take (DI004)" in r.reason for r in expected.refusals)
    assert plan_record(plan(lazy(full), options)) == plan_record(expected)
