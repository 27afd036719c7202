"""``deadinit check``: options wired to the session (``Session.check``, then ``final_findings``:
unused suppressions, scope and baseline), the format and the exit code."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from deadinit.api import project
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
    except (project.ConfigError, UsageError, project.BaselineError) as e:
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
    base = project.load_baseline(o.baseline) if o.baseline else None
    result = _analyse(o, err, targets, cfg)
    if result.files == 0 and _nothing_to_check(o, err, result, scope or targets):
        return EXIT_CLEAN  # as ruff: nothing to check is not an error
    final = project.final_findings(result, cfg.settings, scope, base, o.report_unused_ignores)
    findings, errors, notes = final.findings, final.errors, final.notes
    if o.write_baseline:
        n = project.write_baseline(o.write_baseline, final.in_scope)
        _errors(err, errors, o)
        if not o.quiet:
            err.print(f"deadinit: wrote {n} finding(s) to baseline {o.write_baseline}", markup=False)
        return EXIT_CLEAN
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
    return project.Session(targets, cfg, fast, progress_wrap(err.made() if show_progress else None)).check()


def _nothing_to_check(o: CheckOptions, err: LazyConsole, result, paths) -> bool:
    """No file was analysed: a usage error when some path gave an error, else a warning; whether
    the run ends here (a human format)."""
    if result.errors:  # why each path gave nothing (too large, a dangling link...)
        _errors(err, result.errors, o)
        raise UsageError(project.no_files_message(paths))
    err.print(f"deadinit: warning: {project.no_files_message(paths)}", markup=False, soft_wrap=True)
    return o.fmt in HUMAN


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
