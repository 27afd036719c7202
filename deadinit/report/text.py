"""Rich text output, grouped by subclass, with code frames and evidence."""

from __future__ import annotations

import linecache
from collections import defaultdict

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from deadinit.analysis.naming import display_names
from deadinit.installed.unanalysed import unanalysed_text
from deadinit.model.finding import human_bytes, size_order
from deadinit.model.result import Unanalysed
from deadinit.report.gaps import gaps_clause
from deadinit.report.paths import display


def _frame(path: str, line: int, context: int = 1) -> Text:
    out = Text()
    for n in range(max(1, line - context), line + context + 1):
        src = linecache.getline(path, n)
        if not src:
            continue
        mark = ">" if n == line else " "
        out.append(f"  {mark} {n:>5} | ", style="dim" if n != line else "bold")
        out.append(src.rstrip("\n")[:160] + "\n", style="" if n == line else "dim")
    return out


def _loose(findings, console: Console) -> None:
    """Findings that belong to no class (DI100 unused suppressions): one line each."""
    for f in findings:
        label = Text()
        label.append(f"{f.code} ", style="bold blue")
        label.append(f"{display(f.path)}:{f.line}:{f.column} ", style="magenta")
        label.append(f.message)
        console.print(label)


def render(result, console: Console, show_evidence: bool = True, quiet: bool = False) -> None:
    """Findings grouped by subclass; ``quiet`` drops code frames, evidence and the summary line."""
    by_cls = defaultdict(list)
    for f in result.findings:
        if f.cls:
            by_cls[f.cls].append(f)
    index = result.index
    for group in by_cls.values():
        group.sort(key=size_order)
    for cls in sorted(by_cls, key=lambda c: (size_order(by_cls[c][0]), c)):
        mro = (index.mro(cls) or [cls]) if index else [cls]
        names = display_names(index, mro) if index else {}
        chain = " -> ".join(names.get(q, q) for q in mro) if index else cls
        head = Text()
        head.append(cls, style="bold cyan")
        head.append(f"  ({chain})", style="dim")
        tree = Tree(head)
        for f in by_cls[cls]:
            label = Text()
            label.append(f"{f.code} ", style="bold red" if f.code == "DI001" else "bold yellow")
            label.append(f"{display(f.path)}:{f.line}:{f.column} ", style="magenta")
            label.append(f.message)
            label.append(f"  [{f.size_text}]", style="green")
            node = tree.add(label)
            if quiet:
                continue
            node.add(_frame(f.path, f.line))
            if show_evidence:
                ev = node.add(Text("evidence", style="dim"))
                for e in f.evidence:
                    loc = f" ({e.path}:{e.line})" if e.path else ""
                    ev.add(Text(f"{e.kind.value}: {e.text}{loc}", style="dim"))
            for u in f.unsure:
                node.add(Text(f"unsure: {u}", style="italic yellow"))
            if f.fix_safety_reason:
                node.add(Text(f"unsafe fix: {f.fix_safety_reason}", style="yellow"))
        console.print(tree)
    _loose([f for f in result.findings if not f.cls], console)
    if quiet:
        return
    certain = [f for f in result.findings if not f.extra.get("condition")]
    total = sum(f.estimated_bytes or 0 for f in certain)
    symbolic = sum(1 for f in certain if f.cls and f.estimated_bytes is None and f.size_expr)
    unknown = sum(1 for f in certain if f.cls and f.estimated_bytes is None and not f.size_expr)
    maybe = len(result.findings) - len(certain)
    counts = defaultdict(int)
    for f in result.findings:
        counts[f.code] += 1
    parts = ", ".join(f"{c}: {n}" for c, n in sorted(counts.items())) or "no findings"
    summary = f"{len(result.findings)} finding(s) in {len(by_cls)} class(es) ({parts}); "
    summary += f"estimated {human_bytes(total)} per instance"
    if symbolic:
        summary += f" + {symbolic} sized by an expression"
    if unknown:
        summary += f" + {unknown} of unknown size"
    if maybe:
        summary += f" ({maybe} allocated only under a condition, not counted)"
    unreadable = len(result.unreadable)
    summary += f"; {result.files - unreadable} file(s) analysed"
    if unreadable:
        summary += f", {unreadable} could not be read (errors above)"
    if result.skipped_sources:
        summary += f"; {len(result.skipped_sources)} code-generation source(s) skipped (--include-generation-sources)"
    if result.unsure:
        summary += f"; {len(result.unsure)} unsure finding(s) hidden (--show-unsure)"
    summary += unanalysed_clause(result.unanalysed) + gaps_clause(result)
    console.print(Text(summary, style="bold"))


SHOWN_PACKAGES = 3


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
