"""The summarizer ``deadinit check`` and ``fix`` hand to ``run_check``: per-file cache and workers.

``ProjectSummarizer(...)(items, settings)`` returns what
``deadinit.frontends.parse.summarize_many`` returns (a ``FileSummary`` or a
``FileError`` per item, in order):

1. each file is stat'ed; the pack of the last run over the same inputs
   (``deadinit.runtime.summary_pack``, one file) gives the summary of each file whose
   size, mtime and inode match, or whose content hashes to the packed one (a fresh
   checkout); for any other file its cache entry is read, and an entry whose size and
   mtime match gives the summary;
2. every other file goes to a worker, which reads and hashes it: content the entry
   was made from gives the entry's summary (and the entry its new mtime); anything
   else is summarised there and stored; when only a few files are left
   (``IN_PROCESS``: an edit, the result cache's re-summarised file), they are
   hashed here first, so an unchanged content needs no worker at all;
3. when more than ``REPACK_STALE`` files were not served by the pack, a new pack is written.
"""

from __future__ import annotations

import functools
import gc
import os
import pickle
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from deadinit.frontends.source_file import read_source
from deadinit.model.file_error import FileError
from deadinit.model.settings import Settings
from deadinit.runtime import file_cache
from deadinit.runtime.file_cache import Cache, Entry, new_entry
from deadinit.runtime.pool import Pool, default_jobs
from deadinit.runtime.stat_memo import StatMemo
from deadinit.runtime.summary_pack import Record, SummaryPack

if TYPE_CHECKING:  # a check answered by the result cache unpickles no summary
    from deadinit.model.summary import FileSummary

# (path, module, is_package) of one discovered file
Item = tuple[str, str, bool]
Progress = Callable[[int, int], None]

IN_PROCESS = 16  # at most this many files left: hashed in this process before any worker starts
PACK_MIN_FILES = 256  # fewer files: no pack (reading their entries one by one costs little)
REPACK_STALE = 32  # more files than this not served by the pack: a new pack is written

# the workers and the parser load in ``_Batch.summarise``: a ``check`` answered by the result
# cache (``deadinit.runtime.result_cache``) never imports them

CACHE_DIR = ".deadinit_cache"


