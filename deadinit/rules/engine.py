"""The engine over summaries: index, analyse every hierarchy, run the selected rules, apply suppressions.

``check_summaries`` is what ``deadinit check`` computes once the files are summarised;
``deadinit fix`` calls it again on the summaries of a planned rewrite.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from deadinit.analysis.analyzer import Analyzer, ClassAnalysis
from deadinit.index.hierarchy_problems import hierarchy_problems, problem_lines
from deadinit.index.pathfilter import per_file_ignored
from deadinit.index.project_gaps import misnamed_packages
from deadinit.index.project_index import ProjectIndex
from deadinit.installed.environment import attach
from deadinit.model.finding import Finding
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.rules.isolation import isolated
from deadinit.rules.registry import reports_attribute, selected_rules
from deadinit.rules.suppressions import matching_suppression


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
    """The selected rules' findings, class by class; with ``result``, a class whose rules raise loses
    only its own findings (``rules.isolation``)."""
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
    out = [f for fs in per_rule for f in fs]
    return ordered_findings(index, out)


def ordered_findings(index: ProjectIndex, findings: list[Finding]) -> list[Finding]:
    """The rules' findings (rule by rule, each in class order) as reported: deduplicated over
    subclasses, sorted by place."""
    out = _dedupe_subclasses(index, findings)
    out.sort(key=lambda f: (f.path, f.line, f.column, f.code, f.cls, f.attribute))
    return out


def _dedupe_subclasses(index: ProjectIndex, findings: list[Finding]) -> list[Finding]:
    """Report a (code, parent, attribute) once, at the most-base subclass where it holds.

    Subclasses of that class run the same chain; they are listed in ``extra["subclasses"]``.
    A subclass where it holds only under a condition (or where the analysis is unsure) while
    it holds on its ancestor outright is reported on its own: a listed subclass claims as much.
    """
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        claim = (f.extra.get("conditional"), f.extra.get("condition"), bool(f.unsure))
        groups.setdefault((f.code, f.parent, f.attribute, claim), []).append(f)
    out = []
    for group in groups.values():
        classes = {f.cls for f in group}
        subs: dict[str, list[str]] = {}  # class -> the group's classes below it (linear in the MRO sizes)
        for c in classes:
            for a in (index.mro(c) or [c])[1:]:
                if a in classes:
                    subs.setdefault(a, []).append(c)
        for f in group:
            mro = index.mro(f.cls) or [f.cls]
            if any(a in classes for a in mro[1:]):
                continue
            f.extra["subclasses"] = sorted(subs.get(f.cls, ()))
            out.append(f)
    return out


def _suppressed(f: Finding, index: ProjectIndex, used: set) -> bool:
    hit = matching_suppression(f, index)
    if hit is not None:
        used.add(hit)
        return True
    return False


def check_summaries(
    summaries: list[FileSummary], settings: Settings, result: CheckResult | None = None, hierarchy_errors: bool = True
) -> CheckResult:
    """The findings of a project given its summaries (into ``result``, which may carry discovery's errors);
    ``hierarchy_errors`` False: without the hierarchy problems' error lines (``index_summaries``)."""
    res = result if result is not None else CheckResult(files=len(summaries))
    res = index_summaries(summaries, settings, res, hierarchy_errors)
    index = res.index
    analyzer, analyses = analyse(index, settings, analyzer=res.analyzer, result=res)
    res.analyses = analyses
    sort_findings(res, findings_for(index, analyzer, analyses, settings, res), settings)
    return res


def sort_findings(res: CheckResult, findings: list[Finding], settings: Settings) -> None:
    """Each finding into ``res``'s suppressed, unsure or reported findings."""
    index = res.index
    for f in findings:
        if _suppressed(f, index, res.used_suppressions) or per_file_ignored(f, settings):
            res.suppressed.append(f)
        elif f.unsure and not settings.show_unsure:
            res.unsure.append(f)
        else:
            res.findings.append(f)


def index_summaries(
    summaries: list[FileSummary], settings: Settings, result: CheckResult, hierarchy_errors: bool = True
) -> CheckResult:
    """The index and a fresh analyzer into ``result``, as ``check_summaries`` makes them, and no
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
