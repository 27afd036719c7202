"""The text report: each finding in a few lines (``report.finding_lines``; ``--format full``: the tree of
``report.full``), grouped by subclass, the largest waste first, then the summary."""

from __future__ import annotations

from collections import defaultdict

from rich.console import Console
from rich.text import Text

from deadinit.installed.unanalysed import unanalysed_text
from deadinit.model.finding import size_order
from deadinit.model.result import Unanalysed
from deadinit.model.totals import Totals
from deadinit.report import finding_lines
from deadinit.report.class_names import option_names
from deadinit.report.full import render_class
from deadinit.report.gaps import gaps_clause
from deadinit.report.paths import display


def _loose(findings, console: Console, full: bool) -> None:
    """Findings that belong to no class (DI100 unused suppressions): one line each."""
    for f in findings:
        if not full:
            finding_lines.emit(console, finding_lines.head(f))
            continue
        label = Text()
        label.append(f"{f.code} ", style="bold blue")
        label.append(f"{display(f.path)}:{f.line}:{f.column} ", style="magenta")
        label.append(f.message)
        finding_lines.emit(console, label)


def render(result, console: Console, show_evidence: bool = True, quiet: bool = False, full: bool = False) -> None:
    """Findings grouped by subclass, the largest waste first: a few lines each (``full``: a tree with
    code frames and the whole evidence chain); ``quiet`` keeps only the findings' first lines."""
    by_cls = defaultdict(list)
    for f in result.findings:
        if f.cls:
            by_cls[f.cls].append(f)
    for group in by_cls.values():
        group.sort(key=size_order)
    names = {} if full else option_names(result.index, by_cls)
    for cls in sorted(by_cls, key=lambda c: (size_order(by_cls[c][0]), c)):
        if full:
            render_class(result.index, cls, by_cls[cls], console, show_evidence, quiet)
            continue
        for f in by_cls[cls]:
            shown = {"evidence": show_evidence and not quiet, "hint": not quiet, "cls_name": names.get(cls)}
            for line in finding_lines.lines(f, **shown):
                finding_lines.emit(console, line)
    _loose([f for f in result.findings if not f.cls], console, full)
    if quiet:
        return
    counts = defaultdict(int)
    for f in result.findings:
        counts[f.code] += 1
    parts = ", ".join(f"{c}: {n}" for c, n in sorted(counts.items())) or "no findings"
    summary = f"{len(result.findings)} finding(s) in {len(by_cls)} class(es) ({parts}); "
    summary += Totals.of(result.findings).text()
    unreadable = len(result.unreadable)
    summary += f"; {result.files - unreadable} file(s) analysed"
    if unreadable:
        summary += f", {unreadable} could not be read (errors above)"
    if result.skipped_sources:
        summary += f"; {len(result.skipped_sources)} code-generation source(s) skipped (--include-generation-sources)"
    if result.unsure:
        summary += f"; {len(result.unsure)} unsure finding(s) hidden (--show-unsure)"
    summary += unanalysed_clause(result.unanalysed) + gaps_clause(result)
    finding_lines.emit(console, Text(summary, style="bold"))
    if result.findings and not full:
        finding_lines.emit(console, Text(EXPLAIN_NOTE, style="dim"))


SHOWN_PACKAGES = 3
EXPLAIN_NOTE = "each finding's whole evidence chain: `deadinit explain CLASS` or `deadinit check --format full`"


def unanalysed_clause(unanalysed: list[Unanalysed]) -> str:
    """``; 412 calls into `mmcv` were not analysed (not installed here)``, for the packages with the most
    calls, and how many more packages there are."""
    if not unanalysed:
        return ""
    text = "; " + "; ".join(unanalysed_text(u) for u in unanalysed[:SHOWN_PACKAGES])
    more = len(unanalysed) - SHOWN_PACKAGES
    if more > 0:
        text += f"; {more} more package{'s' if more > 1 else ''} not installed here"
    return text
