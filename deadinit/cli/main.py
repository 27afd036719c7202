"""Command-line front-end: click wiring only; the engine lives in ``deadinit.api``.

Ctrl-C never prints a traceback and ends a command within a second: from start-up on
it ends the process at once (``deadinit.runtime.interrupts.exit_at_once``: every file
deadinit writes is moved into place whole), except inside ``interrupts_raise()`` blocks
(``deadinit fix`` restoring the files it had rewritten) and in ``gpu-check`` (which removes
its temporary trees), where it is a ``KeyboardInterrupt`` that ends in ``deadinit:
interrupted``; exit status 130 either way.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import NoReturn

from deadinit.api.process import EXIT_INTERRUPTED, install_exit_at_once

_AS_PROGRAM = (
    __name__ == "__main__"
    or os.path.basename(sys.argv[0]) in ("deadinit", "deadinit.exe")
    or sys.argv[0].endswith(os.path.join("deadinit", "__main__.py"))
)  # python -m deadinit
if _AS_PROGRAM and threading.current_thread() is threading.main_thread():
    install_exit_at_once()
    if sys.argv[1:2] == ["check"] and not {"--no-cache", "-h", "--help"} & set(sys.argv):
        # a cached check may need to summarise a changed file: fork the helper that loads
        # libcst now, before click loads here (deadinit.runtime.helper)
        from deadinit.api.process import prestart

        prestart()

import click  # noqa: E402

from deadinit import __version__  # noqa: E402
from deadinit.cli.project_options import generation_sources_option  # noqa: E402
from deadinit.cli.speed_options import speed_options  # noqa: E402

# commands whose Ctrl-C is a KeyboardInterrupt: they clean up what they made
_RAISE_ON_INTERRUPT = frozenset({"gpu-check"})

# the other commands load on first use: ``deadinit check`` (a pre-commit hook, a warm
# run in ~1 s) does not import what explain/graph/fix/gpu-check need
_LAZY = {
    "rules": "deadinit.cli.rules:rules",
    "rule": "deadinit.cli.rules:rule",
    "explain": "deadinit.cli.explain:explain",
    "graph": "deadinit.cli.graph:graph",
    "fix": "deadinit.cli.fix:fix",
    "gpu-check": "deadinit.gpu_check.cli:gpu_check",
}


class _Main(click.Group):
    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *_LAZY})

    def get_command(self, ctx, name):
        if name in _LAZY and name not in self.commands:
            module, attr = _LAZY[name].split(":")
            self.add_command(getattr(__import__(module, fromlist=[attr]), attr), name)
        return super().get_command(ctx, name)

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        if name in _RAISE_ON_INTERRUPT and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.default_int_handler)
        return name, cmd, rest

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except BaseException as e:
            if _interrupted(e):
                _exit_interrupted()
            if os.environ.get("DEADINIT_TRACEBACK"):
                raise
            click.echo(
                f"deadinit: internal error: {type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''} "
                "(set DEADINIT_TRACEBACK=1 to see the traceback, and please report it)",
                err=True,
            )
            sys.exit(2)


def _exit_interrupted() -> NoReturn:
    """``deadinit: interrupted`` and exit status 130.

    CPython 3.11 notes a ``KeyboardInterrupt`` that escapes code run by ``exec`` of a string (as
    ``dataclasses`` and ``namedtuple`` make their methods while a module imports) in a flag that a
    later ``exec`` of a string clears; under ``python -m`` a set flag turns the exit status into a
    kill by SIGINT.  An ``exec`` that completes clears it."""
    click.echo("deadinit: interrupted", err=True)
    exec("pass")  # a constant string: clears the flag above
    sys.exit(EXIT_INTERRUPTED)


def _interrupted(e: BaseException) -> bool:
    """Ctrl-C, possibly turned into another exception by code that was running (libcst's
    code generator re-raises a ``KeyError`` while handling a ``KeyboardInterrupt``)."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deadinit")
