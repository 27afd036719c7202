"""The fast summarizer ``deadinit check`` hands to ``run_check``: cache, prefilter, workers.

``ProjectSummarizer(...)(items, settings)`` returns what
``deadinit.frontends.parse.summarize_many`` returns (a ``FileSummary`` or a
``FileError`` per item, in order):

1. each file is stat'ed and its cache entry read; an entry whose size and mtime
   match stands for the file's content, any other file is read, hashed and
   scanned (in workers when there is enough of it);
2. the prefilter's hierarchy names come from all scans (cached or fresh);
3. an entry whose content hash, and whose plan (the file's classes that are in a
   hierarchy), are unchanged gives the summary; the rest are summarised in
   workers and stored.
"""

from __future__ import annotations

import functools
import gc
import os
import pickle
import sys
import time
from collections.abc import Callable
from pathlib import Path

from deadinit.runtime import file_cache
from deadinit.runtime.file_cache import Cache, new_entry
from deadinit.runtime.pool import Pool, default_jobs

# the prefilter, workers and parser (libcst) load in ``_summarize``: a ``check`` answered
# by the result cache (``deadinit.runtime.result_cache``) never imports them

CACHE_DIR = ".deadinit_cache"


class ProjectSummarizer:
    def __init__(
        self,
        jobs: int | None = None,
        use_cache: bool = True,
        cache_dir: str | None = None,
        use_prefilter: bool = True,
        freeze_gc: bool = False,
    ):
        """``freeze_gc``: move the summaries out of the garbage collector's reach afterwards
        (``gc.freeze``; they are never freed then).  For one-shot processes (the CLI):
        the analysis's collections stop re-walking them (a warm check on sglang: -18 %)."""
        self.freeze_gc = freeze_gc
        self.jobs = jobs or default_jobs()
        self.use_cache = use_cache
        self.cache_dir = cache_dir
        self.use_prefilter = use_prefilter
        self.stats: dict = {}
        # what the last call saw, for the whole-run result cache (``deadinit.runtime.result_cache``):
        # (time before the first stat, per item: (os.stat_result, hash of the content summarised)
        # or None, the prefilter's hierarchy names)
        self.last_inputs: tuple | None = None
        self._leftovers_removed = False

    def close(self) -> None:  # ``commands.project.analyse`` closes the summarizer it used
        pass

    def remove_leftovers(self, settings) -> None:
        """Remove the temporary files a killed run left in the cache (once per summarizer)."""
        if self.use_cache and not self._leftovers_removed:
            self._leftovers_removed = True
            file_cache.remove_leftovers(self.folder(settings))

    def folder(self, settings) -> Path:
        if self.cache_dir:
            return Path(self.cache_dir)
        return Path(getattr(settings, "config_root", "") or os.getcwd()) / CACHE_DIR

    def __call__(self, items, settings, progress: Callable[[int, int], None] | None = None) -> list:
        t0 = time.perf_counter()
        was = gc.isenabled()
        gc.disable()  # millions of small objects come out of the cache: no collections meanwhile
        try:
            out = self._summarize([tuple(i) for i in items], settings, progress)
        finally:
            if was:
                gc.enable()
        if self.freeze_gc:
            gc.freeze()
        self.stats["seconds"] = round(time.perf_counter() - t0, 2)
        if os.environ.get("DEADINIT_STATS"):
            print(f"deadinit: summaries: {self.stats}", file=sys.stderr)
        return out

    def _summarize(self, items: list, settings, progress) -> list:
        from deadinit.frontends import prefilter
        from deadinit.frontends.parse import FileError
        from deadinit.runtime import workers

        n = len(items)
        started_ns = time.time_ns()
        self.remove_leftovers(settings)
        cache = Cache(self.folder(settings), settings.summary_key(), self.use_prefilter) if self.use_cache else None
        stats = [_stat(p) for p, _, _ in items]
        entries = [cache.load(p) if cache else None for p, _, _ in items]
        out: list = [None] * n
        hashes: list = [None] * n
        done: list = [None] * n  # hash of the content each summary was made from
        scans: list = [None] * n
        todo = []
        for i, (e, st) in enumerate(zip(entries, stats)):
            if e is not None and st is not None and e.stat_matches(st):
                hashes[i], scans[i] = e.hash, e.scan
            elif cache is not None or self.use_prefilter:  # else nothing needs the hash or scan
                todo.append(i)
        size = sum(st.st_size if st else 0 for st in stats)
        # workers even for one file: libcst's native parser can crash the process on
        # pathological input (thousands of nested brackets), a worker only loses that file
        with Pool(self.jobs) as pool:
            got = pool.map(
                functools.partial(workers.prepare, settings=settings, with_scan=self.use_prefilter),
                [items[i] for i in todo],
                weights=[_w(stats[i]) for i in todo],
                on_error=workers.error,
            )
            for i, r in zip(todo, got):
                if isinstance(r, FileError):
                    out[i] = r
                else:
                    hashes[i], scans[i] = r
            hier = prefilter.hierarchy_names(s for s in scans if s is not None) if self.use_prefilter else None
            variants = [prefilter.variant(s, hier) for s in scans]
            todo = []
            for i in range(n):
                if out[i] is not None:
                    continue
                e = entries[i]
                if e is not None and e.hash == hashes[i] and e.variant == variants[i]:
                    out[i] = pickle.loads(e.summary_bytes)
                    done[i] = e.hash
                    if not e.stat_matches(stats[i]):  # same content, new mtime: record it
                        cache.store(items[i][0], new_entry(stats[i], e.hash, e.variant, e.scan, e.summary_bytes))
                else:
                    todo.append(i)
            args = dict(pool=pool, items=items, hashes=hashes, stats=stats, cache=cache, settings=settings, done=done)
            self._summarise(todo, hier, variants, out, progress=progress, **args)
            redo = []
            if hier is not None:
                # a safety net under the regular-expression scan: the hierarchies the exact
                # summaries show must all have been kept whole; any class missed is redone
                missing = prefilter.hierarchy_from_summaries(o for o in out if not isinstance(o, FileError)) - hier
                if missing:
                    hier = hier | missing
                    redo = [
                        i
                        for i in range(n)
                        if not isinstance(out[i], FileError) and any(c.name in missing for c in out[i].classes)
                    ]
                    self._summarise(redo, hier, [prefilter.variant(s, hier) for s in scans], out, **args)
        self.last_inputs = (
            started_ns,
            [(st, h) if st is not None and h is not None else None for st, h in zip(stats, done)],
            hier,
        )
        self.stats = {
            "files": n,
            "bytes": size,
            "summarised": len(todo),
            "redone": len(redo),
            "jobs": pool.jobs,
            **({"cache_" + k: v for k, v in cache.stats.items()} if cache else {}),
        }
        if progress:
            progress(n, n)
        return out

    def _summarise(
        self,
        todo: list,
        hier,
        variants: list,
        out: list,
        pool,
        items,
        hashes,
        stats,
        cache,
        settings,
        done,
        progress=None,
    ) -> None:
        from deadinit.frontends.parse import FileError
        from deadinit.runtime import workers

        n, base = len(items), len(items) - len(todo)
        cache_args = (cache.folder, cache.settings_key, cache.prefilter) if cache else None
        got = pool.map(
            functools.partial(workers.summarize, settings=settings, hier=hier, cache=cache_args),
            [items[i] + (variants[i], hashes[i]) for i in todo],
            weights=[_w(stats[i]) for i in todo],
            on_error=workers.error,
            progress=(lambda d, t: progress(base + d, n)) if progress else None,
        )
        for i, r in zip(todo, got):
            out[i] = r if isinstance(r, FileError) else pickle.loads(r[1])
            done[i] = None if isinstance(r, FileError) else r[0]


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _w(st: os.stat_result | None) -> int:
    return st.st_size + 2000 if st else 2000
