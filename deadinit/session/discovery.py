"""Discovery, in one place: the files a run reads, after removing a killed run's rewrites in flight."""

from __future__ import annotations

from collections.abc import Iterable

from deadinit.index.discovery import Discovery, Skip, discover
from deadinit.model.settings import Settings
from deadinit.runtime.stat_memo import StatMemo
from deadinit.runtime.temp_files import remove_leftovers


def discovered(
    paths: Iterable[str], settings: Settings, excluded: Skip | None = None, stats: StatMemo | None = None
) -> Discovery:
    """What ``discover`` finds at ``paths`` (stat'ing through ``stats``: each file once per run),
    once the temporary files a killed run left there are removed."""
    disc = discover(paths, settings.roots, excluded, max_bytes=settings.max_file_size, stats=stats)
    remove_leftovers(disc.temp_files)
    return disc
