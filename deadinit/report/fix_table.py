"""Rich summary of a ``deadinit fix`` run: what changed, and what was left alone and why."""

from __future__ import annotations

from rich.table import Table

from deadinit.model.finding import human_bytes
from deadinit.model.qualnames import short_name


def _bytes(c) -> str:
    if c.size:
        return c.size
    text = human_bytes(c.estimated_bytes) if c.estimated_bytes is not None else "unknown"
    if c.estimated_bytes is not None and c.unknown_sizes:
        text += f" + {c.unknown_sizes} unknown"
    return text


def render(out, console, applied: bool = True, names: dict[str, str] | None = None) -> None:
    """``names``: how to show each class (a name ``--class`` accepts); else its short name."""
    changes = out.plan.changes

    def short(qualname: str) -> str:
        return (names or {}).get(qualname) or short_name(qualname)

    verb = "changed" if applied and out.written else "would change"
    if changes:
        t = Table(
            title=f"deadinit fix --strategy {out.strategy}: {len(changes)} class(es) {verb}",
            title_justify="left",
            show_lines=False,
        )
        t.add_column("class", overflow="fold")
        t.add_column("flag", overflow="fold")
        t.add_column("attributes skipped", overflow="fold")
        t.add_column("est. bytes / instance", justify="right", overflow="fold")
        for c in changes:
            skipped = [f"self.{a}" for a in c.attributes] + [f"self.{a} (overwritten)" for a in c.overwritten]
            t.add_row(short(c.cls), c.flag or "", "\n".join(skipped), _bytes(c))
        console.print(t)
        st = out.diff_stat()
        console.print(
            f"{st['files']} file(s), {st['insertions']} insertion(s)(+), {st['deletions']} deletion(s)(-)",
            markup=False,
            highlight=False,
        )
    elif not out.refusals:
        console.print("deadinit fix: nothing to fix", markup=False)
    if out.refusals:
        t = Table(title="not fixed", title_justify="left")
        t.add_column("class", overflow="fold")
        t.add_column("parent", overflow="fold")
        t.add_column("attributes", overflow="fold")
        t.add_column("reason", overflow="fold")
        for r in out.refusals:
            t.add_row(short(r.cls), short(r.parent) if r.parent else "", ", ".join(r.attributes), r.reason)
        console.print(t)
