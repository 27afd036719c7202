"""Run per-file work in worker processes: chunks, deterministic order, crash isolation.

``Pool.map(func, items)`` returns ``[func(item) for item in items]`` in input order
(each passed through ``received`` here as its chunk arrives, while the workers go on).
Items go out in chunks (largest first, the chunks shrinking towards the end, so that both
cores stay busy to the end).
In a worker, automatic garbage collection is paused while a chunk runs (summaries
build many short-lived objects); after each item a generation-0 collection frees
that item's reference cycles, so a worker's memory does not grow with the chunk.  An exception
inside ``func`` is the item's result (``on_error`` turns it into a ``FileError``);
a worker that dies (segfault, out of memory) breaks the process pool, the
unfinished chunks are re-run, and an item that kills a worker on its own becomes
an error for that item while the others go on.  Workers end when this process
ends, even by SIGKILL (``deadinit.runtime.orphans``).
"""

from __future__ import annotations

import faulthandler
import gc
import multiprocessing
import os
import threading
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from deadinit.runtime.interrupts import interrupts_held
from deadinit.runtime.orphans import end_with_parent

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext

Chunk = tuple[int, ...]  # the indices of the items one worker task runs
Work = Callable[[Any], Any]  # what runs on each item
OnError = Callable[[Any, str], Any]  # an item and the message: the item's result


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _context() -> BaseContext:
    """fork while this process has a single thread (fast: nothing to re-import); else a
    forkserver, so that no worker is forked from a process where another thread (a
    progress bar) may hold a lock."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        ctx.set_forkserver_preload(["deadinit.runtime.workers"])
    return ctx


def _executor(workers: int) -> ProcessPoolExecutor:
    """Worker processes that end when this process ends, however it ends (``deadinit.runtime.orphans``)."""
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415 - only when workers start: a cached run starts none

    return ProcessPoolExecutor(workers, mp_context=_context(), initializer=end_with_parent, initargs=(os.getpid(),))


def _run_chunk(func: Work, chunk: list[Any], on_error: OnError) -> list[Any]:
    if multiprocessing.parent_process() is not None and faulthandler.is_enabled():
        faulthandler.disable()  # a crash is reported as the file's error line, not a traceback dump
    was = gc.isenabled()
    gc.disable()
    try:
        out: list[Any] = []
        for item in chunk:
            try:
                out.append(func(item))
            except Exception as e:
                if os.environ.get("DEADINIT_TRACEBACK"):
                    traceback.print_exc()
                out.append(on_error(item, f"internal error: {type(e).__name__}: {e}"))
            gc.collect(0)  # only this item's young objects: frees its reference cycles (a worker
            # on sglang 0.5.23's 300 largest files: 296 MiB without, ~145-210 MiB with, ~5 % slower)
        return out
    finally:
        if was:
            gc.enable()


def _as_is(result: Any) -> Any:
    return result


def _error(item: Any, message: str) -> RuntimeError:
    return RuntimeError(f"{item!r}: {message}")


class Pool:
    def __init__(self, jobs: int | None = None):
        self.jobs = max(1, jobs or default_jobs())
        self._ex: ProcessPoolExecutor | None = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._ex is not None:
            self._ex.shutdown(wait=True, cancel_futures=True)
            self._ex = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._ex is None:
            self._ex = _executor(self.jobs)
        return self._ex

    def map(
        self,
        func: Work,
        items: Sequence[Any],
        weights: Sequence[int] | None = None,
        on_error: OnError = _error,
        progress: Callable[[int, int], None] | None = None,
        chunk_weight: int | None = None,
        received: Callable[[Any], Any] = _as_is,
    ) -> list[Any]:
        run = _Run(func, items, on_error, progress, received)
        if len(items) == 0:
            return run.out
        weights = list(weights) if weights is not None else [1] * len(items)
        if self.jobs == 1:
            for idx in _chunks(weights, max(1, sum(weights) // 20 or 1)):
                run.put(idx, _run_chunk(func, [items[i] for i in idx], on_error))
            return run.out
        pending = _chunks(weights, chunk_weight) if chunk_weight else _guided_chunks(weights, self.jobs)
        tries: dict[Chunk, int] = {}
        while pending:
            with interrupts_held():  # submitting forks the workers
                futures = run.submit(self._executor(), pending)
            broken = run.collect(futures)
            pending = []
            if broken:
                self.close()  # a dead worker: start a fresh pool for what is left
                pending = run.retry(broken, tries)
        return run.out


class _Run:
    """One ``Pool.map``: the results in input order (``out``), each passed through ``received`` as
    its chunk arrives, with the progress reported."""

    def __init__(
        self,
        func: Work,
        items: Sequence[Any],
        on_error: OnError,
        progress: Callable[[int, int], None] | None,
        received: Callable[[Any], Any],
    ) -> None:
        self.func, self.items, self.on_error = func, items, on_error
        self.progress, self.received = progress, received
        self.out: list[Any] = [None] * len(items)
        self.done = 0

    def put(self, idx: Chunk, results: list[Any]) -> None:
        for i, r in zip(idx, results, strict=True):
            self.out[i] = self.received(r)
        self.done += len(idx)
        if self.progress:
            self.progress(self.done, len(self.items))

    def submit(self, ex: ProcessPoolExecutor, pending: list[Chunk]) -> dict[Future[list[Any]], Chunk]:
        return {ex.submit(_run_chunk, self.func, [self.items[i] for i in idx], self.on_error): idx for idx in pending}

    def collect(self, futures: dict[Future[list[Any]], Chunk]) -> list[Chunk]:
        """Take the workers' results as they come; the chunks a dead worker broke."""
        from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415 - only when workers start
        from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415 - only when workers start

        broken: list[Chunk] = []
        while futures:
            finished, _ = wait(futures, return_when=FIRST_COMPLETED)
            for fut in finished:
                idx = futures.pop(fut)
                try:
                    results = fut.result()
                except BrokenProcessPool:
                    broken.append(idx)
                    continue
                except Exception as e:  # a result that cannot be sent back, ...
                    results = [self.on_error(self.items[i], f"internal error: {type(e).__name__}: {e}") for i in idx]
                self.put(idx, results)
        return broken

    def retry(self, broken: list[Chunk], tries: dict[Chunk, int]) -> list[Chunk]:
        """What to send again: a broken chunk item by item (to find the item that kills workers); an
        item that broke one twice is run alone, in a fresh process."""
        pending: list[Chunk] = []
        for idx in broken:
            if len(idx) > 1:
                pending += [(i,) for i in idx]
                continue
            tries[idx] = tries.get(idx, 0) + 1
            if tries[idx] >= 2:
                self.out[idx[0]] = self.received(_isolated(self.func, self.items[idx[0]], self.on_error))
                self.done += 1
            else:
                pending.append(idx)
        return pending


