"""``deadinit fix``: click wiring, diff or write, the JSON report and the summary tables.

Strategy-agnostic: the session gives the result a strategy plans from (``Session.for_fix``),
``deadinit.api.fix`` plans, proves (the session's re-analysis) and writes; this module only
talks to the user.

Exit status, ruff's meaning, the same with and without ``--diff``: 0 when no finding is left
in the tree once the command has run, 1 when some are (``--diff`` writes nothing, so every
finding is left), also 1 with ``--exit-non-zero-on-fix`` when files changed (or would change),
0 with ``--exit-zero`` whatever is left; 2 for bad usage, configuration or input, or a failed
write.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass

import click

from deadinit.api import fix as fixing
from deadinit.api import project
from deadinit.cli.fix_notes import fixed_lines, other_strategy_hint, table_names
from deadinit.cli.gc_pause import collections_paused
from deadinit.cli.output import UsageError, make_console, write_file
from deadinit.cli.progress import progress_wrap
from deadinit.cli.project_options import generation_sources_option
from deadinit.cli.speed_options import speed_options, summarizer
from deadinit.report.fix_report import fix_report

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
# strategies that choose the classes to rewrite themselves, not from the findings: given paths, the
# classes of those paths are theirs to choose from
PICKS_ITS_CLASSES = frozenset({"direct-base"})


class _Strategies(click.Choice):
    """The registered strategies, looked up only when the option is used."""

    def __init__(self) -> None:
        self.case_sensitive = True

    @property
    def choices(self):  # type: ignore[override]
        return tuple(sorted(fixing.load_strategies()))

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
    "--extend-select", default="", help="Comma-separated rule codes or names to fix in addition to the selection."
)
@click.option(
    "--report",
    "report_file",
    metavar="FILE",
    type=click.Path(),
    help='Write a JSON record of every change ({"changes": [...]}) for reviewers and `deadinit gpu-check`.',
)
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="Also apply fixes that may change what code can observe: where the analysis is unsure, where a "
    "registered nn.Module part would go (checkpoint keys change), where an exported class's public attribute "
    "or method is involved, where the allocation is made inside a project function (skipping the call skips "
    "its other effects), and every direct-base rewrite (the bases change).",
)
@click.option("--flag-name", metavar="NAME", help="Name of the new parameter (default: skip_init_<attribute>).")
@click.option(
    "--max-copy-lines",
    type=click.IntRange(min=1),
    default=None,
    help="direct-base: refuse when more lines than this would be copied (default 400).",
)
@click.option("--config", metavar="FILE", type=click.Path(), help="Read settings from FILE.")
@click.option(
    "--baseline",
    metavar="FILE",
    type=click.Path(),
    help="Leave alone the findings recorded in FILE (`deadinit check --write-baseline FILE`).",
)
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when files changed, even if nothing remains.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings are left (errors still exit 2).")
@click.option("--show-fixes", is_flag=True, help="List the findings fixed (with --diff: that would be fixed), by file.")
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
def fix(**options) -> None:
    """Rewrite PATHS so subclasses stop paying for parent allocations they never use.

    PATHS inside a project (default: the working folder): the whole project is analysed and
    only the findings that touch PATHS are fixed (a parent and its subclasses together).

    Strategies: skip-flag (the parent skips what the subclass never uses, behind a
    ``skip_init_<name>`` parameter) and direct-base (re-base a low-reuse subclass on
    the nearest ancestor it still needs, inlining what it uses).
    """
    sys.exit(run(FixRun(**options)))


@dataclass
class FixRun:
    """What ``deadinit fix`` was asked (the options, named as the command line names them)."""

    paths: tuple[str, ...] = ()
    strategy: str = "skip-flag"
    diff_only: bool = False
    classes: tuple[str, ...] = ()
    select: str = ""
    extend_select: str = ""
    report_file: str | None = None
    unsafe_fixes: bool = False
    flag_name: str | None = None
    max_copy_lines: int | None = None
    config: str | None = None
    baseline: str | None = None
    exit_non_zero_on_fix: bool = False
    exit_zero: bool = False
    show_fixes: bool = False
    pr_body_file: str | None = None
    pr_evidence: tuple[str, ...] = ()
    quiet: bool = False
    color: str = "auto"
    include_generation_sources: bool | None = None
    no_cache: bool = False
    cache_dir: str | None = None
    jobs: int | None = None


@collections_paused
def run(o: FixRun) -> int:
    err = make_console(o.color, stderr=True)
    try:
        targets, scope, cfg = project.configured_scope(
            o.paths, None, o.config, o.select, "", False, o.include_generation_sources, o.extend_select
        )
        lane = project.Lane.of(scope, project.load_baseline(o.baseline) if o.baseline else None)
        if o.flag_name is not None and not o.flag_name.isidentifier():
            raise UsageError(f"--flag-name {o.flag_name!r} is not a Python identifier")
        fast = summarizer(o.no_cache, o.cache_dir, o.jobs, freeze_gc=True)  # the cache and workers, as check
        wrap = progress_wrap(err if (err.is_terminal and not o.quiet) else None)
        result = project.Session(targets, cfg, fast, wrap).for_fix()
        if result.files == 0:
            for e in result.errors:
                click.echo(f"deadinit: error: {e}", err=True)
            if not result.errors:
                click.echo(f"deadinit: warning: {project.no_files_message(scope or targets)}", err=True)
                return EXIT_CLEAN
            raise UsageError(project.no_files_message(scope or targets))
        wanted = tuple(project.resolve_class(result, c) for c in o.classes)
    except (UsageError, project.ConfigError, project.BaselineError) as e:
        click.echo(f"deadinit: error: {e}", err=True)
        return EXIT_ERROR
    for e in result.errors:
        err.print(f"deadinit: error: {e}", markup=False, soft_wrap=True)  # one line, never wrapped
    note = project.skipped_sources_note(result)
    if note and not o.quiet:
        err.print(f"deadinit: {note}", markup=False, style="dim", soft_wrap=True)
    options = fixing.FixOptions(
        settings=cfg.settings,
        classes=wanted,
        select=cfg.settings.select,
        unsafe_fixes=o.unsafe_fixes,
        flag_name=o.flag_name,
        max_copy_lines=o.max_copy_lines or cfg.settings.direct_base_max_lines,
    )
    if o.strategy in PICKS_ITS_CLASSES and not wanted and lane.scope is not None:
        options.classes = project.lane_classes(result, lane)
    if options.classes or not (o.strategy in PICKS_ITS_CLASSES and lane.scope is not None):
        out = fixing.run_fix(project.in_lane(result, lane), o.strategy, options, write=not o.diff_only)
    else:  # no class of the given paths to re-base
        out = fixing.nothing_to_fix(o.strategy, project.in_lane(result, lane))
    if o.diff_only:
        sys.stdout.write(out.diff())
    return _report(o, out, err, lane)


def _report(o: FixRun, out, err, lane: project.Lane) -> int:
    """The report file, the PR body, the tables and the fixed findings; the exit status."""
    if o.report_file:
        try:
            write_report(o.report_file, out)
        except UsageError as e:
            click.echo(f"deadinit: error: {e}", err=True)
            return EXIT_ERROR
    if o.pr_body_file:
        from deadinit.gpu_check.pr_body import write_pr_body  # noqa: PLC0415 - gpu_check only with --pr-body

        write_pr_body(o.pr_body_file, report_dict(out), o.pr_evidence)
    console = err if o.diff_only else make_console(o.color)
    hint = other_strategy_hint(out)
    if hint and not o.quiet:
        console.print(
            f"deadinit fix: nothing to fix with --strategy {o.strategy}; {hint}", markup=False, soft_wrap=True
        )
    elif not o.quiet:
        from deadinit.report.fix_table import render  # noqa: PLC0415 - not with --quiet

        render(out, console, applied=not o.diff_only, names=table_names(out))
    if o.show_fixes:
        for line in fixed_lines(out, applied=not o.diff_only):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    if out.error:
        click.echo(f"deadinit: error: {out.error}", err=True)
        return EXIT_ERROR
    return fix_exit_code(o, out, lane)


def fix_exit_code(o: FixRun, out, lane: project.Lane) -> int:
    """ruff's meaning, with and without ``--diff``: 1 when findings are left in the tree afterwards
    (of those in ``lane``: on the given paths, not baselined)."""
    if o.exit_zero:
        return EXIT_CLEAN
    changed = out.written or (o.diff_only and out.plan.files)
    if o.exit_non_zero_on_fix and changed:
        return EXIT_FINDINGS
    left = out.before.findings if o.diff_only else out.remaining()
    return EXIT_FINDINGS if any(lane.keeps(f) for f in left) else EXIT_CLEAN


def report_dict(out) -> dict:
    """The JSON fix report of ``out`` (``deadinit.report.fix_report``), naming this command line."""
    command = "deadinit " + shlex.join(sys.argv[1:]) if sys.argv[1:2] == ["fix"] else None
    return fix_report(out, command)


def write_report(path: str, out) -> None:
    write_file(path, json.dumps(report_dict(out), indent=2) + "\n", "report")
