"""A cached session's check through the whole-run result cache (``deadinit.runtime.result_cache``),
and the analysis state a ``fix`` after a hit re-analyses its plan from."""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, Protocol

from deadinit.index.discovery import Discovery
from deadinit.index.pathfilter import PathFilter
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.runtime.stat_memo import StatMemo
from deadinit.session.summarizing import Fingerprinted, Item

if TYPE_CHECKING:
    from deadinit.runtime.summarizer import ProjectSummarizer
    from deadinit.session.analysis_state import StateStore
    from deadinit.session.incremental import Baseline


class CachedRun(Protocol):
    """What ``cached_check`` reads of a ``session.run.Session``."""

    paths: list[str]
    settings: Settings
    summarizer: ProjectSummarizer | None
    stats: StatMemo

    @property
    def excluded(self) -> PathFilter | None: ...

    def discovery(self) -> Discovery: ...

    def incremental(self) -> CheckResult: ...


def cached_check(session: CachedRun) -> CheckResult:
    """``session``'s check result: the stored one when nothing it read changed (its ``index`` a
    ``LiteIndex``, what reporters, DI100 and the exit code read, and no analyzer), else the
    incremental run's, stored for the next run unless an internal error cut it short."""
    from deadinit.runtime import helper as helpers  # noqa: PLC0415 - multiprocessing: only a cached check
    from deadinit.runtime import result_cache as results  # noqa: PLC0415 - only a cached check reads it

    s, summarizer = session.settings, session.summarizer
    assert summarizer is not None
    found: list[tuple[list[Item], list[str]]] = []

    def walk() -> tuple[list[Item], list[str]]:
        if not found:
            disc = session.discovery()
            items = [(f.path, f.module, f.is_package) for f in disc.files]
            found.append((items, [f"{os.path.normpath(p)}: {m}" for p, m in disc.errors]))
        return found[0]

    summarizer.remove_leftovers(s)
    store = results.ResultStore(summarizer.folder(s), results.run_key(session.paths, s, session.excluded))
    with helpers.take() as helper:  # loads the summarisers on the other core, in case a file changed
        snap = store.load()
        if snap is not None:
            fresh = results.refresh(snap, walk, s, summarizer, helper, session.stats)
            if fresh is not None:
                snap, dirty = fresh
                if dirty:
                    store.store(snap)
                summarizer.stats["result_cache"] = "hit"
                stored: CheckResult = snap.result
                return stored
    items, notes = walk()
    result = session.incremental()  # a miss
    states = results.states_of(summarizer.last_inputs) if summarizer.last_inputs is not None else None
    # a run that an internal error cut short is not kept: the next run tries those files and classes again
    if states is not None and len(states) == len(items) and result.index is not None and not result.internal_failures:
        lite = dataclasses.replace(
            result,
            index=results.LiteIndex.of(result.index, [*result.findings, *result.unsure, *result.suppressed]),
            analyzer=None,
            analyses=[],
            baseline=None,
        )
        store.store(results.Snapshot(items, notes, states, lite))
    return result


def stored_baseline(store: StateStore, summarizer: Fingerprinted, indexed: CheckResult) -> Baseline | None:
    """The analysis state ``store`` keeps with the fingerprints of ``indexed``'s summaries
    (``summarizer`` made them last), or None when no state is stored.  It is current when it
    analysed an index of the same summaries (``session.pipeline.index_digest``): not so after an
    edit that left every summary as it was (a comment: the stored findings still hold), or when the
    last run's state could not be written or its journal stops early (an older state is loaded)."""
    from deadinit.session.incremental import Baseline, content_fingerprints  # noqa: PLC0415 - the analysis
    from deadinit.session.pipeline import index_digest  # noqa: PLC0415 - the analysis

    state = store.load()
    if state is None:
        return None
    assert indexed.index is not None  # ``Session.index``'s
    summaries = list(indexed.index.modules.data.values())
    fingerprints = content_fingerprints(summaries, summarizer.content_hashes)
    digest = index_digest(indexed.index, fingerprints)
    return Baseline(state, fingerprints, current=digest is not None and digest == state.inputs)
