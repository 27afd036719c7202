"""Command-line front-end: click wiring only; the engine lives in ``deadinit.api``."""

from __future__ import annotations

import sys

import click
from rich.console import Console

from deadinit import __version__


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deadinit")
def main() -> None:
    """Find and remove redundant inherited initialization."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--show-unsure", is_flag=True, help="Also report findings where analysis is unsure (dynamic getattr, __dict__...).")
@click.option("--select", default="", help="Comma-separated rule codes or names to run.")
@click.option("--ignore", default="", help="Comma-separated rule codes or names to skip.")
@click.option("--no-evidence", is_flag=True, help="Text format: hide the evidence chain.")
def check(paths, fmt, show_unsure, select, ignore, no_evidence) -> None:
    """Analyse PATHS as one project and report dead parent allocations."""
    from deadinit.api import run_check
    from deadinit.settings import Settings

    settings = Settings(show_unsure=show_unsure,
                        select=tuple(s.strip() for s in select.split(",") if s.strip()),
                        ignore=tuple(s.strip() for s in ignore.split(",") if s.strip()))
    err = _console(stderr=True)
    result = run_check(list(paths) or ["."], settings)
    for e in result.errors:
        err.print(f"deadinit: error: {e}", markup=False)
    if fmt == "json":
        from deadinit.report import json_report
        sys.stdout.write(json_report.render(result))
    else:
        from deadinit.report import text
        text.render(result, _console(), show_evidence=not no_evidence)
    if result.files == 0 or (result.errors and not result.index.modules):
        sys.exit(2)
    sys.exit(1 if result.findings else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
