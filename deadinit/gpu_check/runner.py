"""Spawn one fresh measurement child per (class, tree) and compare the results.

No torch here: the children (``harness.py``) import it. This module prepares the
trees (a directory, or a git ref exported with ``git archive``), writes one job file
per measurement, runs the children (``--jobs`` at a time), and turns their JSON into
the comparison the report prints.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deadinit.runtime.orphans import child_environment

from . import forward_compare, inputs
from .profiles import Profile

HARNESS = Path(__file__).with_name("harness.py")
EQUAL_CHILD = Path(__file__).with_name("forward_equal.py")
ORIGINAL = "original"


class RunnerError(RuntimeError):
    pass


@dataclass
class Tree:
    label: str
    path: Path
    source: str

    def as_dict(self) -> dict[str, str]:
        return {"label": self.label, "path": str(self.path), "source": self.source}


@dataclass
class Options:
    device: str = "cuda"
    stub: list[str] = field(default_factory=list)
    python: str = sys.executable
    timeout: float = 600.0
    jobs: int = 1
    depth: int = 2
    measure: str = "auto"  # auto | allocated | reachable
    extra_paths: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    keep_jobs: Path | None = None
    forward: bool = False
    run_kernels: list[str] = field(default_factory=list)  # fnmatch patterns: try these kernels for real
    store_dir: Path | None = None  # where the children keep the kernels' tensors

    @property
    def measure_mode(self) -> str:
        if self.measure != "auto":
            return self.measure
        return "allocated" if self.device.startswith("cuda") else "reachable"


# -- trees ----------------------------------------------------------------------------
def _git(args: list[str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, **kw)


def tree_from_ref(original: Path, ref: str, workdir: Path, repo: Path | None = None) -> Path:
    """Export ``ref`` of the repository holding ``original`` and return the same subfolder."""
    try:
        top = Path(repo) if repo else Path(_git(["rev-parse", "--show-toplevel"], original, text=True).stdout.strip())
        _git(["rev-parse", "--verify", f"{ref}^{{commit}}"], top)
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        raise RunnerError(
            f"cannot use git ref {ref!r} for {original}: {detail.decode(errors='replace').strip() or exc}"
        ) from exc
    rel = original.resolve().relative_to(top.resolve())
    dest = workdir / ("ref-" + re.sub(r"[^\w.-]", "_", ref))
    dest.mkdir(parents=True, exist_ok=True)
    archive = ["archive", "--format=tar", ref] + ([] if str(rel) == "." else ["--", str(rel)])
    tar = _git(archive, top).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=tar, check=True)
    return dest / rel


# -- children -------------------------------------------------------------------------
def run_child(job: dict[str, Any], opts: Options, env_extra: dict[str, str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="deadinit-gpu-") as tmp:
        job_path, out_path = Path(tmp) / "job.json", Path(tmp) / "result.json"
        job_path.write_text(json.dumps(job, indent=1, default=str), encoding="utf-8")
        env = dict(os.environ)
        env.update(opts.env)
        env.update(env_extra)
        env.update(PYTHONUNBUFFERED="1")
        env = child_environment(env)  # the child ends when this process ends (deadinit.runtime.orphans)
        started = time.perf_counter()
        try:
            proc = subprocess.run(
                [opts.python, str(HARNESS), str(job_path), str(out_path)],
                cwd=tmp,
                env=env,
                capture_output=True,
                text=True,
                timeout=opts.timeout,
                errors="replace",
            )
            rc, stderr = proc.returncode, (proc.stderr or "") + (proc.stdout or "")
        except subprocess.TimeoutExpired as exc:
            rc, stderr = None, f"timed out after {opts.timeout:.0f}s\n{exc.stderr or ''}"
        wall = round(time.perf_counter() - started, 2)
        if opts.keep_jobs:
            opts.keep_jobs.mkdir(parents=True, exist_ok=True)
            stem = f"{job['label']}-{job['class'].rsplit('.', 1)[-1]}"
            shutil.copy(job_path, opts.keep_jobs / f"{stem}.job.json")
            (opts.keep_jobs / f"{stem}.log").write_text(stderr, encoding="utf-8")
        if out_path.exists():
            result = json.loads(out_path.read_text(encoding="utf-8"))
        else:
            result = {
                "class": job["class"],
                "tree": job["tree"],
                "label": job["label"],
                "ok": False,
                "error": f"measurement child exited with {rc} and wrote no result",
            }
        result["wall_seconds"] = wall
        if not result.get("ok"):
            result["log_tail"] = stderr[-4000:]
        return result


def make_job(target: inputs.Target, tree: Tree, profile: Profile, opts: Options) -> dict[str, Any]:
    expect = target.expect_for(tree.label) if tree.label != ORIGINAL else inputs.Expect()
    forward = opts.forward and bool(profile.data.get("forward"))
    store = None
    if forward and opts.store_dir:
        safe_label = re.sub(r"[^\w.-]", "_", tree.label)
        store = str(opts.store_dir / f"{target.name}-{safe_label}.pt")
    return {
        "forward": forward,
        "tensor_store": store,
        "run_kernels": opts.run_kernels,
        "class": target.qualname,
        "tree": str(tree.path),
        "label": tree.label,
        "device": opts.device,
        "stub": opts.stub,
        "profile": profile.for_child(),
        "depth": int(profile.data.get("depth", opts.depth)),
        "extra_paths": opts.extra_paths,
        "expect_read": expect.reads,
        "expect_skipped": expect.skipped,
    }


# -- comparison -----------------------------------------------------------------------
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


def run(
    targets: list[inputs.Target],
    original: Tree,
    rewritten: list[Tree],
    profile_for: Callable[[inputs.Target], Profile],
    opts: Options,
    strict: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure every target in every tree; return the report data (see report.py)."""
    trees = [original, *rewritten]
    jobs = []
    for target in targets:
        profile = profile_for(target)
        for tree in trees:
            jobs.append((target, tree, profile, make_job(target, tree, profile, opts)))

    def one(item):
        target, tree, profile, job = item
        if progress:
            progress(f"building {target.name} from {tree.label} ({tree.path})")
        result = run_child(job, opts, profile.env)
        if progress:
            took = result.get("construct_seconds")
            progress(
                f"  {target.name} [{tree.label}]: "
                + ("ok" if result.get("ok") else f"FAILED: {result.get('error')}")
                + (f" in {took}s" if took is not None else "")
            )
        return result

    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        results = list(pool.map(one, jobs))

    mode = opts.measure_mode
    entries, stubbed, environment = [], set(), {}
    by_key = {(id(t), tree.label): r for (t, tree, _p, _j), r in zip(jobs, results, strict=True)}
    for target in targets:
        profile = profile_for(target)
        orig = by_key[(id(target), original.label)]
        rew = {tree.label: by_key[(id(target), tree.label)] for tree in rewritten}
        for r in [orig, *rew.values()]:
            stubbed.update(r.get("stubbed") or [])
            environment = environment or r.get("environment") or {}
        comparisons = [compare(target, orig, label, r, mode, strict, opts) for label, r in rew.items()]
        if not comparisons:  # original only: a plain measurement
            comparisons = [
                {
                    "label": None,
                    "status": "ok" if orig.get("ok") else "original failed to build",
                    "failed": not orig.get("ok"),
                    "problems": {"fail": [], "warn": []},
                    "original_bytes": measured_bytes(orig, mode),
                    "rewritten_bytes": None,
                    "saved_bytes": None,
                    "original_pinned_bytes": pinned_bytes(orig, mode),
                    "rewritten_pinned_bytes": None,
                    "pinned_saved_bytes": None,
                    "attribute_savings": {},
                    "estimated_bytes": None,
                    "expect": {},
                }
            ]
        entries.append(
            {
                "class": target.qualname,
                "name": target.name,
                "profile": profile.name,
                "fix": target.fix,
                "original": orig,
                "rewritten": rew,
                "comparisons": comparisons,
            }
        )
    failed = sum(1 for e in entries for c in e["comparisons"] if c["failed"])
    return {
        "tool": "deadinit gpu-check",
        "schema": 2,
        "forward": opts.forward,
        "device": opts.device,
        "measure": mode,
        "stub_requested": opts.stub,
        "stubbed": sorted(stubbed),
        "environment": environment,
        "trees": [t.as_dict() for t in trees],
        "results": entries,
        "summary": {
            "classes": len(entries),
            "comparisons": sum(len(e["comparisons"]) for e in entries),
            "failed": failed,
        },
        "exit_code": 1 if failed else 0,
    }