class ProjectSummarizer:
    def __init__(
        self,
        jobs: int | None = None,
        use_cache: bool = True,
        cache_dir: str | None = None,
        freeze_gc: bool = False,
    ):
        """``freeze_gc``: move the summaries out of the garbage collector's reach afterwards
        (``gc.freeze``; they are never freed then).  For one-shot processes (the CLI):
        the analysis's collections stop re-walking them (a warm check on sglang: -18 %)."""
        self.freeze_gc = freeze_gc
        self.jobs = jobs or default_jobs()
        self.use_cache = use_cache
        self.cache_dir = cache_dir
        self.stats: dict[str, Any] = {}
        # what the last call saw, for the whole-run result cache (``deadinit.runtime.result_cache``):
        # (time before the first stat, per item: (os.stat_result, hash of the content summarised)
        # or None)
        self.last_inputs: tuple[int, list[tuple[os.stat_result, str] | None]] | None = None
        self.content_hashes: dict[str, str] = {}  # path -> hash of the content the last call summarised
        # the files' stats this run already took (``deadinit.runtime.stat_memo``), for the next call only
        self.known_stats: StatMemo | None = None
        self._leftovers_removed = False

    def close(self) -> None:  # a ``Session`` closes the summarizer a stage used
        pass

    def remove_leftovers(self, settings: Settings) -> None:
        """Remove the temporary files a killed run left in the cache (once per summarizer)."""
        if self.use_cache and not self._leftovers_removed:
            self._leftovers_removed = True
            file_cache.remove_leftovers(self.folder(settings))

    def folder(self, settings: Settings) -> Path:
        if self.cache_dir:
            return Path(self.cache_dir)
        return Path(getattr(settings, "config_root", "") or os.getcwd()) / CACHE_DIR

    def __call__(
        self, items: Iterable[Item], settings: Settings, progress: Progress | None = None
    ) -> list[FileSummary | FileError]:
        t0 = time.perf_counter()
        was = gc.isenabled()
        gc.disable()  # millions of small objects come out of the cache: no collections meanwhile
        try:
            out = self._summarize(cast(list[Item], [tuple(i) for i in items]), settings, progress)
            if self.freeze_gc:
                gc.freeze()  # before collections resume: the first one would walk every summary
        finally:
            if was:
                gc.enable()
        self.stats["seconds"] = round(time.perf_counter() - t0, 2)
        if os.environ.get("DEADINIT_STATS"):
            print(f"deadinit: summaries: {self.stats}", file=sys.stderr)
        return out

    def _summarize(
        self, items: list[Item], settings: Settings, progress: Progress | None
    ) -> list[FileSummary | FileError]:
        n = len(items)
        known, self.known_stats = self.known_stats, None
        started_ns = known.taken_ns if known is not None else time.time_ns()  # no later than any stat
        self.remove_leftovers(settings)
        cache = Cache(self.folder(settings), settings.summary_key()) if self.use_cache else None
        stats = [_stat(p, known) for p, _, _ in items]
        pack = SummaryPack(cache.folder, cache.settings_key, items) if cache and n >= PACK_MIN_FILES else None
        b = _Batch(items, stats, cache, pack, started_ns)
        todo = b.from_stores()
        if 0 < len(todo) <= IN_PROCESS:  # a pool for a few files costs more than hashing them here
            todo = b.same_content(todo)
        size = sum(st.st_size if st else 0 for st in stats)
        with Pool(self.jobs) as pool:
            if todo:
                b.summarise(pool, todo, settings, progress)
        packed_now = pack is not None and n - b.from_pack > REPACK_STALE
        if packed_now and pack is not None:
            pack.store(b.records)
        self.content_hashes = {items[i][0]: h for i, h in enumerate(b.done) if h is not None}
        self.last_inputs = (
            started_ns,
            [(st, h) if st is not None and h is not None else None for st, h in zip(stats, b.done, strict=True)],
        )
        self.stats = {
            "files": n,
            "bytes": size,
            "summarised": b.summarised,
            "jobs": pool.jobs,
            **({"pack_hit": b.from_pack, "pack_same": b.same_in_pack, "pack_written": packed_now} if pack else {}),
            **({"cache_" + k: v for k, v in cache.stats.items()} if cache else {}),
        }
        if progress:
            progress(n, n)
        return b.out


