"""The analysis exactly as ``deadinit check`` and ``deadinit fix`` run it, for the tests held to an
oracle (runtime differential, fix properties, acceptance on sglang).

Both commands load the configuration for their paths (``deadinit.api.project.configure``)
and summarise through ``ProjectSummarizer``: the per-file cache and worker processes.
``check`` then goes through the whole-run result cache (``Session.check``), ``fix``
straight to ``analyse``.  The cache lives in ``cache_dir`` (a test's temporary folder,
never the repository).
"""

from __future__ import annotations

from pathlib import Path

from deadinit.api import project
from deadinit.fixes.driver import FixOutcome, run_fix
from deadinit.model.fix import FixOptions
from deadinit.model.result import CheckResult
from deadinit.runtime.summarizer import ProjectSummarizer


def check_result(paths: list[str], cache_dir: Path, jobs: int | None = None) -> CheckResult:
    """What ``deadinit check PATHS --cache-dir CACHE_DIR [--jobs N]`` analyses.

    A hit in the result cache gives a result without ``analyzer``: callers that need it
    analyse paths the cache has not seen (a new folder, or new content).
    """
    cfg = project.configure(paths)
    return project.Session(paths, cfg, _summarizer(cache_dir, jobs)).check()


def fix_run(paths: list[str], strategy: str, cache_dir: Path, write: bool = True, **options) -> FixOutcome:
    """What ``deadinit fix PATHS --strategy STRATEGY --cache-dir CACHE_DIR`` does (``--diff``: ``write``
    False); ``options``: ``FixOptions`` fields the command line sets (``unsafe_fixes``, ``classes``...)."""
    cfg = project.configure(paths)
    result = project.Session(paths, cfg, _summarizer(cache_dir, None)).full()
    s = cfg.settings
    opts = FixOptions(settings=s, select=s.select, max_copy_lines=s.direct_base_max_lines, **options)
    return run_fix(result, strategy, opts, write=write)


def _summarizer(cache_dir: Path, jobs: int | None) -> ProjectSummarizer:
    return ProjectSummarizer(jobs=jobs, use_cache=True, cache_dir=str(cache_dir))
