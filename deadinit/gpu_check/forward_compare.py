"""Compare the kernel-boundary calls of the original and a rewritten tree.

No torch here. Each child recorded, per forward path, every call into a kernel entry
point (name, argument digests, output digest) and the backend's outputs; this module
lines the two lists up and names the first call and argument that differ. Arguments
marked as scratch (a workspace buffer) are compared by shape and dtype only.
"""

from __future__ import annotations

import json
from typing import Any

BACKEND_OUTPUT = "backend output"


def _calls(forward: dict[str, Any], path: str) -> list[dict[str, Any]]:
    return [c for c in forward.get("calls", []) if c.get("path") == path]


def describe(value: Any) -> str:
    if isinstance(value, dict) and "tensor" in value:
        text = f"tensor {value['dtype']}{value['tensor']}"
        return text + (" (scratch)" if value.get("scratch") else f" sha256 {value.get('sha256', '')[:12]}")
    if isinstance(value, dict) and "float" in value:
        return value["float"]
    return json.dumps(value, sort_keys=True)[:200]


def _value_difference(a: Any, b: Any) -> str | None:
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict) and "tensor" in a and "tensor" in b:
        if a["tensor"] != b["tensor"]:
            return f"shape {a['tensor']} vs {b['tensor']}"
        if a["dtype"] != b["dtype"]:
            return f"dtype {a['dtype']} vs {b['dtype']}"
        if a.get("scratch") and b.get("scratch"):
            return None
        return "contents differ"
    return f"{describe(a)} vs {describe(b)}"


def call_difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, str] | None:
    """The first difference between two recorded calls, or None."""
    if a["name"] != b["name"] or a.get("target") != b.get("target"):
        return {"argument": "(call)", "detail": f"{a['name']} vs {b['name']}"}
    keys = list(a.get("args", {})) + [k for k in b.get("args", {}) if k not in a.get("args", {})]
    for key in keys:
        if key not in a.get("args", {}) or key not in b.get("args", {}):
            return {"argument": key, "detail": "passed in one tree only"}
        detail = _value_difference(a["args"][key], b["args"][key])
        if detail:
            return {
                "argument": key,
                "detail": detail,
                "original": describe(a["args"][key]),
                "rewritten": describe(b["args"][key]),
            }
    if "output" in a or "output" in b:
        detail = _value_difference(a.get("output"), b.get("output"))
        if detail:
            return {
                "argument": "(output)",
                "detail": detail,
                "original": describe(a.get("output")),
                "rewritten": describe(b.get("output")),
            }
    return None


def _path_entry(forward: dict[str, Any], name: str) -> dict[str, Any]:
    for entry in forward.get("paths", []):
        if entry["name"] == name:
            return entry
    return {"name": name, "ok": False, "error": "path not run"}


def compare_path(orig: dict[str, Any], rew: dict[str, Any], name: str) -> dict[str, Any]:
    po, pr = _path_entry(orig, name), _path_entry(rew, name)
    co, cr = _calls(orig, name), _calls(rew, name)
    kernel = [c for c in co if c.get("target") != BACKEND_OUTPUT]
    out = {
        "name": name,
        "steps": po.get("steps", []),
        "calls_original": len(co),
        "calls_rewritten": len(cr),
        "kernel_calls": len(kernel),
        "kernels_ran": sum(1 for c in kernel if c.get("ran")),
        "kernels_stood_in": sum(1 for c in kernel if not c.get("ran")),
        "kernel_names": sorted({c["name"] for c in kernel}),
        "backend_outputs": sum(1 for c in co if c.get("target") == BACKEND_OUTPUT),
    }
    if not po.get("ok") and not pr.get("ok"):
        same = po.get("error") == pr.get("error")
        out.update(
            status="not exercised" if same else "differs", error=po.get("error"), rewritten_error=pr.get("error")
        )
        if not same:
            out["first_difference"] = {
                "index": None,
                "call": "(path)",
                "argument": "(exception)",
                "detail": f"original raised {po.get('error')}; rewritten raised {pr.get('error')}",
            }
        return out
    if po.get("ok") != pr.get("ok"):
        which, err = ("rewritten", pr.get("error")) if po.get("ok") else ("original", po.get("error"))
        out.update(
            status="differs",
            first_difference={
                "index": len(cr) if po.get("ok") else len(co),
                "call": "(path)",
                "argument": "(exception)",
                "detail": f"only the {which} tree raised: {err}",
            },
        )
        out["traceback"] = (pr if po.get("ok") else po).get("traceback")
        return out
    for i, (a, b) in enumerate(zip(co, cr, strict=False)):
        diff = call_difference(a, b)
        if diff:
            out.update(status="differs", compared=i, first_difference={"index": i, "call": a["name"], **diff})
            return out
    if len(co) != len(cr):
        i = min(len(co), len(cr))
        extra = (co if len(co) > len(cr) else cr)[i]["name"]
        out.update(
            status="differs",
            compared=i,
            first_difference={
                "index": i,
                "call": extra,
                "argument": "(call)",
                "detail": f"{len(co)} calls in the original, {len(cr)} in the rewritten tree",
            },
        )
        return out
    out.update(status="equal", compared=len(co))
    return out


