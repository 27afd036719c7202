"""Whether files whose content changed still give a stored run's inputs (``results.refresh``).

A changed file counts as unchanged for the analysis when, summarised again in a
worker with the stored run's prefilter plan:

* its summary equals the one the stored run used (the per-file cache entry of the
  recorded content: same hash, same plan), compared field by field, in order,
  sets sorted, ``FileSummary.lines`` aside (no stage reads it);
* its prefilter scan is equal (the project's hierarchy names, so every other
  file's plan, stay the same);
* every ``is_stub`` answer the stored analysis read from its text is the same.
"""

from __future__ import annotations

import dataclasses
import functools
import pickle
import time

from deadinit.frontends.scan import variant
from deadinit.runtime.file_cache import Cache
from deadinit.runtime.pool import Pool

# libcst and the summarisers load in the worker only (``_resummarize``): the main process
# of a run answered from the result cache never imports them


def start(snap, items: list, old_states: list, settings, summarizer, helper=None):
    """Begin re-summarising ``items`` (in the helper when there is one); ``finish`` gives the
    new ``FileState``s when each file is unchanged for the analysis, else None.  None here
    when the stored entries cannot tell (no cache, another prefilter plan)."""
    if not summarizer.use_cache or (snap.hier is not None) != summarizer.use_prefilter:
        return None
    cache = Cache(summarizer.folder(settings), settings.summary_key(), summarizer.use_prefilter)
    olds = []
    for (path, _, _), state in zip(items, old_states):
        e = cache.load(path)  # before the helper writes the new content's entry
        if e is None or e.hash != state.hash or e.variant != variant(e.scan, snap.hier):
            return None
        olds.append(e)
    cache_args = (cache.folder, cache.settings_key, cache.prefilter)
    # in another process even for one file: libcst's parser may crash on pathological input
    work = functools.partial(_resummarize, settings=settings, hier=snap.hier, cache=cache_args)
    pending = _Pending(snap, items, olds, time.time_ns())
    if helper is not None and helper.available:  # forked at start-up, libcst loaded meanwhile
        helper.send(work, items)
        pending.helper = helper
    else:
        with Pool(max(2, min(len(items), summarizer.jobs))) as pool:
            pending.got = pool.map(work, items, on_error=_failed)
    return pending


class _Pending:
    def __init__(self, snap, items, olds, started_ns):
        self.snap, self.items, self.olds, self.started_ns = snap, items, olds, started_ns
        self.helper = None
        self.got = None

    def finish(self) -> list | None:
        from deadinit.runtime.result_cache import FileState

        old_canon = [_canon(pickle.loads(e.summary_bytes), True) for e in self.olds]  # while the helper works
        got = self.helper.receive() if self.helper is not None else self.got
        if got is None:
            return None
        out = []
        for (path, _, _), e, old, r in zip(self.items, self.olds, old_canon, got):
            if not isinstance(r, tuple) or r[3] is None:  # a FileError, a failure
                return None
            h, blob, scan, (size, mtime_ns) = r
            if scan != e.scan or _canon(pickle.loads(blob), True) != old:
                return None
            if not same_stubs(self.snap.stubs, path):
                return None
            out.append(FileState(size, mtime_ns, self.started_ns, h))
        return out


def _resummarize(item: tuple, **kw):
    from deadinit.runtime.workers import resummarize

    return resummarize(item, **kw)


def _failed(item: tuple, message: str) -> None:
    return None


def _canon(x, top: bool = False):
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__,) + tuple(
            _canon(getattr(x, f.name)) for f in dataclasses.fields(x) if not (top and f.name == "lines")
        )
    if isinstance(x, dict):
        return ("dict",) + tuple((_canon(k), _canon(v)) for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return (type(x).__name__,) + tuple(_canon(v) for v in x)
    if isinstance(x, (set, frozenset)):
        return (type(x).__name__,) + tuple(sorted((_canon(v) for v in x), key=repr))
    return x


def same_stubs(stubs: dict, path: str) -> bool:
    from deadinit.analysis.reuse import is_stub

    return all(is_stub(*key) == answer for key, answer in stubs.items() if key[0] == path)
