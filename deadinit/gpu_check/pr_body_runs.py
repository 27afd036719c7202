"""The GPU runs' sections of a pull request's description (``deadinit.gpu_check.pr_body``):
the memory each tree's class took on the device, and the forward runs that compared the
kernels' calls and outputs of the original and rewritten trees."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import forward_compare

MIB = 1 << 20


def mib(value: int | None) -> str:
    return "\N{EN DASH}" if value is None else f"{value / MIB:,.2f}"


def _comparisons(runs: Sequence[dict[str, Any]], labels: set | None):
    for run in runs:
        for entry in run.get("results", []):
            for comp in entry.get("comparisons", []):
                if comp.get("label") and (not labels or comp["label"] in labels):
                    yield run, entry, comp


def memory_section(runs: Sequence[dict[str, Any]], labels: set | None) -> list[str]:
    out = ["## Memory, measured on the GPU", ""]
    rows, seen = [], set()
    for run, entry, comp in _comparisons(runs, labels):
        key = (entry["name"], comp["label"])
        if key in seen:
            continue
        seen.add(key)
        rows.append((entry, comp, run))
    if not rows:
        return [*out, "No gpu-check run was given: nothing was measured.", ""]
    measure = (
        "`torch.cuda.memory_allocated()` around the constructor"
        if rows[0][2].get("measure") == "allocated"
        else "the tensor storages reachable from the instance"
    )
    out += [
        f"Measured by {measure}, each build in a fresh process.",
        "",
        "| class | tree | original MiB | rewritten MiB | saved MiB | pinned host saved MiB | build |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for entry, comp, _run in rows:
        build = "ok" if entry["rewritten"].get(comp["label"], {}).get("ok") else "failed"
        out.append(
            f"| {entry['name']} | {comp['label']} | {mib(comp.get('original_bytes'))} | "
            f"{mib(comp.get('rewritten_bytes'))} | {mib(comp.get('saved_bytes'))} | "
            f"{mib(comp.get('pinned_saved_bytes'))} | {build} |"
        )
    for entry, comp, _run in rows:
        saved = {k: v for k, v in (comp.get("attribute_savings") or {}).items() if v}
        if saved:
            out += [
                "",
                f"Saved by attribute, `{entry['name']}` [{comp['label']}] (tensor storages reachable "
                "from each attribute, each counted once):",
                "",
                "| attribute | saved MiB |",
                "|---|---:|",
            ]
            out += [f"| `{k}` | {mib(v)} |" for k, v in sorted(saved.items(), key=lambda kv: -kv[1])]
            out += _overlap_note(sum(saved.values()), comp.get("saved_bytes"))
    return [*out, ""]


def _overlap_note(column: int, total: int | None) -> list[str]:
    """Why the per-attribute column adds up to more than the class saves (storages shared by attributes)."""
    if total is None or column <= total + 2**10:
        return []
    return [
        "",
        f"The column adds up to {mib(column)} MiB, more than the {mib(total)} MiB saved: a storage reachable "
        "from several attributes (a workspace the wrappers share) is listed under each of them.",
    ]


def _forward(entry: dict[str, Any], comp: dict[str, Any]) -> dict[str, Any] | None:
    orig, rew = entry.get("original", {}), entry.get("rewritten", {}).get(comp["label"], {})
    if not orig.get("forward") or not rew.get("forward"):
        return None
    result = forward_compare.compare(orig["forward"], rew["forward"])
    stored = comp.get("forward") or {}
    result["device_equal"] = stored.get("device_equal")
    if stored.get("status") == "differs":
        result["status"], result["first_difference"] = "differs", stored.get("first_difference")
    return result


def forward_section(runs: Sequence[dict[str, Any]], labels: set | None) -> list[str]:
    out = ["## Forward run: every call into the attention kernels, original against rewritten", ""]
    rows, stand_ins, ran, skipped = [], {}, {}, []
    for run, entry, comp in _comparisons(runs, labels):
        number = runs.index(run) + 1
        fwd = _forward(entry, comp)
        if fwd is None:
            continue
        eq = fwd.get("device_equal") or {}
        for path in fwd["paths"]:
            if path["status"] == "not exercised":
                skipped.append(
                    f"`{entry['name']}` [{comp['label']}] {path['name']}: raised in both trees ({path.get('error')})"
                )
        exercised = [p["name"] for p in fwd["paths"] if p["status"] != "not exercised"]
        tensors = f"{eq.get('equal', 0)} / {eq.get('checked', 0)}" if eq else "\N{EN DASH}"
        result = {"equal": "**equal**", "differs": "**differs**"}.get(fwd["status"], fwd["status"])
        rows.append(
            f"| {number} | {entry['name']} | {comp['label']} | {', '.join(exercised)} | "
            f"{fwd.get('calls_compared', 0)} | "
            f"{fwd.get('kernels_ran', 0)} / {fwd.get('kernels_stood_in', 0)} | {tensors} | {result} |"
        )
        if fwd.get("first_difference"):
            skipped.append(f"`{entry['name']}` [{comp['label']}]: " + (forward_compare.difference_message(fwd) or ""))
        for target, why in fwd.get("stand_ins", {}).items():
            stand_ins.setdefault(target, [why, set()])[1].add(number)
        for target in fwd.get("kernels_run", []):
            ran.setdefault(target, set()).add(number)
    if not rows:
        return [*out, "No forward run was given: the forward path was not exercised.", ""]
    out += [
        "Each tree built the class in a fresh process, then drove the methods a serving step calls "
        "with the same seeded inputs (a real KV pool, q/k/v tensors, two layers): "
        "`init_forward_metadata` and `forward` for each path; `cuda-graph-decode` calls "
        "`init_cuda_graph_state`, `init_forward_metadata_out_graph` / `_in_graph` for capture and "
        "replay eagerly, without recording a CUDA graph. Every call into a kernel entry point was "
        "recorded with its arguments (tensors by shape, dtype and SHA-256 of their bytes; workspace "
        "buffers by shape and dtype only), and the two trees' calls were compared one by one; the "
        "tensors were then compared bit for bit on the device.",
        "",
        "| run | class | tree | paths | calls compared | kernels ran / stand-in | tensors bit-identical | result |",
        "|---:|---|---|---|---:|---:|---:|---|",
        *rows,
        "",
    ]
    out += [
        f"Run {i + 1} ({', '.join(_run_notes(run))}; its command is under Reproduce)." for i, run in enumerate(runs)
    ] + [""]
    if ran:
        out += [
            "Kernels that ran on the device, so that their outputs were compared too: "
            + ", ".join(f"`{t.split(':', 1)[1]}` (run {_runs(n)})" for t, n in sorted(ran.items()))
            + ".",
            "",
        ]
    if stand_ins:
        out += [
            "Kernels that did **not** run where listed: the run stopped at their entry point, recorded the "
            "call and returned zeros of the output's shape, so their outputs were neither computed nor "
            "compared:",
            "",
        ]
        out += [f"- `{t.split(':', 1)[1]}` (run {_runs(n)}): {why}" for t, (why, n) in sorted(stand_ins.items())]
        out.append("")
    if skipped:
        out += ["Not exercised or different:", ""] + [f"- {s}" for s in skipped] + [""]
    return out


def _runs(numbers: Iterable[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))


def _run_notes(run: dict[str, Any]) -> list[str]:
    command = run.get("command") or ""
    count = len(run.get("results", []))
    notes = [f"{count} {'class' if count == 1 else 'classes'}"]
    notes.append(
        "FlashInfer's JIT kernels tried for real (`--run-kernels`)"
        if "--run-kernels" in command
        else "every kernel stopped at its entry point"
    )
    return notes
