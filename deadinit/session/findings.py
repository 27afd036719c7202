"""Findings made final, in one place.

The rules' findings as they come (``rules.engine.findings_for``) are settled here once per run
(``settle``: dedupe over subclasses, order by place, suppressions by comment or per-file-ignores,
unsure findings set apart), into the ``CheckResult`` that the result cache stores and every command
reads; then each command's report is made of it (``final_findings``: unused suppressions (DI100),
the paths reported on, the baseline, and the notes on what was hidden or skipped).  A command
formats what leaves here."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from deadinit.index.pathfilter import per_file_ignored
from deadinit.model.finding import Finding
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.session.baseline import Baseline, apply_baseline
from deadinit.session.project_root import Scope

if TYPE_CHECKING:
    from deadinit.index.project_index import ProjectIndex


def settle(result: CheckResult, findings: list[Finding], settings: Settings) -> None:
    """The rules' ``findings`` (rule by rule, each in class order) made final into ``result``:
    deduplicated over subclasses and ordered (``ordered_findings``), then sorted into its
    suppressed, unsure and reported findings (``sort_findings``)."""
    assert result.index is not None  # the run indexed the project
    sort_findings(result, ordered_findings(result.index, findings), settings)


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
    groups: dict[tuple[object, ...], list[Finding]] = {}
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


def sort_findings(res: CheckResult, findings: list[Finding], settings: Settings) -> None:
    """Each finding into ``res``'s suppressed, unsure or reported findings; the suppressions that
    matched one into ``res.used_suppressions`` (what DI100 reads)."""
    from deadinit.rules.suppressions import matching_suppression  # noqa: PLC0415 - the analysis: a warm cached check never loads it

    index = res.index
    assert index is not None  # the run indexed the project
    for f in findings:
        hit = matching_suppression(f, index)
        if hit is not None:
            res.used_suppressions.add(hit)
        if hit is not None or per_file_ignored(f, settings):
            res.suppressed.append(f)
        elif f.unsure and not settings.show_unsure:
            res.unsure.append(f)
        else:
            res.findings.append(f)


@dataclass
class FinalFindings:
    """What a ``check`` reports: ``in_scope`` before the baseline (what ``--write-baseline``
    records), ``findings`` after it, the errors of the paths reported on, and the notes."""

    in_scope: list[Finding]
    findings: list[Finding]
    errors: list[str]
    notes: list[str] = field(default_factory=list)


def final_findings(
    result: CheckResult,
    settings: Settings,
    scope: list[str] | None = None,
    baseline: Baseline | None = None,
    unused_suppressions: bool = False,
) -> FinalFindings:
    """``result``'s findings as reported: with the unused suppressions when asked for (and DI100
    not ignored), limited to ``scope`` (None: every path), less those ``baseline`` records."""
    findings = list(result.findings)
    if unused_suppressions and "DI100" not in settings.ignore:
        from deadinit.rules.registry import unused_suppressions as unused  # noqa: PLC0415 - the analysis

        findings += unused(result, settings)
    errors = list(result.errors)
    if scope is not None:
        findings, errors = scope_to(findings, errors, scope)
    kept, notes = _baselined(result, findings, baseline, scope)
    return FinalFindings(findings, kept, errors, notes)


def _baselined(
    result: CheckResult, findings: list[Finding], base: Baseline | None, scope: list[str] | None
) -> tuple[list[Finding], list[str]]:
    """The findings the baseline leaves, and the notes on what was hidden or skipped."""
    notes: list[str] = []
    if base is not None:
        filtered = apply_baseline(base, findings)
        findings = filtered.findings
        if filtered.baselined:
            notes.append(f"{filtered.baselined} finding(s) hidden by baseline {base.path}")
        if filtered.stale and scope is None:
            notes.append(
                f"{len(filtered.stale)} baseline entr{'y' if len(filtered.stale) == 1 else 'ies'} "
                f"no longer found (refresh with --write-baseline)"
            )
    if result.suppressed and scope is None:
        notes.append(f"{len(result.suppressed)} finding(s) suppressed by comments or per-file-ignores")
    skipped = skipped_sources_note(result)
    if skipped:
        notes.append(skipped)
    return findings, notes


def skipped_sources_note(result: CheckResult) -> str | None:
    """One line saying how many code-generation sources were left out and how to include them."""
    n = len(result.skipped_sources)
    if not n:
        return None
    what = "code-generation source" if n == 1 else "code-generation sources"
    return (
        f"skipped {n} {what} (files that generated files name as their origin and nothing imports); "
        "include them with --include-generation-sources or include-generation-sources = true"
    )


def no_files_message(paths: list[str]) -> str:
    return "no Python files found in " + ", ".join(paths)


def scope_to(
    findings: Iterable[Finding], errors: Iterable[str], files: Iterable[str]
) -> tuple[list[Finding], list[str]]:
    """Keep findings whose allocation, re-assignment or subclass lies in ``files`` (files, or
    folders: what lies in them), and the errors of those files."""
    scope = Scope(list(files))
    kept = [f for f in findings if touches(f, scope)]
    errs = [e for e in errors if scope.covers(e.split(": ", 1)[0])]
    return kept, errs


def touches(f: Finding, scope: Scope) -> bool:
    """Whether the finding's allocation, re-assignment or subclass lies in ``scope``."""
    return any(scope.covers(p) for p in dict.fromkeys([f.path, *f.related_paths]))


def with_findings(result: CheckResult, findings: Iterable[Finding], errors: Iterable[str] | None = None) -> CheckResult:
    return dataclasses.replace(
        result, findings=list(findings), errors=list(result.errors if errors is None else errors)
    )
