"""The engine over summaries: index, analyse every hierarchy, run the selected rules.

What it gives are the rules' findings as they come; the session (``session.findings``) makes them
final (dedupe over subclasses, order, suppressions) and ``session.pipeline.check_summaries`` puts
the steps together.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from deadinit.analysis.analyzer import Analyzer, ClassAnalysis
from deadinit.index.hierarchy_problems import hierarchy_problems, problem_lines
from deadinit.index.project_gaps import misnamed_packages
from deadinit.index.project_index import ProjectIndex
from deadinit.installed.environment import attach
from deadinit.model.finding import Finding
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.rules.isolation import isolated
from deadinit.rules.registry import reports_attribute, selected_rules


@dataclass
class RuleContext:
    index: ProjectIndex
    analyzer: Analyzer
    analyses: list[ClassAnalysis]
    settings: Settings


def candidate_classes(index: ProjectIndex) -> list[str]:
    """The classes with a project class among their bases: every class some class's subclass table lists."""
    return sorted({qn for subs in index.subclasses.data.values() for qn in subs})


def new_analyzer(index: ProjectIndex, settings: Settings) -> Analyzer:
    """The analyzer the rules read: it keeps the facts a rule reports."""
    return Analyzer(index, settings, reported=reports_attribute)


def analyse(
    index: ProjectIndex,
    settings: Settings,
    only: set | None = None,
    analyzer: Analyzer | None = None,
    result: CheckResult | None = None,
) -> tuple[Analyzer, list[ClassAnalysis]]:
    """Every candidate class's analysis (or those ``only`` names); with ``result``, a class whose
    analysis raises is one error line there (``rules.isolation``) and the others go on."""
    analyzer = analyzer or new_analyzer(index, settings)
    analyses = []
    for qn in candidate_classes(index):
        if only is not None and qn not in only:
            continue
        an = (
            analyzer.analyse(qn)
            if result is None
            else isolated(index, result, qn, functools.partial(analyzer.analyse, qn))
        )
        if an is not None and (an.facts or an.chain.broken is not None):
            analyses.append(an)
    return analyzer, analyses


def findings_for(
    index: ProjectIndex,
    analyzer: Analyzer,
    analyses: list[ClassAnalysis],
    settings: Settings,
    result: CheckResult | None = None,
) -> list[Finding]:
    """The selected rules' findings, rule by rule, each in class order, as the rules give them (the
    session makes them final: ``session.findings.settle``); with ``result``, a class whose rules raise
    loses only its own findings (``rules.isolation``)."""
    rules = [rule() for rule in selected_rules(settings)]
    per_rule: list[list[Finding]] = [[] for _ in rules]  # rule by rule, each in class order
    for an in analyses:
        ctx = RuleContext(index, analyzer, [an], settings)
        if result is None:
            found: list[list[Finding]] | None = [list(rule.check(ctx)) for rule in rules]
        else:
            found = isolated(index, result, an.cls, lambda c=ctx: [list(rule.check(c)) for rule in rules])
        for i, fs in enumerate(found or ()):
            per_rule[i].extend(fs)
    return [f for fs in per_rule for f in fs]


def index_summaries(
    summaries: list[FileSummary], settings: Settings, result: CheckResult, hierarchy_errors: bool = True
) -> CheckResult:
    """The index and a fresh analyzer into ``result``, as ``session.pipeline.check_summaries`` makes them, and no
    analysis: ``result.analyzer.analyse(cls)`` analyses one class (what ``check`` would find for it).
    ``hierarchy_errors`` False: not the error lines of ``hierarchy_problems``, for a caller that has
    them already or reads only findings (they cost a walk over every class's bases)."""
    index = ProjectIndex(summaries)
    unanalysed = attach(index, settings)  # the installed libraries answer for outside names
    result.misnamed = misnamed_packages(summaries, unanalysed)  # not missing: the project's own, misnamed
    result.unanalysed = [u for u in unanalysed if u.package not in {m.package for m in result.misnamed}]
    if hierarchy_errors:
        result.errors.extend(problem_lines(index, hierarchy_problems(index)))  # cycles, self-aliased bases
    result.index, result.analyzer = index, new_analyzer(index, settings)
    return result
