"""A run's configuration: the file's settings with the command line's overrides, and what is
analysed and reported on."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from deadinit.index.pathfilter import PathFilter
from deadinit.session.config import Config, load_config, split_codes
from deadinit.session.errors import UsageError
from deadinit.session.project_root import project_scope


def path_filter(cfg: Config) -> PathFilter:
    """Discovery's ``excluded`` hook for the configuration's include / exclude / .gitignore."""
    return PathFilter(cfg.root, cfg.include, cfg.exclude, cfg.respect_gitignore)


def require_paths(paths: Iterable[str]) -> None:
    for p in paths:
        if not os.path.lexists(p):
            raise UsageError(f"path does not exist: {p}")


def configure(
    paths: list[str],
    config_file: str | None = None,
    select: str = "",
    ignore: str = "",
    show_unsure: bool = False,
    include_generation_sources: bool | None = None,
    extend_select: str = "",
) -> Config:
    """The run's configuration: the file's, then command-line overrides.

    ``--select`` replaces the configured selection; ``--extend-select`` and ``--ignore`` add to
    the selection and to the ignored list;
    ``include_generation_sources`` (None: as configured) replaces the configured value.
    """
    cfg = load_config(paths, config_file)
    s = cfg.settings
    if select.strip():
        s.select = split_codes("--select", select)
    extended = split_codes("--extend-select", extend_select) if extend_select.strip() else ()
    if extended and s.select:  # an empty selection is every rule already
        s.select = tuple(dict.fromkeys(s.select + extended))
    if ignore.strip():
        s.ignore = tuple(dict.fromkeys(s.ignore + split_codes("--ignore", ignore)))
    if show_unsure:
        s.show_unsure = True
    if include_generation_sources is not None:
        s.include_generation_sources = include_generation_sources
    return cfg


def configured_scope(
    paths: Iterable[str], project_dir: str | None = None, config_file: str | None = None, *overrides: Any
) -> tuple[list[str], list[str] | None, Config]:
    """(what is analysed, the paths reported on or None for all, the configuration) of a run over
    ``paths`` (default ``.``): the project they lie in (``session.project_root``), or ``project_dir``
    when given.  A given file the project's configuration excludes is analysed too, as ruff lints
    a file named on its command line.  ``overrides``: ``configure``'s, after ``config_file``."""
    given = list(paths)
    require_paths([*given, *([project_dir] if project_dir else [])])
    if project_dir is not None:
        targets, scope = [project_dir], given or None
    else:
        found = project_scope(given or ["."], config_file)
        targets, scope = found.targets, found.scope
    cfg = configure(targets, config_file, *overrides)
    if scope is not None and project_dir is None:
        excluded = path_filter(cfg)
        targets += [p for p in scope if os.path.isfile(p) and excluded(p, False)]
    return targets, scope, cfg
