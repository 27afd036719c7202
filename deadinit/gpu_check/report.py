"""Format a gpu-check result: a rich table for people, JSON for tools. Formatting only."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table

MIB = 1 << 20


def mib(value: int | None) -> str:
    return "-" if value is None else f"{value / MIB:,.2f}"


def _seconds(result: dict[str, Any]) -> str:
    s = result.get("construct_seconds")
    return "-" if s is None else f"{s:.3g}"


def header_lines(data: dict[str, Any]) -> list[str]:
    env = data.get("environment") or {}
    where = ", ".join(
        str(x)
        for x in (
            env.get("gpu"),
            env.get("capability") and f"sm {env['capability']}",
            env.get("torch") and f"torch {env['torch']}",
            env.get("python") and f"python {env['python']}",
        )
        if x
    )
    measured_by = "torch.cuda.memory_allocated delta" if data["measure"] == "allocated" else "reachable tensor storages"
    lines = [f"device: {data['device']}" + (f" ({where})" if where else "") + f"; measured by {measured_by}"]
    for tree in data.get("trees", []):
        lines.append(
            f"{tree['label']}: {tree['path']}" + ("" if tree["source"] == tree["path"] else f" ({tree['source']})")
        )
    if data.get("stubbed"):
        lines.append("STUBBED (missing, never called by the constructors): " + ", ".join(data["stubbed"]))
    elif data.get("stub_requested"):
        lines.append("stubs requested but not needed (real packages present): " + ", ".join(data["stub_requested"]))
    return lines


def build_table(data: dict[str, Any]) -> Table:
    with_rewritten = any(len(t) > 0 for t in (e["rewritten"] for e in data["results"]))
    many = len(data.get("trees", [])) > 2
    table = Table(title="deadinit gpu-check", title_justify="left")
    table.add_column("class")
    if many:
        table.add_column("tree")
    if with_rewritten:
        for col in ("original MiB", "rewritten MiB", "saved MiB", "pinned host saved MiB", "build s orig/rew"):
            table.add_column(col, justify="right")
    else:
        for col in ("MiB", "pinned host MiB", "build s"):
            table.add_column(col, justify="right")
    table.add_column("status")
    for entry in data["results"]:
        for comp in entry["comparisons"]:
            style = "red" if comp["failed"] else ("yellow" if comp["status"] != "ok" else "green")
            row = [entry["name"]] + ([comp["label"] or ""] if many else [])
            if with_rewritten:
                rew = entry["rewritten"].get(comp["label"], {})
                row += [
                    mib(comp["original_bytes"]),
                    mib(comp["rewritten_bytes"]),
                    mib(comp["saved_bytes"]),
                    mib(comp["pinned_saved_bytes"]),
                    f"{_seconds(entry['original'])}/{_seconds(rew)}",
                ]
            else:
                row += [mib(comp["original_bytes"]), mib(comp["original_pinned_bytes"]), _seconds(entry["original"])]
            row.append(f"[{style}]{comp['status']}[/{style}]")
            table.add_row(*row)
    return table


def forward_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per (class, tree, path) of the forward run, in the order they ran."""
    rows = []
    for entry in data["results"]:
        for comp in entry["comparisons"]:
            forward = comp.get("forward") or {}
            for path in forward.get("paths", []):
                rows.append(
                    {
                        "class": entry["name"],
                        "tree": comp["label"],
                        "path": path["name"],
                        "status": path["status"],
                        "calls": path.get("compared", 0),
                        "kernel_calls": path["kernel_calls"],
                        "ran": path["kernels_ran"],
                        "stood_in": path["kernels_stood_in"],
                        "kernels": path["kernel_names"],
                        "error": path.get("error"),
                    }
                )
    return rows


def build_forward_table(data: dict[str, Any]) -> Table | None:
    rows = forward_rows(data)
    if not rows:
        return None
    table = Table(title="forward run: kernel-boundary calls, original vs rewritten", title_justify="left")
    for col in ("class", "tree", "path"):
        table.add_column(col)
    for col in ("calls compared", "kernel calls", "ran / stand-in"):
        table.add_column(col, justify="right")
    table.add_column("result")
    for row in rows:
        style = {"equal": "green", "differs": "red"}.get(row["status"], "yellow")
        table.add_row(
            row["class"],
            row["tree"] or "",
            row["path"],
            str(row["calls"]),
            str(row["kernel_calls"]),
            f"{row['ran']} / {row['stood_in']}",
            f"[{style}]{row['status']}[/{style}]",
        )
    return table


def forward_lines(data: dict[str, Any]) -> list[str]:
    lines = []
    for entry in data["results"]:
        for comp in entry["comparisons"]:
            forward = comp.get("forward") or {}
            equal = forward.get("device_equal")
            if equal:
                lines.append(
                    f"{entry['name']} [{comp['label']}] {equal.get('checked', 0)} of "
                    f"{equal.get('pairs', 0)} tensor pairs compared bit for bit on {equal.get('device')}: "
                    f"{equal.get('equal', 0)} equal"
                    + (f", {equal['missing']} not kept" if equal.get("missing") else "")
                )
            for target, why in forward.get("stand_ins", {}).items():
                lines.append(f"{entry['name']} [{comp['label']}] stand-in (not run): {target}: {why}")
    return lines


def detail_lines(data: dict[str, Any], verbose: bool = False) -> list[str]:
    lines = []
    for entry in data["results"]:
        runs = [("original", entry["original"]), *entry["rewritten"].items()]
        for label, result in runs:
            if not result.get("ok"):
                lines.append(f"{entry['name']} [{label}] failed: {result.get('error')}")
                tail = (result.get("traceback") or result.get("log_tail") or "").strip().splitlines()
                lines += ["    " + t for t in tail[-(30 if verbose else 8) :]]
        for comp in entry["comparisons"]:
            for kind in ("fail", "warn"):
                for problem in comp["problems"][kind]:
                    lines.append(f"{entry['name']} [{comp['label']}] {kind}: {problem}")
            if verbose and comp["attribute_savings"]:
                saved = ", ".join(
                    f"{k} {mib(v)} MiB" for k, v in sorted(comp["attribute_savings"].items(), key=lambda kv: -kv[1])
                )
                lines.append(f"{entry['name']} [{comp['label']}] saved by attribute: {saved}")
    return lines


def render_text(data: dict[str, Any], console: Console | None = None, verbose: bool = False) -> None:
    if console is None:
        console = Console()
        if not console.is_terminal:  # logs and CI: do not squeeze the table into 80 columns
            console = Console(width=160)
    for line in header_lines(data):
        console.print(line, markup=False, highlight=False)
    console.print(build_table(data))
    for line in detail_lines(data, verbose):
        console.print(line, markup=False, highlight=False)
    forward = build_forward_table(data)
    if forward is not None:
        console.print(forward)
        for line in forward_lines(data) if verbose else []:
            console.print(line, markup=False, highlight=False)
    s = data["summary"]
    console.print(
        f"{s['classes']} class(es), {s['comparisons']} comparison(s), {s['failed']} failed; exit {data['exit_code']}",
        markup=False,
        highlight=False,
    )


def to_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, default=str) + "\n"
