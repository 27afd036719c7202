"""What an analysis run keeps for the next one to analyse only what changed.

Per analysed class: the keys of the table entries its analysis read (``deadinit.index.dependencies``)
and its findings; per key, the digest of that entry (``deadinit.session.table_digests``).  One file per
run key (``result_cache.run_key``: settings, targets, path filter, deadinit's code) under
``<cache>/state/``, digest-checked and moved into place atomically like the results file; anything
wrong with it is no state: a full run, which writes a fresh one.

A run after an edit changes a few classes' records of thousands: it writes what changed (a
``StateDelta``) to the next file of the state's journal (``<run key>.state.1``, ``.2`` ...) instead
of the whole state again.  Each delta names the state it applies to (the digest of the file before
it), so loading applies the journal's deltas in order while each applies to what was loaded so
far, and stops at the first that does not (a delta of a concurrent run, a damaged or stale file):
what it has then is the state some run stored, from which the next run starts as correctly.  Once
the journal is a quarter of the state's size, the whole state is written again and the journal
removed.
"""

from __future__ import annotations

import gc
import pickle
from array import array
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deadinit.runtime import file_cache
from deadinit.runtime.result_cache import ResultStore

# an entry's digests: coarse (a lookup or a module's fingerprint) and fine (or None)
Digest = tuple[Hashable, Hashable]


@dataclass
class ClassRecord:
    keys: array[int]  # indexes into ``AnalysisState.keys`` (``array('I')``: a few bytes each, loaded at once)
    findings: bytes  # the pickled findings of each selected rule (a list per rule), before dedupe
    broken: bool = False  # its ``__init__`` chain cannot bind (``analysis.flow.chain``, DI004), whatever the rules


@dataclass
class GraphRecord:
    """What the class graph gave for every class (the subclass table, the hierarchy problems and the
    bases outside the analysed files),
    the classes it was built over, in order, and the keys it read."""

    classes: tuple[str, ...]
    keys: array[int]  # indexes into ``AnalysisState.keys`` (``array('I')``: a few bytes each, loaded at once)
    subclasses: dict[str, list[str]]
    problems: list[Any]  # ``index.hierarchy_problems.HierarchyProblem``
    outside: list[str] = field(default_factory=list)  # ``index.project_gaps.outside_bases``


@dataclass
class AnalysisState:
    keys: list[tuple[str, Hashable]] = field(default_factory=list)
    digests: list[Digest] = field(default_factory=list)  # one per key
    classes: dict[str, ClassRecord] = field(default_factory=dict)
    live: int = 0  # keys the classes read when the list was last rebuilt without the others
    graph: GraphRecord | None = None
    # the digest of the summaries of the index it analysed (``api.check.inputs_digest``; None: not
    # known): a run over summaries of the same digest finds every class's record as it is
    inputs: str | None = None
    # per kind of key, the numbers of its keys in order: a run compares the stored keys kind by kind
    # (``session.table_digests``) without grouping ~90,000 of them again
    by_kind: dict[str, array[int]] = field(default_factory=dict)

    def append(self, key: tuple[str, Hashable], digest: Digest) -> int:
        """Number ``key`` (with its ``digest``) after the others; its number."""
        i = len(self.keys)
        self.keys.append(key)
        self.digests.append(digest)
        _add(self.by_kind, key[0], i)
        return i


def grouped(keys: Sequence[tuple[str, Hashable]], indexes: Iterable[int] | None = None) -> dict[str, array[int]]:
    """The numbers of ``keys`` (those at ``indexes``: all by default) by kind, in order: a state's ``by_kind``."""
    out: dict[str, array[int]] = {}
    for i in range(len(keys)) if indexes is None else indexes:
        _add(out, keys[i][0], i)
    return out


def _add(groups: dict[str, array[int]], kind: str, i: int) -> None:
    group = groups.get(kind)
    if group is None:
        groups[kind] = array("I", [i])
    else:
        group.append(i)


@dataclass
class StoredTables:
    """The whole-project tables a run built from every class's bases and every name it resolved:
    the subclass table (``ProjectIndex.subclasses``), the construction sites by number
    (``ExternalReads.site_refs`` and ``site_visits``) and the exported classes per module
    (``analysis.reads.exports``), with the digest of the summaries they were built from
    (``api.check.inputs_digest``) and, per module in the index's order, a short digest of its
    summary's fingerprint and the digest of the names it binds (``index.lazy_tables.bound_digest``).
    A command that keeps no state (``explain``) installs them when its own summaries give the same
    digest; a ``check`` after an edit resolves only the changed modules' constructions and exports
    when they bind what they bound (``analysis.liveness.variant_sites``).  A file of its own: reading it does
    not unpickle the whole state."""

    inputs: str
    subclasses: dict[str, list[str]]
    sites: dict[str, list[tuple[int, int, int]]]
    visits: list[tuple[int, ...]]  # per module: the modules resolving its constructions looked up
    exports: list[tuple[tuple[str, str], ...]]  # per module: the classes it offers (``analysis.reads.exports``)
    export_visits: list[tuple[int, ...]]  # per module: the modules resolving its exports looked up
    modules: tuple[str, ...]
    fingerprints: tuple[bytes, ...]
    bound: tuple[bytes, ...]


