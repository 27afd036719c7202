"""Compare a class built from the original tree with the same class built from a
rewritten one (``deadinit.gpu_check.runner``): the bytes each took, what the rewritten
instance still reads, and the forward runs' calls and tensors, bit for bit on the device."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from . import forward_compare, inputs
from .run_options import Options

EQUAL_CHILD = Path(__file__).with_name("forward_equal.py")


def measured_bytes(result: dict[str, Any], mode: str) -> int | None:
    if not result.get("ok"):
        return None
    if mode == "allocated":
        return result.get("device_bytes")
    return (result.get("reachable") or {}).get("bytes")


def pinned_bytes(result: dict[str, Any], mode: str) -> int | None:
    if not result.get("ok"):
        return None
    if mode == "allocated" and result.get("pinned_host_bytes") is not None:
        return result["pinned_host_bytes"]
    return (result.get("reachable") or {}).get("pinned_bytes")


def attribute_savings(orig: dict[str, Any], rew: dict[str, Any]) -> dict[str, int]:
    a = (orig.get("reachable") or {}).get("attributes", {})
    b = (rew.get("reachable") or {}).get("attributes", {})
    out = {}
    for name in list(a) + [n for n in b if n not in a]:
        diff = a.get(name, {}).get("bytes", 0) - b.get(name, {}).get("bytes", 0)
        if diff:
            out[name] = diff
    return out


def check(target: inputs.Target, label: str, rew: dict[str, Any]) -> dict[str, list[str]]:
    """Problems found on the rewritten instance: 'fail' ones set the exit code."""
    fail, warn = [], []
    expect = target.expect_for(label)
    checks = rew.get("checks", {})
    for attr, state in checks.get("reads", {}).items():
        if state != "set":
            fail.append(f"reads {attr} but it is {state}")
    for attr, state in checks.get("skipped", {}).items():
        if state == "set":
            warn.append(f"skipped attribute {attr} is still built")
    bases = rew.get("bases", [])
    for name in expect.new_bases:
        if not any(inputs.base_matches(name, b) for b in bases):
            warn.append(f"expected direct base {name}, has {', '.join(bases)}")
    for name in expect.not_in_mro:
        if any(inputs.base_matches(name, q) for q in rew.get("mro", [])[1:]):
            warn.append(f"{name} is still in the MRO")
    return {"fail": fail, "warn": warn}


def compare_forward(orig: dict[str, Any], rew: dict[str, Any], opts: Options) -> dict[str, Any] | None:
    if "forward" not in orig and "forward" not in rew:
        return None
    result = forward_compare.compare(orig.get("forward"), rew.get("forward"))
    stores = [(orig.get("forward") or {}).get("kept_tensors"), (rew.get("forward") or {}).get("kept_tensors")]
    if result["status"] == "equal" and all(stores):
        result["device_equal"] = device_equality(orig, rew, opts)
        if result["device_equal"].get("differing") or result["device_equal"].get("error"):
            result["status"] = "differs"
            first = (result["device_equal"].get("differing") or [{}])[0]
            result["first_difference"] = {
                "path": first.get("what", "?"),
                "index": None,
                "call": "(tensor)",
                "argument": first.get("what", "?"),
                "detail": result["device_equal"].get("error") or f"not bit-identical on {opts.device}",
            }
    return result


def device_equality(orig: dict[str, Any], rew: dict[str, Any], opts: Options) -> dict[str, Any]:
    """Load both children's kept tensors onto the device and compare them bit for bit."""
    pairs = forward_compare.tensor_pairs(orig["forward"], rew["forward"])
    with tempfile.TemporaryDirectory(prefix="deadinit-gpu-eq-") as tmp:
        pairs_path, out_path = Path(tmp) / "pairs.json", Path(tmp) / "result.json"
        pairs_path.write_text(json.dumps(pairs), encoding="utf-8")
        proc = subprocess.run(
            [
                opts.python,
                str(EQUAL_CHILD),
                orig["forward"]["tensor_store"],
                rew["forward"]["tensor_store"],
                str(pairs_path),
                str(out_path),
                opts.device,
            ],
            capture_output=True,
            text=True,
            timeout=opts.timeout,
            errors="replace",
        )
        if not out_path.exists():
            return {"error": f"equality child exited with {proc.returncode}: {proc.stderr[-2000:]}"}
        return json.loads(out_path.read_text(encoding="utf-8"))


def compare(
    target: inputs.Target,
    orig: dict[str, Any],
    label: str,
    rew: dict[str, Any],
    mode: str,
    strict: bool,
    opts: Options | None = None,
) -> dict[str, Any]:
    ob, rb = measured_bytes(orig, mode), measured_bytes(rew, mode)
    op, rp = pinned_bytes(orig, mode), pinned_bytes(rew, mode)
    problems = check(target, label, rew) if rew.get("ok") else {"fail": [], "warn": []}
    forward = compare_forward(orig, rew, opts) if opts and orig.get("ok") and rew.get("ok") else None
    if forward and forward["status"] == "differs":
        problems["fail"].append(forward_compare.difference_message(forward))
    elif forward and forward["status"] != "equal":
        problems["warn"].append(
            f"forward run {forward['status']}" + (f": {forward['error']}" if forward.get("error") else "")
        )
    if not rew.get("ok"):
        status, failed = "rewritten failed to build", True
    elif not orig.get("ok"):
        status, failed = "original failed to build", True
    elif forward and forward["status"] == "differs":
        status, failed = "forward differs", True
    elif problems["fail"]:
        status, failed = "missing reads", True
    elif problems["warn"]:
        status, failed = "check warnings", strict
    else:
        status, failed = "ok", False
    estimated = [
        f.get("estimated_bytes")
        for f in target.fix
        if f.get("label") in (inputs.ALL, label) and f.get("estimated_bytes") is not None
    ]
    return {
        "label": label,
        "status": status,
        "failed": failed,
        "problems": problems,
        "original_bytes": ob,
        "rewritten_bytes": rb,
        "saved_bytes": None if ob is None or rb is None else ob - rb,
        "original_pinned_bytes": op,
        "rewritten_pinned_bytes": rp,
        "pinned_saved_bytes": None if op is None or rp is None else op - rp,
        "attribute_savings": attribute_savings(orig, rew) if orig.get("ok") and rew.get("ok") else {},
        "estimated_bytes": sum(estimated) if estimated else None,
        "expect": target.expect_for(label).as_dict(),
        "forward": forward,
    }
