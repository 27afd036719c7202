"""Options shared by the commands that analyse a project: ``check``, ``fix``, ``explain``, ``graph``."""

from __future__ import annotations

import click


def generation_sources_option(func):
    """``--include-generation-sources / --no-include-generation-sources`` (default: as configured)."""
    return click.option(
        "--include-generation-sources/--no-include-generation-sources",
        default=None,
        help="Also analyse code-generation sources: templates (such as modular_x.py) that a generated file "
        "names as its origin and nothing imports. Skipped by default (config: include-generation-sources).",
    )(func)
