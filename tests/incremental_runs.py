"""Runs the incremental tests compare: the incremental analysis on a per-file cache and the
state of the previous run, and the full ``--no-cache`` run, reduced to what a report reads."""

from __future__ import annotations

import dataclasses
import json
import pickle
import shutil
from pathlib import Path

from corpus_paths import FIXTURES

from deadinit.api import project
from deadinit.model.result import CheckResult
from deadinit.runtime.summarizer import ProjectSummarizer


def snapshot(result: CheckResult) -> str:
    def dump(findings) -> list:
        return [f.to_json() for f in findings]

    return json.dumps(
        {
            "findings": dump(result.findings),
            "unsure": dump(result.unsure),
            "suppressed": dump(result.suppressed),
            "errors": result.errors,
            "used": sorted(result.used_suppressions),
            "files": result.files,
            "skipped": result.skipped_sources,
        },
        indent=1,
        default=str,
    )


def summaries_of(result: CheckResult) -> dict[str, bytes]:
    """Module -> its summary (line count left out: a comment changes it, nothing reads it)."""
    return {m: pickle.dumps(dataclasses.replace(s, lines=0)) for m, s in result.index.modules.data.items()}


def full_run(root: Path) -> CheckResult:
    cfg = project.configure([str(root)])
    return project.Session([str(root)], cfg, ProjectSummarizer(jobs=1, use_cache=False)).full()


def incremental_run(root: Path, cache: Path) -> tuple[CheckResult, dict]:
    cfg = project.configure([str(root)])
    summarizer = ProjectSummarizer(jobs=1, use_cache=True, cache_dir=str(cache))
    result = project.Session([str(root)], cfg, summarizer).incremental()
    return result, summarizer.stats.get("incremental", {})


def copy_fixtures(tmp_path: Path) -> Path:
    root = tmp_path / "proj" / "fixtures"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns(".deadinit_cache", "__pycache__", "pyproject.toml"))
    return root
