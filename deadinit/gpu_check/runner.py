"""Spawn one fresh measurement child per (class, tree) and compare the results.

No torch here: the children (``harness.py``) import it. This module prepares the
trees (a directory, or a git ref exported with ``git archive``), writes one job file
per measurement, runs the children (``--jobs`` at a time), and turns their JSON into
the comparison the report prints (``comparison``; the options in ``run_options``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deadinit.runtime.orphans import child_environment

from . import inputs
from .comparison import compare, measured_bytes, pinned_bytes
from .profiles import Profile
from .run_options import Options

HARNESS = Path(__file__).with_name("harness.py")
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
