"""``--format full``: the findings grouped by subclass, each with its code frame and its whole
evidence chain (the default text report shows one step of it: ``report.finding_lines``)."""

from __future__ import annotations

import linecache

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from deadinit.analysis.naming import display_names
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


def render_class(index, cls: str, findings, console: Console, show_evidence: bool, quiet: bool) -> None:
    """One subclass's findings as a tree under its MRO."""
    mro = (index.mro(cls) or [cls]) if index else [cls]
    names = display_names(index, mro) if index else {}
    chain = " -> ".join(names.get(q, q) for q in mro) if index else cls
    head = Text()
    head.append(cls, style="bold cyan")
    head.append(f"  ({chain})", style="dim")
    tree = Tree(head)
    for f in findings:
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
        if f.fix_text:
            node.add(Text(f.fix_text, style="yellow"))
    console.print(tree)
