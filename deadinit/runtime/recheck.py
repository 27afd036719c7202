"""Whether files whose content changed still give a stored run's inputs (``results.refresh``).

A changed file counts as unchanged for the analysis when, summarised again in a
worker, its summary equals the one the stored run used (the per-file cache entry of
the recorded content), compared field by field, in order, sets sorted,
``FileSummary.lines`` aside (no stage reads it).  Summaries hold everything the
analysis reads of a file, so nothing else needs comparing.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import pickle
import time
from typing import TYPE_CHECKING, Any

from deadinit.model.settings import Settings
from deadinit.runtime.file_cache import Cache, Entry
from deadinit.runtime.file_state import FileState
from deadinit.runtime.pool import Pool

if TYPE_CHECKING:
    from deadinit.model.file_error import FileError
    from deadinit.runtime.helper import Helper
    from deadinit.runtime.summarizer import ProjectSummarizer

# (path, module, is_package) of one file
Item = tuple[str, str, bool]

# libcst and the summarisers load in the worker only (``_resummarize``): the main process
# of a run answered from the result cache never imports them


def start(
    snap: object,  # the stored run (``result_cache.Snapshot``) the files are checked for
    items: list[Item],
    old_states: list[FileState],
    settings: Settings,
    summarizer: ProjectSummarizer,
    helper: Helper | None = None,
) -> _Pending | None:
    """Begin re-summarising ``items`` (in the helper when there is one); ``finish`` gives the
    new ``FileState``s when each file is unchanged for the analysis, else None.  None here
    when the stored entries cannot tell (no cache)."""
    if not summarizer.use_cache:
        return None
    cache = Cache(summarizer.folder(settings), settings.summary_key())
    olds: list[Entry] = []
    for (path, module, is_package), state in zip(items, old_states, strict=True):
        e = cache.load(path, module, is_package)  # before the helper writes the new content's entry
        if e is None or e.hash != state.hash:
            return None
        olds.append(e)
    cache_args = (cache.folder, cache.settings_key)
    # in another process even for one file: a crash there costs the lookup, never the run
    work = functools.partial(_resummarize, settings=settings, cache=cache_args)
    pending = _Pending(snap, items, olds, time.time_ns())
    if helper is not None and helper.available:  # forked at start-up, libcst loaded meanwhile
        helper.send(work, items)
        pending.helper = helper
    else:
        with Pool(max(2, min(len(items), summarizer.jobs))) as pool:
            pending.got = pool.map(work, items, on_error=_failed)
    return pending


class _Pending:
    def __init__(self, snap: object, items: list[Item], olds: list[Entry], started_ns: int) -> None:
        self.snap, self.items, self.olds, self.started_ns = snap, items, olds, started_ns
        self.helper: Helper | None = None
        self.got: list[Any] | None = None

    def finish(self) -> list[FileState] | None:
        old_canon = [_canon(pickle.loads(e.summary_bytes), True) for e in self.olds]  # while the helper works
        got = self.helper.receive() if self.helper is not None else self.got
        if got is None:
            return None
        out: list[FileState] = []
        for old, r in zip(old_canon, got, strict=True):
            if not isinstance(r, tuple) or r[2] is None:  # a FileError, a failure
                return None
            h, blob, st = r
            if _canon(pickle.loads(blob), True) != old:
                return None
            out.append(FileState.of(st, self.started_ns, h))
        return out


def _resummarize(item: Item, **kw: Any) -> tuple[str, bytes | str, os.stat_result | None] | FileError:
    from deadinit.runtime.workers import resummarize  # noqa: PLC0415 - the parser loads in the helper process that runs it

    return resummarize(item, **kw)


def _failed(item: Item, message: str) -> None:
    return None


def _canon(x: object, top: bool = False) -> object:
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (
            type(x).__name__,
            *(_canon(getattr(x, f.name)) for f in dataclasses.fields(x) if not (top and f.name == "lines")),
        )
    if isinstance(x, dict):
        return ("dict", *((_canon(k), _canon(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, *(_canon(v) for v in x))
    if isinstance(x, (set, frozenset)):
        return (type(x).__name__, *sorted((_canon(v) for v in x), key=repr))
    return x
