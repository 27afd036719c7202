"""``--statistics``: counts per rule instead of the findings themselves."""

from __future__ import annotations

import json
from collections import defaultdict

from rich.console import Console
from rich.table import Table

from deadinit.model.kinds import FixSafety
from deadinit.model.totals import Totals


def rows(findings) -> list[dict]:
    """One row per rule: its findings, how many a plain fix removes, and its waste per instance in the
    two columns of ``model.totals`` (DI003 restates DI001/DI002 bytes: its row adds none)."""
    by_code: dict[str, list] = defaultdict(list)
    for f in findings:
        by_code[f.code].append(f)
    out = []
    for code, group in by_code.items():
        t = Totals.of(group)
        out.append(
            {
                "code": code,
                "name": group[0].name,
                "count": len(group),
                "fixable": sum(1 for f in group if f.fix_safety == FixSafety.SAFE),
                "steady_bytes": t.steady.bytes,
                "transient_bytes": t.transient.bytes,
                "estimated_bytes": t.steady.bytes + t.transient.bytes,
                "symbolic_size": t.steady.by_expression + t.transient.by_expression,
                "unknown_size": t.steady.unknown + t.transient.unknown,
                "kept_alive": t.kept_alive,
                "steady": t.steady.compact(),
                "transient": t.transient.compact(),
                "conditional": t.conditional,
            }
        )
    return sorted(out, key=lambda r: (-r["estimated_bytes"], -r["symbolic_size"], -r["count"], r["code"]))


def render_json(findings) -> str:
    return json.dumps(rows(findings), indent=2) + "\n"


def render_text(findings, console: Console) -> None:
    data = rows(findings)
    if not data:
        console.print("no findings")
        return
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("count", justify="right", no_wrap=True)
    table.add_column("code", no_wrap=True)
    table.add_column("name", no_wrap=True)  # whole: a rule name is what people search for
    table.add_column("safe fix", justify="right", no_wrap=True)
    table.add_column("held for life", justify="right")
    table.add_column("built then replaced", justify="right")
    for r in data:
        table.add_row(str(r["count"]), r["code"], r["name"], str(r["fixable"]), r["steady"], r["transient"])
    console.print(table)
