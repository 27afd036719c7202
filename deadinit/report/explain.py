"""What ``deadinit explain QUALNAME`` prints: why each attribute a class's parents allocate is
live or dead.

The class's MRO and ``__init__`` chain, then for every attribute an
ancestor's ``__init__`` assigns: its status, where it is allocated, and the read
that keeps it live or the evidence that no read counts.
"""

from __future__ import annotations

from rich.text import Text
from rich.tree import Tree

from deadinit.model.evidence import EvidenceKind
from deadinit.model.finding import human_bytes
from deadinit.model.kinds import InitStmtKind
from deadinit.report import reuse_table
from deadinit.report.paths import display
from deadinit.rules.registry import attribute_rule_for

STATUS_STYLE = {
    "overwritten": "bold red",
    "unread": "bold yellow",
    "live": "green",
    "skipped": "dim",
    "plain": "dim",
    "not reported": "dim",
}

SHOWN_ABOVE = (EvidenceKind.ALLOCATED, EvidenceKind.CHAIN, EvidenceKind.CHECKED)  # in the tree and the header


def _groups(an, cls: str) -> list[tuple[str, str, list]]:
    """(owner, attr, chain statements) for every attribute an ancestor assigns, in chain order."""
    groups: dict[tuple[str, str], list] = {}
    for c in an.chain.stmts:
        if c.owner != cls and c.stmt.kind in (InitStmtKind.ASSIGN, InitStmtKind.FILL) and c.stmt.attr:
            groups.setdefault((c.owner, c.stmt.attr), []).append(c)
    return [(o, a, cs) for (o, a), cs in groups.items()]


def _status(an, analyzer, cls, owner, attr, stmts, facts, effective_ids) -> tuple[str, str, list[str]]:
    """(status, headline, detail lines)."""
    fact = facts.get((owner, attr))
    if fact is not None:
        rule = attribute_rule_for(fact)
        size = (fact.size.expression() if fact.size else None) or human_bytes(fact.estimated_bytes)
        head = f"{rule.code} {rule.fate} ({fact.kind}, {size})"
        lines = []
        for e in fact.evidence:
            if e.kind in SHOWN_ABOVE:
                continue
            loc = f"  [{display(e.path)}:{e.line}]" if e.path else ""
            lines.append(f"{e.kind.value}: {e.text}{loc}")
        lines += [f"builds only dead self.{x}" for x in fact.feeds]
        lines += [f"unsure: {u}" for u in fact.unsure]
        return rule.fate, head, lines
    if all(c.active is False for c in stmts):
        return (
            "skipped",
            "never runs for this class",
            ["every assignment sits under a condition that is false for the arguments this class passes"],
        )
    mro = analyzer.index.mro(cls) or [cls]
    kind = next((k for k in (analyzer.allocation_kind(c, mro) for c in stmts) if k), None)
    why = an.read_why.get(attr)
    if attr in an.live or any(id(c) in effective_ids for c in stmts):
        label = f"live ({kind})" if kind else "live (plain value, not an allocation)"
        return (
            "live",
            label,
            [why or "its value is used within the __init__ chain, or kept alive inside a live attribute"],
        )
    if kind is None:
        return "plain", "not an allocation (plain value): never reported", ["no read that counts was found"]
    return "not reported", f"{kind}: not reported", ["overwritten inside its own __init__, or kept by a live attribute"]


def render(result, qualname: str, console, verbose: bool = False) -> None:
    index, analyzer = result.index, result.analyzer
    cls_sum = index.classes[qualname]
    path = display(index.file_of(qualname).path)
    head = Text()
    head.append(qualname, style="bold cyan")
    head.append(f"  {path}:{cls_sum.line}", style="magenta")
    console.print(head)
    mro = index.mro(qualname) or [qualname]
    console.print(Text("MRO: " + " -> ".join(mro), style="dim"))
    external = [b.name for b in index.external_bases(qualname)]
    if external:
        console.print(Text("outside the project: " + ", ".join(external), style="dim"))
    an = analyzer.analyse(qualname)
    if an is None:
        console.print("No ancestor __init__ runs for this class: nothing inherited to explain.")
        reuse_table.render_for(console, index, analyzer, qualname)
        return
    console.print(
        Text("__init__ chain: " + " -> ".join(f"{o.rsplit('.', 1)[-1]}.__init__" for o in an.chain.inits), style="dim")
    )
    for note in an.chain.notes:
        console.print(Text(f"note: {note}", style="dim"))
    methods = sorted(an.reach.methods.items())
    console.print(Text(f"{len(methods)} method(s) can run on an instance", style="dim"))
    if verbose:
        for (o, m), why in methods:
            console.print(Text(f"  {o.rsplit('.', 1)[-1]}.{m}: {why}", style="dim"))
    for reason, _ in an.unsure:
        console.print(Text(f"dynamic access: {reason}", style="italic yellow"))
    events = [c for c in an.chain.stmts if c.active is not False]
    effective_ids = {id(events[i]) for i in an.effective if i < len(events)}
    facts = {(f.owner, f.attr): f for f in an.facts}
    tree = Tree(Text("attributes allocated by ancestors' __init__", style="bold"))
    groups = _groups(an, qualname)
    for owner, attr, stmts in groups:
        status, headline, lines = _status(an, analyzer, qualname, owner, attr, stmts, facts, effective_ids)
        label = Text()
        label.append(f"{owner.rsplit('.', 1)[-1]}.{attr}  ", style="bold")
        label.append(headline, style=STATUS_STYLE.get(status, ""))
        node = tree.add(label)
        where = ", ".join(f"{display(c.path)}:{c.stmt.line}" for c in stmts)
        node.add(
            Text(
                f"allocated at {where}" if any(c.stmt.alloc for c in stmts) else f"assigned at {where}", style="magenta"
            )
        )
        for line in lines:
            node.add(Text(line, style="dim"))
    if not groups:
        tree.add(Text("(none)", style="dim"))
    console.print(tree)
    reuse_table.render_for(console, index, analyzer, qualname, an)