class _Batch:
    """One call's files, each summary taken from the pack, the cache or a worker (``out``), with the
    hash of the content it was made from (``done``) and its record for the next pack (``records``)."""

    def __init__(
        self,
        items: list[Item],
        stats: list[os.stat_result | None],
        cache: Cache | None,
        pack: SummaryPack | None,
        started_ns: int,
    ) -> None:
        n = len(items)
        self.items, self.stats, self.cache, self.pack, self.started_ns = items, stats, cache, pack, started_ns
        self.packed = (pack.load() if pack is not None else None) or [None] * n
        self.entries: list[Entry | None] = [None] * n
        self.records: list[Record | None] = [None] * n  # for the next pack
        self.out: list[Any] = [None] * n  # a FileSummary or a FileError each, once taken
        self.done: list[str | None] = [None] * n  # hash of the content each summary was made from
        self.from_pack = self.same_in_pack = self.summarised = 0

    def from_stores(self) -> list[int]:
        """Take each summary the pack or the cache holds for the file's stat; the files left."""
        todo = []
        for i, st in enumerate(self.stats):
            if self._from_pack(i, st):
                continue
            e = self.entries[i] = self.cache.load(*self.items[i]) if self.cache else None
            if e is not None and st is not None and e.stat_matches(st):
                self.out[i], self.done[i] = pickle.loads(e.summary_bytes), e.hash
                self.records[i] = Record(st, e.recorded_ns, e.hash, e.summary_bytes)
            else:
                todo.append(i)
        return todo

    def _from_pack(self, i: int, st: os.stat_result | None) -> bool:
        k = self.packed[i]
        if k is None or st is None:
            return False
        fresh = k.stat_matches(st)
        # else a new mtime (a fresh checkout, a touch): the content's hash decides, here (no worker)
        if not (fresh or _hash_of(self.items[i][0]) == k.hash):
            return False
        self.out[i], self.done[i] = pickle.loads(k.summary_bytes), k.hash
        self.records[i] = Record(st, k.recorded_ns if fresh else self.started_ns, k.hash, k.summary_bytes)
        self.from_pack += fresh
        self.same_in_pack += not fresh
        return True

    def same_content(self, todo: list[int]) -> list[int]:
        """The files of ``todo`` left to summarise once those whose content hashes to their cache entry's
        (a new mtime, an edit undone, the result cache's re-summarised file) are taken from the cache
        here: hashing needs no worker (and a pool for one file costs a process start)."""
        left = []
        for i in todo:
            e, st = self.entries[i], self.stats[i]
            if e is None or st is None:
                left.append(i)
                continue
            data = read_source(self.items[i][0])
            if not isinstance(data, bytes) or file_cache.content_hash(data) != e.hash:
                left.append(i)
                continue
            self.out[i], self.done[i] = pickle.loads(e.summary_bytes), e.hash
            self.records[i] = Record(st, self.started_ns, e.hash, e.summary_bytes)
            if self.cache is not None:
                self.cache.store(*self.items[i], new_entry(st, e.hash, e.summary_bytes))
        return left

    def summarise(self, pool: Pool, todo: list[int], settings: Settings, progress: Progress | None) -> None:
        """Hand the files of ``todo`` to the workers (each hashes its file first: content its cache
        entry was made from comes back as ``workers.SAME``)."""
        from deadinit.runtime import workers  # noqa: PLC0415 - the parser loads only when a file must be summarised

        n, items, entries, cache = len(self.items), self.items, self.entries, self.cache
        base = n - len(todo)
        got = pool.map(
            functools.partial(
                workers.summarize, settings=settings, cache=(cache.folder, cache.settings_key) if cache else None
            ),
            [(*items[i], e.hash if (e := entries[i]) is not None else None) for i in todo],
            weights=[_w(self.stats[i]) for i in todo],
            on_error=workers.error,
            progress=(lambda d, t: progress(base + d, n)) if progress else None,
            received=functools.partial(_unpickled, keep=self.pack is not None),
        )
        for i, r in zip(todo, got, strict=True):
            if isinstance(r, FileError):
                self.out[i] = r
            else:
                h, summary, blob = r
                self._take(i, h, summary, blob, same=workers.SAME)

    def _take(self, i: int, h: str, summary: object, blob: bytes | None, same: str) -> None:
        """A worker's answer for file ``i``: its content's hash, and its summary or ``same``."""
        e, st = self.entries[i], self.stats[i]
        if summary == same and e is not None:  # same content, new mtime: record it
            self.out[i], blob = pickle.loads(e.summary_bytes), e.summary_bytes
            if self.cache is not None and st is not None:
                self.cache.store(*self.items[i], new_entry(st, h, e.summary_bytes))
        else:
            self.out[i] = summary
            self.summarised += 1
        self.done[i] = h
        if st is not None and blob is not None:
            self.records[i] = Record(st, self.started_ns, h, blob)


def _unpickled(
    result: tuple[str, bytes | str] | FileError, keep: bool
) -> tuple[str, object, bytes | str | None] | FileError:
    """A worker's (hash, pickled summary) as (hash, summary, pickled summary if ``keep`` (for the pack)
    else None), unpickled as each chunk arrives: this process does it while the workers go on, not
    all at the end."""
    if isinstance(result, tuple):
        h, blob = result
        return h, pickle.loads(blob) if isinstance(blob, bytes) else blob, blob if keep else None
    return result


def _hash_of(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return file_cache.content_hash(f.read())
    except OSError:
        return None


def _stat(path: str, known: StatMemo | None) -> os.stat_result | None:
    st = known.get(path) if known is not None else None
    if st is not None:
        return st
    try:
        return os.stat(path)
    except OSError:
        return None


def _w(st: os.stat_result | None) -> int:
    return st.st_size + 2000 if st else 2000
