"""``deadinit explain QUALNAME``: options wired to the session (``Session.explained``), printed by
``deadinit.report.explain``."""

from __future__ import annotations

import click

from deadinit.api import project
from deadinit.cli.gc_pause import collections_paused
from deadinit.cli.output import fail, make_console
from deadinit.cli.progress import progress_wrap
from deadinit.cli.project_options import generation_sources_option
from deadinit.cli.speed_options import speed_options, summarizer
from deadinit.report import explain as explained_report


@click.command("explain")
@click.argument("qualname")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--config", metavar="FILE", type=click.Path(), help="Settings file instead of the nearest pyproject.toml."
)
@click.option("--verbose", "-v", is_flag=True, help="Also list every method that can run, and why.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@generation_sources_option
@speed_options
@collections_paused
def explain(
    qualname: str,
    paths,
    config,
    verbose: bool,
    color: str,
    include_generation_sources: bool | None,
    no_cache: bool,
    cache_dir: str | None,
    jobs: int | None,
) -> None:
    """Explain QUALNAME (a class, full or trailing dotted name) analysed within PATHS (default: .).

    Summaries come from the cache ``check`` keeps (files changed since are summarised
    by the workers); only QUALNAME's hierarchy is analysed, and only its problems
    (inheritance cycles, bases without a C3 order) are listed."""
    targets = list(paths) or ["."]
    console = make_console(color)
    err = make_console(color, stderr=True)
    try:
        project.require_paths(targets)
        cfg = project.configure(targets, config, include_generation_sources=include_generation_sources)
        fast = summarizer(no_cache, cache_dir, jobs, freeze_gc=True)
        wrap = progress_wrap(err if err.is_terminal else None)
        shown = project.Session(targets, cfg, fast, wrap).explained(qualname)
    except (project.ConfigError, project.UsageError) as e:
        fail(str(e))
    explained_report.render(shown.result, shown.qualname, console, verbose)
    for e in shown.result.errors:
        click.echo(f"deadinit: error: {e}", err=True)