class TableStore(ResultStore):
    subfolder, suffix, holds = "state", "tables", StoredTables


@dataclass
class StateDelta:
    """A state as the one it follows (``previous``: that one's file digest) with a few changes."""

    previous: str
    keys: list[tuple[str, Hashable]]  # appended, with their digests
    digests: list[Digest]
    moved: dict[int, Digest]  # the digests now of stored keys that moved
    classes: dict[str, ClassRecord]  # records added or replaced
    removed: list[str]  # classes no longer there
    graph: GraphRecord | None
    graph_changed: bool
    live: int
    inputs: str | None

    @classmethod
    def between(cls, old: AnalysisState, new: AnalysisState, previous: str) -> StateDelta | None:
        """What makes ``new`` of ``old`` (objects that ``new`` took over from ``old`` are
        unchanged); None when its keys are not ``old``'s with more appended (renumbered)."""
        n = len(old.keys)
        if len(new.keys) < n or len(new.digests) != len(new.keys) or new.keys[:n] != old.keys:
            return None
        moved = {i: d for i, (was, d) in enumerate(zip(old.digests, new.digests, strict=False)) if d is not was}
        classes = {qn: r for qn, r in new.classes.items() if old.classes.get(qn) is not r}
        removed = [qn for qn in old.classes if qn not in new.classes]
        changed = new.graph is not old.graph
        graph = new.graph if changed else None
        return cls(
            previous, new.keys[n:], new.digests[n:], moved, classes, removed, graph, changed, new.live, new.inputs
        )

    def apply(self, state: AnalysisState) -> None:
        for key, digest in zip(self.keys, self.digests, strict=True):
            state.append(key, digest)
        for i, d in self.moved.items():
            state.digests[i] = d
        for qn in self.removed:
            state.classes.pop(qn, None)
        state.classes.update(self.classes)
        if self.graph_changed:
            state.graph = self.graph
        state.live = self.live
        state.inputs = self.inputs


@dataclass
class _Loaded:
    """The state a store loaded last, the digest of its last file and the journal's extent."""

    state: AnalysisState
    digest: str
    deltas: int
    journal_bytes: int
    state_bytes: int


MAX_DELTAS = 64  # files in a journal at most: loading reads each
JOURNAL_SHARE = 4  # a journal stays within 1 / JOURNAL_SHARE of the whole state's size


class StateStore(ResultStore):
    subfolder, suffix, holds = "state", "state", AnalysisState

    def __init__(self, folder: Path, key: str):
        super().__init__(folder, key)
        self._loaded: _Loaded | None = None

    def _delta_path(self, i: int) -> Path:
        return self.path.with_name(f"{self.path.name}.{i}")

    def load(self) -> AnalysisState | None:
        """The stored state with its journal applied.  ``store`` writes the next state as a delta
        of this one (it must not be changed meanwhile)."""
        was = gc.isenabled()
        gc.disable()  # hundreds of thousands of small tuples: no collections while they load
        try:
            self._loaded = None
            read = self.read(self.path, AnalysisState)
            if read is None:
                return None
            state, digest, size = read
            loaded = _Loaded(state, digest, 0, 0, size)
            while loaded.deltas < MAX_DELTAS:
                got = self.read(self._delta_path(loaded.deltas + 1), StateDelta)
                if got is None or got[0].previous != loaded.digest:
                    break
                delta, loaded.digest, size = got
                delta.apply(state)
                loaded.deltas += 1
                loaded.journal_bytes += size
            self._loaded = loaded
            return state
        finally:
            if was:
                gc.enable()

    def store(self, state: AnalysisState) -> None:
        """Store ``state``: as the journal's next delta when it follows the state loaded last and
        the journal stays small, else whole (and the journal is removed)."""
        loaded, self._loaded = self._loaded, None
        delta = StateDelta.between(loaded.state, state, loaded.digest) if loaded is not None else None
        if loaded is not None and delta is not None and loaded.deltas < MAX_DELTAS:
            payload = pickle.dumps(delta, protocol=pickle.HIGHEST_PROTOCOL)
            if (loaded.journal_bytes + len(payload)) * JOURNAL_SHARE <= loaded.state_bytes:
                self.write_payload(self._delta_path(loaded.deltas + 1), payload)
                return
        if self.write(self.path, state) is not None:
            self._remove_journal()

    def _remove_journal(self) -> None:
        for p in self.path.parent.glob(f"{self.path.name}.*"):
            if p.suffix[1:].isdigit():
                file_cache.unlink_quietly(str(p))
