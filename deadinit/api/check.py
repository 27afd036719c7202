"""The engine as a library: discover, summarise, index, analyse, run rules.

Front-ends (CLI, pre-commit hook, codemods, tests) call ``run_check``; they never
reach into the stages themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from deadinit.analysis.liveness import Analyzer, ClassAnalysis
from deadinit.frontends.parse import FileError, summarize_many
from deadinit.index.discovery import discover
from deadinit.index.hierarchy_problems import hierarchy_problems
from deadinit.index.pathfilter import per_file_ignored
from deadinit.index.project_index import ProjectIndex
from deadinit.model.finding import Finding
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.rules.registry import ALL_RULES
from deadinit.runtime.temp_files import remove_leftovers


@dataclass
class RuleContext:
    index: ProjectIndex
    analyzer: Analyzer
    analyses: list[ClassAnalysis]
    settings: Settings


def summarize(
    paths: Iterable[str], settings: Settings, summarizer: Callable | None = None, excluded=None, discovery=None
) -> tuple[list[FileSummary], list[str], int]:
    """``discovery``: what ``discover`` found for these paths, when the caller already walked them
    (and removed the temporary files a killed run left there)."""
    disc = discovery
    if disc is None:
        disc = discover(paths, settings.roots, excluded, max_bytes=settings.max_file_size)
        remove_leftovers(disc.temp_files)  # a killed run's rewrites in flight
    errors = [f"{p}: {m}" for p, m in disc.errors]
    items = [(f.path, f.module, f.is_package) for f in disc.files]
    results = (summarizer or summarize_many)(items, settings)
    summaries = []
    for r in results:
        if isinstance(r, FileError):
            errors.append(str(r))
        else:
            summaries.append(r)
    return summaries, errors, len(disc.files)


def candidate_classes(index: ProjectIndex) -> list[str]:
    return sorted(qn for qn in index.classes if any(b.kind == "class" for b in index.bases(qn)))


def analyse(index: ProjectIndex, settings: Settings, only: set | None = None) -> tuple[Analyzer, list[ClassAnalysis]]:
    analyzer = Analyzer(index, settings)
    analyses = []
    for qn in candidate_classes(index):
        if only is not None and qn not in only:
            continue
        an = analyzer.analyse(qn)
        if an is not None and an.facts:
            analyses.append(an)
    return analyzer, analyses


def selected_rules(settings: Settings):
    rules = ALL_RULES
    if settings.select:
        rules = [r for r in rules if r.code in settings.select or r.name in settings.select]
    if settings.ignore:
        rules = [r for r in rules if r.code not in settings.ignore and r.name not in settings.ignore]
    return rules


def findings_for(
    index: ProjectIndex, analyzer: Analyzer, analyses: list[ClassAnalysis], settings: Settings
) -> list[Finding]:
    ctx = RuleContext(index, analyzer, analyses, settings)
    out: list[Finding] = []
    for rule in selected_rules(settings):
        out.extend(rule().check(ctx))
    out = _dedupe_subclasses(index, out)
    out.sort(key=lambda f: (f.path, f.line, f.column, f.code, f.cls, f.attribute))
    return out


def _dedupe_subclasses(index: ProjectIndex, findings: list[Finding]) -> list[Finding]:
    """Report a (code, parent, attribute) once, at the most-base subclass where it holds.

    Subclasses of that class run the same chain; they are listed in ``extra["subclasses"]``.
    """
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.code, f.parent, f.attribute), []).append(f)
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


def suppression_covers(codes, f: Finding) -> bool:
    """Whether a suppression comment's codes (None: bare ``ignore``) cover the finding."""
    if codes is None:
        return True
    wanted = {c.upper() for c in codes}
    return f.code.upper() in wanted or f.name.upper() in wanted


def matching_suppression(f: Finding, index: ProjectIndex) -> tuple[str, int] | None:
    """The first (path, line) among the finding's related lines whose suppression covers it."""
    by_path = {s.path: s for s in index.modules.values()}
    for path, line in f.related_lines:
        s = by_path.get(path)
        if s is None:
            continue
        codes = s.suppressions.get(line, False)
        if codes is not False and suppression_covers(codes, f):
            return path, line
    return None


def _suppressed(f: Finding, index: ProjectIndex, used: set) -> bool:
    hit = matching_suppression(f, index)
    if hit is not None:
        used.add(hit)
        return True
    return False


def run_check(
    paths: Iterable[str],
    settings: Settings | None = None,
    summarizer: Callable | None = None,
    excluded=None,
    summaries: list[FileSummary] | None = None,
    discovery=None,
) -> CheckResult:
    settings = settings or Settings()
    res = CheckResult()
    if summaries is None:
        summaries, res.errors, res.files = summarize(paths, settings, summarizer, excluded, discovery)
    else:
        res.files = len(summaries)
    index = ProjectIndex(summaries)
    res.errors.extend(hierarchy_problems(index))  # cycles, self-aliased bases: one line each
    analyzer, analyses = analyse(index, settings)
    res.index, res.analyzer, res.analyses = index, analyzer, analyses
    for f in findings_for(index, analyzer, analyses, settings):
        if _suppressed(f, index, res.used_suppressions) or per_file_ignored(f, settings):
            res.suppressed.append(f)
        elif f.unsure and not settings.show_unsure:
            res.unsure.append(f)
        else:
            res.findings.append(f)
    return res