def main() -> None:
    """Find and remove redundant inherited initialization."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "full", "json", "sarif", "github", "concise"]),
    default="text",
    show_default=True,
    help="Output format (text: a few lines a finding; full: with code frames and the whole evidence chain; "
    "concise: one line a finding; json: schema in the README; sarif: SARIF 2.1.0).",
)
@click.option(
    "--project",
    "project_dir",
    metavar="DIR",
    type=click.Path(),
    help="Analyse DIR as the project; PATHS then only pick which findings are reported: those whose "
    "allocation, re-assignment or subclass lies in PATHS (the pre-commit hook uses this).",
)
@click.option(
    "--config",
    metavar="FILE",
    type=click.Path(),
    help="Read settings from FILE instead of the nearest pyproject.toml with [tool.deadinit].",
)
@click.option(
    "--show-unsure", is_flag=True, help="Also report findings where analysis is unsure (dynamic getattr, __dict__...)."
)
@click.option("--select", default="", help="Comma-separated rule codes or names to run (replaces the configured list).")
@click.option(
    "--extend-select", default="", help="Comma-separated rule codes or names to run in addition to the selection."
)
@click.option(
    "--ignore", default="", help="Comma-separated rule codes or names to skip (added to the configured list)."
)
@click.option("--no-evidence", is_flag=True, help="text and full formats: hide the evidence.")
@click.option("--baseline", metavar="FILE", type=click.Path(), help="Report only findings not recorded in FILE.")
@click.option("--write-baseline", metavar="FILE", type=click.Path(), help="Record today's findings in FILE and exit 0.")
@click.option(
    "--report-unused-ignores", is_flag=True, help="Report `# deadinit: ignore` comments that suppress nothing (DI100)."
)
@click.option("--statistics", is_flag=True, help="Print counts per rule instead of the findings.")
@click.option(
    "--output-file", "-o", metavar="FILE", type=click.Path(), help="Write the report to FILE instead of stdout."
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings are reported (errors still exit 2).")
@click.option(
    "--exit-non-zero-on-fix",
    is_flag=True,
    help="With `deadinit fix`: exit 1 when files changed; accepted by check for ruff parity.",
)
@click.option("--quiet", "-q", is_flag=True, help="Only the findings: no code frames, summary, notes or progress.")
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour output; auto respects NO_COLOR and whether output is a terminal.",
)
@generation_sources_option
@speed_options
def check(
    paths,
    fmt,
    project_dir,
    config,
    show_unsure,
    select,
    extend_select,
    ignore,
    no_evidence,
    baseline,
    write_baseline,
    report_unused_ignores,
    statistics,
    output_file,
    exit_zero,
    exit_non_zero_on_fix,
    quiet,
    color,
    include_generation_sources,
    no_cache,
    cache_dir,
    jobs,
) -> None:
    """Analyse PATHS as one project and report dead parent allocations.

    Exit status: 0 clean, 1 findings, 2 bad usage, configuration or input.
    """
    if not no_cache:  # in case a file changed: a process that loads the summarisers meanwhile
        from deadinit.api.process import prestart  # noqa: PLC0415 - multiprocessing: only for a cached check

        prestart()
    from deadinit.cli.check import CheckOptions, run  # noqa: PLC0415 - after the fork, and only for check

    sys.exit(
        run(
            CheckOptions(
                paths=tuple(paths),
                fmt=fmt,
                project_dir=project_dir,
                config=config,
                select=select,
                extend_select=extend_select,
                ignore=ignore,
                show_unsure=show_unsure,
                no_evidence=no_evidence,
                baseline=baseline,
                write_baseline=write_baseline,
                report_unused_ignores=report_unused_ignores,
                statistics=statistics,
                exit_zero=exit_zero,
                exit_non_zero_on_fix=exit_non_zero_on_fix,
                quiet=quiet,
                color=color,
                output_file=output_file,
                include_generation_sources=include_generation_sources,
                no_cache=no_cache,
                cache_dir=cache_dir,
                jobs=jobs,
            )
        )
    )


if __name__ == "__main__":  # pragma: no cover
    main()