def _isolated(func: Work, item: Any, on_error: OnError) -> Any:
    """Run one item alone in a fresh process: its result, or an error if it kills the process."""
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415 - only when workers start

    with _executor(1) as ex:
        try:
            with interrupts_held():
                future = ex.submit(_run_chunk, func, [item], on_error)
            return future.result()[0]
        except BrokenProcessPool:
            return on_error(item, "the worker process died while summarising this file (crash or out of memory)")
        except Exception as e:
            return on_error(item, f"internal error: {type(e).__name__}: {e}")


def _guided_chunks(weights: Sequence[int], jobs: int) -> list[Chunk]:
    """Chunks that shrink as the work left does (guided scheduling), heaviest items first: a chunk
    is a ``1/(4 jobs)`` share of what is left, down to ``1/(64 jobs)`` of the whole, so the
    workers finish within a small chunk of each other."""
    order = sorted(range(len(weights)), key=lambda i: -weights[i])
    left = sum(weights)
    smallest = max(1, left // (jobs * 64))
    chunks: list[Chunk] = []
    cur: list[int] = []
    w = 0
    for i in order:
        cur.append(i)
        w += weights[i]
        if w >= max(smallest, left // (jobs * 4)):
            chunks.append(tuple(cur))
            left -= w
            cur, w = [], 0
    if cur:
        chunks.append(tuple(cur))
    return chunks


def _chunks(weights: Sequence[int], target: int) -> list[Chunk]:
    """Index tuples of about ``target`` weight; the heaviest items lead (longest-processing-time first)."""
    order = sorted(range(len(weights)), key=lambda i: -weights[i])
    chunks: list[Chunk] = []
    cur: list[int] = []
    w = 0
    for i in order:
        cur.append(i)
        w += weights[i]
        if w >= target:
            chunks.append(tuple(cur))
            cur, w = [], 0
    if cur:
        chunks.append(tuple(cur))
    return chunks
