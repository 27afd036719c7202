"""What an analysis run keeps for the next one to analyse only what changed.

Per analysed class: the keys of the table entries its analysis read (``deadinit.index.dependencies``)
and its findings; per key, the digest of that entry (``deadinit.rules.table_digests``).  One file per
run key (``result_cache.run_key``: settings, targets, path filter, deadinit's code) under
``<cache>/state/``, digest-checked and moved into place atomically like the results file; anything
wrong with it is no state: a full run, which writes a fresh one.
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from deadinit.runtime.result_cache import ResultStore


@dataclass
class ClassRecord:
    keys: array[int]  # indexes into ``AnalysisState.keys`` (``array('I')``: a few bytes each, loaded at once)
    findings: bytes  # the pickled findings of each selected rule (a list per rule), before dedupe


@dataclass
class GraphRecord:
    """What the class graph gave for every class (the subclass table and the hierarchy problems),
    the classes it was built over, in order, and the keys it read."""

    classes: tuple[str, ...]
    keys: array[int]  # indexes into ``AnalysisState.keys`` (``array('I')``: a few bytes each, loaded at once)
    subclasses: dict[str, list[str]]
    problems: list[Any]  # ``index.hierarchy_problems.HierarchyProblem``


@dataclass
class AnalysisState:
    keys: list[tuple[str, Hashable]] = field(default_factory=list)
    digests: list[Hashable] = field(default_factory=list)  # one per key
    classes: dict[str, ClassRecord] = field(default_factory=dict)
    live: int = 0  # keys the classes read when the list was last rebuilt without the others
    graph: GraphRecord | None = None


@dataclass
class StoredTables:
    """The whole-project tables a run built from every class's bases and every construction's
    callee: the subclass table (``ProjectIndex.subclasses``) and the construction sites by number
    (``ExternalReads.site_refs``), with the digest of the summaries they were built from
    (``api.check.inputs_digest``).  A command that keeps no state (``explain``) installs them when
    its own summaries give the same digest, instead of resolving those names again.  A file of
    its own: reading it does not unpickle the whole state."""

    inputs: str
    subclasses: dict[str, list[str]]
    sites: dict[str, list[tuple[int, int]]]


class TableStore(ResultStore):
    subfolder, suffix, holds = "state", "tables", StoredTables


class StateStore(ResultStore):
    subfolder, suffix, holds = "state", "state", AnalysisState

    def load(self) -> AnalysisState | None:
        was = gc.isenabled()
        gc.disable()  # hundreds of thousands of small tuples: no collections while they load
        try:
            state: AnalysisState | None = super().load()
            return state
        finally:
            if was:
                gc.enable()
