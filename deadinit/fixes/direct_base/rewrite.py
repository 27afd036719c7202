"""Rewrite one class onto its suggested base: pure, sources in, the new text of its module out."""

from __future__ import annotations

from deadinit.analysis.reuse import compute_reuse
from deadinit.fixes.analyses import project_analyzer, project_index
from deadinit.fixes.direct_base.build import build_rewrite
from deadinit.fixes.direct_base.class_plan import DEFAULT_MAX_COPY_LINES, ClassPlan, Outcome
from deadinit.fixes.direct_base.source import ModuleSources
from deadinit.model.qualnames import short_name
from deadinit.model.result import CheckResult


def rewrite_class(
    result: CheckResult,
    cls: str,
    max_copy_lines: int = DEFAULT_MAX_COPY_LINES,
    sources: ModuleSources | None = None,
    force: bool = False,
) -> Outcome:
    """Rewrite ``cls`` onto its suggested base; pure: returns the new text of its module."""
    index, analyzer = project_index(result), project_analyzer(result)
    out = Outcome(cls)
    if cls not in index.classes:
        out.blockers.append(f"unknown class {cls}")
        return out
    an = analyzer.analyse(cls)
    threshold = getattr(getattr(analyzer, "settings", None), "di003_threshold", 0.25)
    r = compute_reuse(index, analyzer, cls, threshold, an=an)
    out.reuse = r
    if r is None or an is None:
        out.nothing_to_do = f"{short_name(cls)} runs no ancestor __init__ of the project: nothing to re-base"
        return out
    if not r.dead_allocations and not force:
        out.nothing_to_do = f"nothing that {short_name(r.parent)}.__init__ builds is dead for {short_name(cls)}"
        return out
    sources = sources or ModuleSources(index)
    p = ClassPlan(index, analyzer, cls, r, sources)
    build_rewrite(p, an, out, max_copy_lines)
    out.blockers = list(dict.fromkeys(out.blockers + p.blockers))
    return out
