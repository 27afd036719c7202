"""The DI003 reuse table (``deadinit explain`` prints it for any class, below the threshold too)."""

from __future__ import annotations

from rich.text import Text

from deadinit.analysis.reuse import compute_reuse
from deadinit.model.finding import human_bytes
from deadinit.model.qualnames import short_name

STATUS_STYLE = {
    "reused": "green",
    "used": "green",
    "read": "green",
    "overridden": "yellow",
    "overwritten": "bold red",
    "dead": "bold red",
    "unused": "dim",
    "unread": "dim",
    "stub": "dim",
    "skipped": "dim",
}


def lines(r) -> list[str]:
    """Plain-text headline of the table (also used by tests and the fix report)."""
    base = "object" if r.suggestion == "object" else short_name(r.suggestion)
    verdict = "reported (DI003)" if r.flagged else "not reported"
    out = [
        f"reuse of {short_name(r.parent)} by {short_name(r.cls)}: "
        f"{len(r.reused_methods)}/{len(r.counted_methods)} methods, "
        f"{len(r.used_allocations)}/{len(r.allocations)} allocations -> share {r.share:.0%} "
        f"(threshold {r.threshold:.0%}): {verdict}",
        f"suggested base: {base} (drops {', '.join(short_name(q) for q in r.dropped)})",
    ]
    helpers = ", ".join(f"{m.name} ({m.lines} lines)" for m in r.move_methods) or "none"
    out.append(
        f"would move: attributes {', '.join(r.move_attrs) or 'none'}; helpers {helpers}; "
        f"class attributes {', '.join(c.name for c in r.move_class_attrs) or 'none'}"
    )
    if r.dead_allocations:
        size = f"{human_bytes(r.dead_bytes)} known" if r.dead_bytes is not None else "size unknown"
        out.append(f"dead allocations: {', '.join(a.attr for a in r.dead_allocations)} ({size})")
    for caller, call, owner in r.super_into_dropped:
        out.append(f"note: {caller} calls {call} into {short_name(owner)}")
    return out


def _brief(why: str) -> str:
    why = why.split(", reachable:")[0]
    return why if len(why) <= 90 else why[:87] + "..."


def rows(r) -> list[tuple[str, str, str, str, str]]:
    """(member, owner, status, size, why) for every parent member, methods first."""
    out = []
    for m in r.methods:
        out.append((f"{m.name}()", short_name(m.owner), m.status, f"{m.lines} lines", _brief(m.why)))
    for a in r.attrs:
        size = a.kind if a.bytes is None else f"{a.kind}, {human_bytes(a.bytes)}"
        out.append((f"self.{a.attr}", short_name(a.owner), a.status, size, _brief(a.why)))
    for c in r.class_attrs:
        out.append((f"{c.name} (class attribute)", short_name(c.owner), c.status, "", _brief(c.why)))
    return out


def render(console, r) -> None:
    if r is None:
        console.print(Text("reuse: the class has no project base", style="dim"))
        return
    for i, line in enumerate(lines(r)):
        console.print(Text(line, style="bold" if i == 0 else ""), soft_wrap=True)
    table = rows(r)
    w = max((len(x[0]) for x in table), default=10)
    for member, owner, status, size, why in table:
        t = Text("  ")
        t.append(f"{status:<11}", style=STATUS_STYLE.get(status, ""))
        t.append(f" {member:<{w}}  {owner}  ")
        t.append(f"[{size}]" if size else "", style="dim")
        t.append(f"  {why}", style="dim")
        console.print(t, soft_wrap=True)


def render_for(console, index, analyzer, qualname: str, an=None) -> None:
    """``explain``'s reuse section for ``qualname`` (printed whatever the share)."""
    threshold = getattr(getattr(analyzer, "settings", None), "di003_threshold", 0.25)
    console.print(Text("reuse of the parent (DI003)", style="bold"))
    render(console, compute_reuse(index, analyzer, qualname, threshold, an=an))
