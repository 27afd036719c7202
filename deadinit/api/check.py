"""The engine as a library: discover, summarise, then ``deadinit.rules.engine.check_summaries``.

Front-ends (CLI, pre-commit hook, codemods, tests) call ``run_check``; they never
reach into the stages themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from deadinit.frontends.parse import FileError, summarize_many
from deadinit.index.discovery import discover
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.rules.engine import check_summaries
from deadinit.runtime.temp_files import remove_leftovers


def summarize(
    paths: Iterable[str], settings: Settings, summarizer: Callable | None = None, excluded=None, discovery=None
) -> tuple[list[FileSummary], list[str], int]:
    """``discovery``: what ``discover`` found for these paths, when the caller already walked them
    (and removed the temporary files a killed run left there)."""
    disc = discovery
    if disc is None:
        disc = discover(paths, settings.roots, excluded, max_bytes=settings.max_file_size)
        remove_leftovers(disc.temp_files)  # a killed run's rewrites in flight
    errors = [f"{p}: {m}" for p, m in disc.errors]
    items = [(f.path, f.module, f.is_package) for f in disc.files]
    results = (summarizer or summarize_many)(items, settings)
    summaries = []
    for r in results:
        if isinstance(r, FileError):
            errors.append(str(r))
        else:
            summaries.append(r)
    return summaries, errors, len(disc.files)


def run_check(
    paths: Iterable[str],
    settings: Settings | None = None,
    summarizer: Callable | None = None,
    excluded=None,
    summaries: list[FileSummary] | None = None,
    discovery=None,
) -> CheckResult:
    settings = settings or Settings()
    res = CheckResult()
    if summaries is None:
        summaries, res.errors, res.files = summarize(paths, settings, summarizer, excluded, discovery)
    else:
        res.files = len(summaries)
    return check_summaries(summaries, settings, res)
