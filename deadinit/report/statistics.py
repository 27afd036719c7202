"""``--statistics``: counts per rule instead of the findings themselves."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

from rich.console import Console
from rich.table import Table

from deadinit.model.finding import human_bytes


def rows(findings) -> list[dict]:
    counts = Counter(f.code for f in findings)
    names = {f.code: f.name for f in findings}
    fixable: dict[str, int] = defaultdict(int)
    sizes: dict[str, int] = defaultdict(int)
    unknown: dict[str, int] = defaultdict(int)
    symbolic: dict[str, int] = defaultdict(int)
    for f in findings:
        if f.fix_safety == "safe":
            fixable[f.code] += 1
        if f.extra.get("condition"):
            continue  # allocated only under an undecided condition: not certain waste
        if f.estimated_bytes is None and f.size_expr:
            symbolic[f.code] += 1
        elif f.estimated_bytes is None:
            unknown[f.code] += 1
        else:
            sizes[f.code] += f.estimated_bytes
    return [
        {
            "code": code,
            "name": names[code],
            "count": n,
            "fixable": fixable[code],
            "estimated_bytes": sizes[code],
            "symbolic_size": symbolic[code],
            "unknown_size": unknown[code],
        }
        for code, n in sorted(counts.items(), key=lambda kv: (-sizes[kv[0]], -symbolic[kv[0]], -kv[1], kv[0]))
    ]


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
    table.add_column("estimated waste", justify="right")
    for r in data:
        waste = human_bytes(r["estimated_bytes"]) if r["estimated_bytes"] else "-"
        more = [f"+{r['symbolic_size']} by expression"] if r["symbolic_size"] else []
        more += [f"+{r['unknown_size']} unknown"] if r["unknown_size"] else []
        if more:
            waste += f" ({', '.join(more)})"
        table.add_row(str(r["count"]), r["code"], r["name"], str(r["fixable"]), waste)
    console.print(table)
