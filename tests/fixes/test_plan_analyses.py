"""A plan made from the stored findings, with the analyses made on demand (``fixes.analyses``), is the
plan made from a full run that analysed every class: same files, changes, refusals, checks; the
broken chains read from the stored analysis state are those a walk over every class finds."""

import dataclasses
import json

import pytest
from click.testing import CliRunner
from codemod_helpers import copy_fixtures

from deadinit.api import project
from deadinit.api.check import index_project, run_check
from deadinit.cli.main import main
from deadinit.fixes import analyses
from deadinit.fixes.analyses import PlanAnalyses
from deadinit.fixes.driver import plan_checked
from deadinit.fixes.registry import load_strategies
from deadinit.model.fix import FixOptions
from deadinit.runtime.summarizer import ProjectSummarizer

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
    after a warm ``check`` (``Session.for_fix``)."""
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


def cached_fix_results(root: str, cache: str, select: str = "") -> list:
    """``fix``'s results (``Session.for_fix``) on a cold cache (a miss: this run's state)
    and then on the warm one (a hit: the state the first run stored)."""
    cfg = project.configure([root], select=select)
    return [
        project.Session([root], cfg, ProjectSummarizer(jobs=1, use_cache=True, cache_dir=cache)).for_fix()
        for _ in range(2)
    ]


def broken_record(an_list) -> list:
    return [(an.cls, an.chain.broken, [(f.owner, f.attr) for f in an.facts]) for an in an_list]


def walked(result) -> list:
    """``broken()`` from every candidate's chain: the result without its analysis state."""
    return PlanAnalyses(dataclasses.replace(result, baseline=None)).broken()


def without_walk(monkeypatch) -> None:
    def no_chain(*_):
        raise AssertionError("walked every class's chain")

    monkeypatch.setattr(analyses, "init_chain", no_chain)


SUPPRESSED = {
    **BROKEN_CALLER,
    "pkg/child.py": BROKEN_CALLER["pkg/child.py"].replace(
        "class Broken(Parent):", "class Broken(Parent):  # deadinit: ignore[DI004]"
    ),
}


@pytest.mark.parametrize(
    ("files", "select"),
    [(None, ""), (BROKEN_CALLER, ""), (SUPPRESSED, ""), (BROKEN_CALLER, "DI001,DI002")],
    ids=["fixtures", "di004", "di004-suppressed", "di004-not-selected"],
)
def test_broken_chains_from_the_stored_state_are_the_walks(files, select, write_project, tmp_path_factory, monkeypatch):
    root = str(copy_fixtures(tmp_path_factory.mktemp("fixtures")) if files is None else write_project(files))
    results = cached_fix_results(root, str(tmp_path_factory.mktemp("cache")), select)
    expected = [broken_record(walked(r)) for r in results]
    assert expected[0] == expected[1] and expected[0]
    assert all(r.baseline is not None and r.baseline.current for r in results)
    without_walk(monkeypatch)
    assert [broken_record(PlanAnalyses(r).broken()) for r in results] == expected


def test_a_state_of_other_summaries_is_not_read(write_project, tmp_path, monkeypatch):
    """After an edit that leaves every summary as it was (a comment), the stored findings still hold
    (a result-cache hit) but the stored state is of other files: the chains are walked."""
    root = write_project(BROKEN_CALLER)
    cache = str(tmp_path / "cache")
    cached_fix_results(str(root), cache)
    with open(root / "pkg" / "child.py", "a") as f:
        f.write("# a comment\n")
    hit = cached_fix_results(str(root), cache)[0]
    assert hit.baseline is not None and not hit.baseline.current
    assert broken_record(PlanAnalyses(hit).broken()) == broken_record(walked(hit))
    assert [an.cls for an in walked(hit)] == ["pkg.child.Broken"]


def test_a_warm_fix_refuses_the_flag_from_the_stored_state(write_project, monkeypatch):
    monkeypatch.chdir(write_project(BROKEN_CALLER))
    assert CliRunner().invoke(main, ["check", ".", "-q"], catch_exceptions=False).exit_code == 1
    without_walk(monkeypatch)
    args = ["fix", ".", "--diff", "-q", "--unsafe-fixes", "--report", "r.json"]
    assert (
        CliRunner().invoke(main, args, catch_exceptions=False).exit_code == 1
    )  # the one change is refused: the finding is left
    refused = json.loads(open("r.json").read())["not_fixed"]
    assert any("cannot take (DI004)" in x["reason"] for x in refused)
