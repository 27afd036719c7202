"""``deadinit fix``: click wiring, diff or write, the JSON report and the summary tables.

Strategy-agnostic: a strategy plans (``deadinit.fixes.registry``), the driver
checks and writes (``deadinit.fixes.driver``); this module only talks to the user.

Exit status: 0 when nothing is left to report (``--diff``: when nothing would
change), 1 when findings remain after the fix (``--diff``: when files would change;
``--exit-non-zero-on-fix``: when files changed), 2 for bad usage, configuration or
input, or a failed write.
"""

from __future__ import annotations

import json
import shlex
import sys

import click

from deadinit.api import project
from deadinit.api.config import ConfigError
from deadinit.cli.gc_pause import collections_paused
from deadinit.cli.output import UsageError, make_console, write_file
from deadinit.cli.progress import progress_wrap
from deadinit.cli.project_options import generation_sources_option
from deadinit.cli.speed_options import speed_options, summarizer
from deadinit.fixes.registry import load_strategies
from deadinit.model.fix import FixOptions

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Strategies(click.Choice):
    """The registered strategies, looked up only when the option is used."""

    def __init__(self) -> None:
        self.case_sensitive = True

    @property
    def choices(self):  # type: ignore[override]
        return tuple(sorted(load_strategies()))

    @choices.setter
    def choices(self, value) -> None:  # pragma: no cover - click never sets it after __init__
        pass


