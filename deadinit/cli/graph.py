"""``deadinit graph [QUALNAME]``: options wired to the session (``Session.with_index``), printed by
``deadinit.report.graph``."""

from __future__ import annotations

import os

import click

from deadinit.api import project
from deadinit.cli.gc_pause import collections_paused
from deadinit.cli.output import fail, make_console
from deadinit.cli.progress import progress_wrap
from deadinit.cli.project_options import generation_sources_option
from deadinit.cli.speed_options import speed_options, summarizer
from deadinit.report import graph as graph_report


@click.command("graph")
@click.argument("args", nargs=-1, metavar="[QUALNAME] [PATHS]...")
@click.option(
    "--config", metavar="FILE", type=click.Path(), help="Settings file instead of the nearest pyproject.toml."
)
@click.option("--all", "show_all", is_flag=True, help="Without QUALNAME: also hierarchies without findings.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@generation_sources_option
@speed_options
@collections_paused
def graph(
    args,
    config,
    show_all: bool,
    color: str,
    include_generation_sources: bool | None,
    no_cache: bool,
    cache_dir: str | None,
    jobs: int | None,
) -> None:
    """Tree of the class hierarchy under QUALNAME (or every hierarchy with findings).

    The first argument is QUALNAME unless it names an existing file or folder;
    the rest are the PATHS to analyse (default: .).  The findings and summaries
    come from the caches ``check`` keeps, as ``check`` would compute them.
    """
    args = list(args)
    qualname = args.pop(0) if args and not os.path.lexists(args[0]) else None
    targets = args or ["."]
    err = make_console(color, stderr=True)
    try:
        project.require_paths(targets)
        cfg = project.configure(targets, config, include_generation_sources=include_generation_sources)
        fast = summarizer(no_cache, cache_dir, jobs, freeze_gc=True)
        wrap = progress_wrap(err if err.is_terminal else None)
        result = project.Session(targets, cfg, fast, wrap).with_index()
        if result.files == 0:
            raise project.UsageError(project.no_files_message(targets))
        tops = [project.resolve_class(result, qualname)] if qualname else graph_report.roots(result.index)
    except (project.ConfigError, project.UsageError) as e:
        fail(str(e))
    graph_report.render(make_console(color), result.index, tops, result.findings, show_all, qualname is not None)
    note = project.skipped_sources_note(result)
    if note:
        click.echo(f"deadinit: {note}", err=True)
