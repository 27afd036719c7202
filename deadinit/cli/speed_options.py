"""The speed options ``check`` and ``fix`` share: the per-file cache and worker processes."""

from __future__ import annotations

import click


def speed_options(func):
    """``--no-cache``, ``--cache-dir DIR``, ``--jobs N`` (in that order)."""
    for option in reversed(
        (
            click.option(
                "--no-cache", is_flag=True, help="Summarise every file again; do not read or write the cache."
            ),
            click.option(
                "--cache-dir",
                metavar="DIR",
                type=click.Path(),
                help="Keep the cache in DIR instead of .deadinit_cache/ at the project root.",
            ),
            click.option(
                "--jobs",
                "-j",
                metavar="N",
                type=click.IntRange(min=1),
                help="Worker processes for summarising files [default: all cores].",
            ),
        )
    ):
        func = option(func)
    return func


def summarizer(no_cache: bool = False, cache_dir=None, jobs=None, freeze_gc: bool = False):
    from deadinit.api.process import project_summarizer  # noqa: PLC0415 - --help and the option list need none

    return project_summarizer(no_cache, cache_dir, jobs, freeze_gc)