@click.command("fix")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--strategy",
    type=_Strategies(),
    default="skip-flag",
    show_default=True,
    help="How to fix: skip-flag guards the parent's dead allocations with a flag the subclass passes.",
)
@click.option(
    "--diff", "diff_only", is_flag=True, help="Print a unified diff and write nothing (exit 1 if it is not empty)."
)
@click.option(
    "--class",
    "classes",
    multiple=True,
    metavar="QUALNAME",
    help="Only fix this subclass (qualified or trailing dotted name); repeatable.",
)
@click.option("--select", default="", help="Comma-separated rule codes or names to fix (default: DI001,DI002).")
@click.option(
    "--report",
    "report_file",
    metavar="FILE",
    type=click.Path(),
    help='Write a JSON record of every change ({"changes": [...]}) for reviewers and `deadinit gpu-check`.',
)
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes that rest on judging reads outside the hierarchy.")
@click.option("--flag-name", metavar="NAME", help="Name of the new parameter (default: skip_init_<attribute>).")
@click.option(
    "--max-copy-lines",
    type=click.IntRange(min=1),
    default=None,
    help="direct-base: refuse when more lines than this would be copied (default 400).",
)
@click.option("--config", metavar="FILE", type=click.Path(), help="Read settings from FILE.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when files changed, even if nothing remains.")
@click.option(
    "--pr-body",
    "pr_body_file",
    metavar="FILE",
    type=click.Path(),
    help="Write a Markdown pull-request description of the fix (with --pr-evidence: its GPU runs).",
)
@click.option(
    "--pr-evidence",
    multiple=True,
    metavar="GPU_CHECK_JSON",
    type=click.Path(exists=True),
    help="A `deadinit gpu-check --output` JSON whose memory and forward tables go into --pr-body.",
)
@click.option("--quiet", "-q", is_flag=True, help="No tables, only errors.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@generation_sources_option
@speed_options
def fix(
    paths,
    strategy,
    diff_only,
    classes,
    select,
    report_file,
    unsafe_fixes,
    flag_name,
    max_copy_lines,
    config,
    exit_non_zero_on_fix,
    pr_body_file,
    pr_evidence,
    quiet,
    color,
    include_generation_sources,
    no_cache,
    cache_dir,
    jobs,
) -> None:
    """Rewrite PATHS so subclasses stop paying for parent allocations they never use.

    Strategies: skip-flag (the parent skips what the subclass never uses, behind a
    ``skip_init_<name>`` parameter) and direct-base (re-base a low-reuse subclass on
    the nearest ancestor it still needs, inlining what it uses).
    """
    sys.exit(
        run(
            paths,
            strategy,
            diff_only,
            classes,
            select,
            report_file,
            unsafe_fixes,
            flag_name,
            config,
            exit_non_zero_on_fix,
            quiet,
            color,
            max_copy_lines,
            no_cache,
            cache_dir,
            jobs,
            pr_body_file,
            pr_evidence,
            include_generation_sources,
        )
    )


@collections_paused
def run(
    paths,
    strategy="skip-flag",
    diff_only=False,
    classes=(),
    select="",
    report_file=None,
    unsafe_fixes=False,
    flag_name=None,
    config=None,
    exit_non_zero_on_fix=False,
    quiet=False,
    color="auto",
    max_copy_lines=None,
    no_cache=False,
    cache_dir=None,
    jobs=None,
    pr_body_file=None,
    pr_evidence=(),
    include_generation_sources=None,
) -> int:
    from deadinit.fixes.driver import run_fix  # noqa: PLC0415 - libcst, not for `deadinit --help`

    err = make_console(color, stderr=True)
    targets = list(paths) or ["."]
    try:
        project.require_paths(targets)
        cfg = project.configure(targets, config, select, "", False, include_generation_sources)
        if flag_name is not None and not flag_name.isidentifier():
            raise UsageError(f"--flag-name {flag_name!r} is not a Python identifier")
        fast = summarizer(no_cache, cache_dir, jobs, freeze_gc=True)  # the cache and workers, as check
        wrap = progress_wrap(err if (err.is_terminal and not quiet) else None)
        result = project.analyse_for_fix(targets, cfg, wrap, fast)
        if result.files == 0:
            for e in result.errors:
                click.echo(f"deadinit: error: {e}", err=True)
            raise UsageError(project.no_files_message(targets))
        wanted = tuple(project.resolve_class(result, c) for c in classes)
    except (UsageError, ConfigError) as e:
        click.echo(f"deadinit: error: {e}", err=True)
        return EXIT_ERROR
    for e in result.errors:
        err.print(f"deadinit: error: {e}", markup=False, soft_wrap=True)  # one line, never wrapped
    note = project.skipped_sources_note(result)
    if note and not quiet:
        err.print(f"deadinit: {note}", markup=False, style="dim", soft_wrap=True)
    options = FixOptions(
        settings=cfg.settings,
        classes=wanted,
        select=cfg.settings.select,
        unsafe_fixes=unsafe_fixes,
        flag_name=flag_name,
        max_copy_lines=max_copy_lines or cfg.settings.direct_base_max_lines,
    )
    out = run_fix(result, strategy, options, write=not diff_only)
    if diff_only:
        sys.stdout.write(out.diff())
    if report_file:
        try:
            write_report(report_file, out)
        except UsageError as e:
            click.echo(f"deadinit: error: {e}", err=True)
            return EXIT_ERROR
    if pr_body_file:
        from deadinit.gpu_check.pr_body import write_pr_body  # noqa: PLC0415 - gpu_check only with --pr-body

        write_pr_body(pr_body_file, report_dict(out), pr_evidence)
    if not quiet:
        from deadinit.report.fix_table import render  # noqa: PLC0415 - not with --quiet

        render(out, err if diff_only else make_console(color), applied=not diff_only)
    if out.error:
        click.echo(f"deadinit: error: {out.error}", err=True)
        return EXIT_ERROR
    if diff_only:
        return EXIT_FINDINGS if out.plan.files else EXIT_CLEAN
    if exit_non_zero_on_fix and out.written:
        return EXIT_FINDINGS
    return EXIT_FINDINGS if out.remaining() else EXIT_CLEAN


def report_dict(out) -> dict:
    found = {f.key: f for f in getattr(out.before, "findings", None) or []}
    return {
        "command": "deadinit " + shlex.join(sys.argv[1:]) if sys.argv[1:2] == ["fix"] else None,
        "strategy": out.strategy,
        "applied": bool(out.written),
        "changes": [
            dict(
                c.to_json(),
                evidence=[
                    {"key": k, "message": found[k].message, "evidence": [e.to_json() for e in found[k].evidence]}
                    for k in c.findings
                    if k in found
                ],
            )
            for c in out.plan.changes
        ],
        "not_fixed": [r.to_json() for r in out.refusals],
        "files": [fp.path for fp in out.plan.files],
        "diff_stat": out.diff_stat(),
    }


def write_report(path: str, out) -> None:
    write_file(path, json.dumps(report_dict(out), indent=2) + "\n", "report")
