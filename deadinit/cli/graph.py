"""``deadinit graph [QUALNAME]``: the class hierarchy as a tree, with findings and waste per class.

A node counts the findings that hold for its instances: its own, and those
reported once at an ancestor subclass whose chain it runs (``extra["subclasses"]``).
"""

from __future__ import annotations

import os
from collections import defaultdict

import click
from rich.text import Text
from rich.tree import Tree

from deadinit.api import project
from deadinit.api.config import ConfigError
from deadinit.cli.gc_pause import collections_paused
from deadinit.cli.output import UsageError, fail, make_console
from deadinit.cli.progress import progress_wrap
from deadinit.cli.project_options import generation_sources_option
from deadinit.cli.speed_options import speed_options, summarizer
from deadinit.model.finding import human_bytes
from deadinit.model.kinds import BaseKind


def per_class(findings) -> dict[str, list]:
    out: dict[str, list] = defaultdict(list)
    for f in findings:
        if not f.cls:
            continue
        out[f.cls].append(f)
        for sub in f.extra.get("subclasses", []):
            out[sub].append(f)
    return out


def _label(qn: str, found: list, repeated: bool) -> Text:
    t = Text()
    t.append(qn.rsplit(".", 1)[-1], style="bold cyan")
    t.append(f"  {qn}", style="dim")
    if found:
        counts = defaultdict(int)
        for f in found:
            counts[f.code] += 1
        t.append("  " + ", ".join(f"{c} x{n}" for c, n in sorted(counts.items())), style="bold yellow")
        per_attr = [f for f in found if f.attribute]  # class-level findings (DI003) repeat these bytes
        known = sum(f.estimated_bytes or 0 for f in per_attr)
        unknown = sum(1 for f in per_attr if f.estimated_bytes is None)
        waste = f"~{human_bytes(known)} per instance" if known else ""
        if unknown:
            waste += (" + " if waste else "") + f"{unknown} of unknown size"
        if waste:
            t.append(f"  [{waste}]", style="green")
    if repeated:
        t.append("  (shown above)", style="italic dim")
    return t


def build_tree(index, root: str, found: dict) -> Tree:
    tree = Tree(_label(root, found.get(root, []), False))
    seen = {root}

    def grow(node: Tree, qn: str) -> None:
        for sub in sorted(index.subclasses.get(qn, [])):
            repeated = sub in seen
            child = node.add(_label(sub, found.get(sub, []), repeated))
            if not repeated:
                seen.add(sub)
                grow(child, sub)

    grow(tree, root)
    return tree


def roots(index) -> list[str]:
    """Project classes with subclasses and no project base: the tops of hierarchies."""
    return sorted(
        qn
        for qn in index.classes
        if index.subclasses.get(qn) and not any(b.kind == BaseKind.CLASS for b in index.bases(qn))
    )


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
        result = project.analyse_indexed(targets, cfg, progress_wrap(err if err.is_terminal else None), fast)
        if result.files == 0:
            raise UsageError(project.no_files_message(targets))
        tops = [project.resolve_class(result, qualname)] if qualname else roots(result.index)
    except (ConfigError, UsageError) as e:
        fail(str(e))
    console = make_console(color)
    found = per_class(result.findings)
    shown = 0
    for top in tops:
        tree_classes = {top} | result.index.all_subclasses(top)
        if qualname is None and not show_all and not any(c in found for c in tree_classes):
            continue
        console.print(build_tree(result.index, top, found))
        shown += 1
    hidden = len(tops) - shown
    if hidden:
        console.print(Text(f"{hidden} hierarchies without findings not shown (--all shows them)", style="dim"))
    elif not tops:
        console.print("no class hierarchies found")
    note = project.skipped_sources_note(result)
    if note:
        click.echo(f"deadinit: {note}", err=True)
