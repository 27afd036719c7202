"""The installed libraries of one run, attached to a project index: the engine's one call here.

A library index is kept for the process per search path, settings and project packages: the
re-analyses of ``deadinit fix`` (and a second check in one process) read each library module
once.
"""

from __future__ import annotations

from collections.abc import Callable

from deadinit.index.project_index import ProjectIndex
from deadinit.installed.facts import InstalledFacts
from deadinit.installed.finder import STDLIB, ModuleFinder
from deadinit.installed.library_index import LibraryIndex
from deadinit.installed.search_path import environment_digest, search_entries
from deadinit.installed.store import LibraryStore, cache_base
from deadinit.installed.unanalysed import unanalysed
from deadinit.model.result import Unanalysed
from deadinit.model.settings import Settings

_KEPT = 2  # library indexes kept per process (a check and a fix's variant share one)
_indexes: dict[tuple[object, ...], LibraryIndex] = {}


def attach(index: ProjectIndex, settings: Settings) -> list[Unanalysed]:
    """Make the installed libraries answer ``index``'s questions about outside names
    (``index.outside``); the packages the project uses that are not installed here."""
    tops = frozenset(p for p in index.module_prefixes if "." not in p)
    tensor = frozenset(m.partition(".")[0] for m in settings.tensor_modules)

    def readable(top: str) -> bool:
        return top not in tops and top not in STDLIB and top not in tensor

    entries = search_entries(settings)
    library = _library(entries, settings, tops, readable)
    index.outside = InstalledFacts(index, settings, library)
    return unanalysed(index.modules.data.values(), readable, library.finder.status)


def _library(
    entries: tuple[str, ...], settings: Settings, tops: frozenset[str], readable: Callable[[str], bool]
) -> LibraryIndex:
    digest = settings.library_environment or environment_digest(settings)  # a library installed since: read anew
    key = (entries, digest, settings.summary_key(), settings.max_file_size, tuple(settings.tensor_modules), tops)
    got = _indexes.get(key)
    if got is None:
        while len(_indexes) >= _KEPT:
            _indexes.pop(next(iter(_indexes)))
        got = _indexes[key] = LibraryIndex(ModuleFinder(entries), LibraryStore(settings, cache_base()), readable)
    return got


def library_counts() -> dict[str, int]:
    """How many library modules this process's library indexes took from their cache (``read``) and
    summarised anew (``summarised``): ``DEADINIT_STATS`` prints them after a check."""
    out = {"read": 0, "summarised": 0}
    for library in _indexes.values():
        for what, n in library.store.stats.items():
            out[what] += n
    return out
