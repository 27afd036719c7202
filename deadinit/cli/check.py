"""``deadinit check``: configuration, analysis, suppressions, baseline, scope, format, exit code."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from deadinit.api import project
from deadinit.api.baseline import BaselineError, apply_baseline, load_baseline, write_baseline
from deadinit.api.config import ConfigError
from deadinit.cli.gc_pause import collections_paused
from deadinit.cli.output import (
    EXIT_CLEAN,
    EXIT_ERROR,
    LazyConsole,
    UsageError,
    exit_code,
    fail,
    make_console,
    output_stream,
)
from deadinit.cli.progress import progress_wrap
from deadinit.cli.speed_options import summarizer

HUMAN = ("text", "full", "concise")
_REPORTERS = {"json": "json_report", "sarif": "sarif", "github": "github", "concise": "concise"}  # in deadinit.report


@dataclass
class CheckOptions:
    paths: tuple[str, ...] = ()
    fmt: str = "text"
    project_dir: str | None = None
    config: str | None = None
    select: str = ""
    extend_select: str = ""
    ignore: str = ""
    show_unsure: bool = False
    no_evidence: bool = False
    baseline: str | None = None
    write_baseline: str | None = None
    report_unused_ignores: bool = False
    statistics: bool = False
    exit_zero: bool = False
    exit_non_zero_on_fix: bool = False  # nothing is fixed by check; kept for ruff parity
    quiet: bool = False
    color: str = "auto"
    output_file: str | None = None
    include_generation_sources: bool | None = None  # None: as configured
    # speed: see deadinit.runtime.summarizer
    no_cache: bool = False
    cache_dir: str | None = None
    jobs: int | None = None


@collections_paused
def run(o: CheckOptions) -> int:
    try:
        return _run(o)
    except (ConfigError, UsageError, BaselineError) as e:
        fail(str(e))
    return EXIT_ERROR  # pragma: no cover


def _run(o: CheckOptions) -> int:
    err = LazyConsole(o.color, stderr=True)
    targets, scope, cfg = project.configured_scope(
        o.paths,
        o.project_dir,
        o.config,
        o.select,
        o.ignore,
        o.show_unsure,
        o.include_generation_sources,
        o.extend_select,
    )
    base = load_baseline(o.baseline) if o.baseline else None
    result = _analyse(o, err, targets, cfg)
    if result.files == 0 and _nothing_to_check(o, err, result, scope or targets):
        return EXIT_CLEAN  # as ruff: nothing to check is not an error
    findings, errors = _in_scope(o, result, cfg, scope)
    if o.write_baseline:
        n = write_baseline(o.write_baseline, findings)
        _errors(err, errors, o)
        if not o.quiet:
            err.print(f"deadinit: wrote {n} finding(s) to baseline {o.write_baseline}", markup=False)
        return EXIT_CLEAN
    findings, notes = _notes(result, findings, base, scope)
    view = project.with_findings(result, findings, errors)
    if o.fmt != "github":
        _errors(err, errors, o)
    _render(view, o)
    if not o.quiet and o.fmt in HUMAN:
        for n in notes:
            err.print(f"deadinit: {n}", markup=False, style="dim", soft_wrap=True)  # one line, never wrapped
    if result.internal_failures or (errors and not (result.index and result.index.modules)):
        return EXIT_ERROR  # an internal error lost a class's findings, or nothing could be analysed
    return exit_code(len(findings), o.exit_zero)


def _analyse(o: CheckOptions, err: LazyConsole, targets, cfg):
    show_progress = o.fmt in HUMAN and not o.quiet and err.is_terminal
    fast = summarizer(o.no_cache, o.cache_dir, o.jobs, freeze_gc=True)
    if fast.use_cache:  # a run over unchanged inputs reads one stored result
        return project.analyse_cached(targets, cfg, progress_wrap(err.made() if show_progress else None), fast)
    return project.analyse(targets, cfg, progress_wrap(err.made() if show_progress else None), summarizer=fast)


def _nothing_to_check(o: CheckOptions, err: LazyConsole, result, paths) -> bool:
    """No file was analysed: a usage error when some path gave an error, else a warning; whether
    the run ends here (a human format)."""
    if result.errors:  # why each path gave nothing (too large, a dangling link...)
        _errors(err, result.errors, o)
        raise UsageError(project.no_files_message(paths))
    err.print(f"deadinit: warning: {project.no_files_message(paths)}", markup=False, soft_wrap=True)
    return o.fmt in HUMAN


def _in_scope(o: CheckOptions, result, cfg, scope) -> tuple[list, list]:
    """The findings (with unused suppressions when asked for) and errors, limited to ``scope``."""
    findings = list(result.findings)
    if o.report_unused_ignores and "DI100" not in cfg.settings.ignore:
        from deadinit.rules.registry import unused_suppressions  # noqa: PLC0415 - the analysis

        findings += unused_suppressions(result, cfg.settings)
    errors = list(result.errors)
    if scope is not None:
        findings, errors = project.scope_to(findings, errors, scope)
    return findings, errors


def _notes(result, findings: list, base, scope) -> tuple[list, list[str]]:
    """The findings the baseline leaves, and the notes on what was hidden or skipped."""
    notes = []
    if base is not None:
        filtered = apply_baseline(base, findings)
        findings = filtered.findings
        if filtered.baselined:
            notes.append(f"{filtered.baselined} finding(s) hidden by baseline {base.path}")
        if filtered.stale and scope is None:
            notes.append(
                f"{len(filtered.stale)} baseline entr{'y' if len(filtered.stale) == 1 else 'ies'} "
                f"no longer found (refresh with --write-baseline)"
            )
    if result.suppressed and scope is None:
        notes.append(f"{len(result.suppressed)} finding(s) suppressed by comments or per-file-ignores")
    skipped = project.skipped_sources_note(result)
    if skipped:
        notes.append(skipped)
    return findings, notes


def _errors(err, errors, o: CheckOptions) -> None:
    for e in errors:
        err.print(f"deadinit: error: {e}", markup=False, soft_wrap=True)  # one line, never wrapped


def _render(view, o: CheckOptions) -> None:
    with output_stream(o.output_file) as stream:
        if o.statistics:
            from deadinit.report import statistics  # noqa: PLC0415 - only the chosen format's module loads

            if o.fmt == "json":
                stream.write(statistics.render_json(view.findings))
            else:
                statistics.render_text(view.findings, make_console(o.color, file=stream))
            return
        if o.fmt in ("text", "full"):
            from deadinit.report import text  # noqa: PLC0415 - only the chosen format's module loads

            console = make_console(o.color, file=stream)
            text.render(view, console, show_evidence=not o.no_evidence, quiet=o.quiet, full=o.fmt == "full")
            return
        # only the chosen format's module loads (sarif's and github's read the rule registry: ~90 ms)
        module = import_module(f"deadinit.report.{_REPORTERS[o.fmt]}")
        stream.write(module.render(view))