def tensor_pairs(orig: dict[str, Any], rew: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(original sha, rewritten sha, what) for every tensor two equal-looking calls passed."""
    pairs = []
    for path in [p["name"] for p in orig.get("paths", [])]:
        for a, b in zip(_calls(orig, path), _calls(rew, path), strict=False):
            for key, value in a.get("args", {}).items():
                other = b.get("args", {}).get(key)
                for x, y in _tensor_leaves(value, other):
                    pairs.append((x, y, f"{path} #{a['index']} {a['name']}({key})"))
            for x, y in _tensor_leaves(a.get("output"), b.get("output")):
                pairs.append((x, y, f"{path} #{a['index']} {a['name']} -> output"))
    return pairs


def _tensor_leaves(a: Any, b: Any):
    if isinstance(a, dict) and isinstance(b, dict) and "sha256" in a and "sha256" in b:
        yield a["sha256"], b["sha256"]
    elif isinstance(a, list) and isinstance(b, list):
        for x, y in zip(a, b, strict=False):
            yield from _tensor_leaves(x, y)


def compare(orig: dict[str, Any] | None, rew: dict[str, Any] | None) -> dict[str, Any]:
    """The forward comparison of one class between two trees."""
    if not orig or not rew:
        return {"status": "not run", "paths": []}
    if orig.get("error") or rew.get("error"):
        return {"status": "error", "paths": [], "error": orig.get("error") or rew.get("error")}
    names = [p["name"] for p in orig.get("paths", [])]
    paths = [compare_path(orig, rew, n) for n in names]
    differing = [p for p in paths if p["status"] == "differs"]
    exercised = [p for p in paths if p["status"] == "equal"]
    status = "differs" if differing else ("equal" if exercised else "not exercised")
    out = {
        "status": status,
        "paths": paths,
        "calls_compared": sum(p.get("compared", 0) for p in paths),
        "kernel_calls": sum(p["kernel_calls"] for p in exercised),
        "kernels_ran": sum(p["kernels_ran"] for p in exercised),
        "kernels_stood_in": sum(p["kernels_stood_in"] for p in exercised),
        "stand_ins": {
            c["target"]: c.get("stand_in", "")
            for c in orig.get("calls", [])
            if c.get("target") != BACKEND_OUTPUT and not c.get("ran")
        },
        "kernels_run": sorted(
            {c["target"] for c in orig.get("calls", []) if c.get("target") != BACKEND_OUTPUT and c.get("ran")}
        ),
        "boundary_missing": (orig.get("boundary") or {}).get("missing", {}),
    }
    if differing:
        first = differing[0]
        out["first_difference"] = {"path": first["name"], **first["first_difference"]}
    return out


def difference_message(forward: dict[str, Any]) -> str | None:
    first = forward.get("first_difference")
    if not first:
        return None
    where = (
        f"path {first['path']}, call #{first['index']} {first['call']}"
        if first.get("index") is not None
        else f"path {first['path']}"
    )
    return f"forward run differs: {where}, argument {first['argument']}: {first['detail']}"
