"""The class graph an incremental run keeps: every class's direct subclasses, the hierarchy
problems and the bases outside the analysed files, which the bases of every class give.

Built inside a recording (``deadinit.index.dependencies``), like a class's analysis: the
keys it read are stored with it, and the next run over the same classes, in the same
order, whose recorded entries did not change, takes the stored answer instead of
resolving every class's bases again.  An edit inside a method, or an import that no base
resolves through, keeps it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass

from deadinit.index.dependencies import Key, recording
from deadinit.index.hierarchy_problems import HierarchyProblem, hierarchy_problems
from deadinit.index.project_gaps import outside_bases
from deadinit.index.project_index import ProjectIndex
from deadinit.session.analysis_state import AnalysisState, GraphRecord

# the kinds of entry derived from the class graph itself: never among the keys it reads
GRAPH_DERIVED = frozenset({"subclasses", "subclasses?"})


@dataclass
class ClassGraph:
    classes: tuple[str, ...]
    subclasses: dict[str, list[str]]
    problems: list[HierarchyProblem]
    outside: list[str]  # ``index.project_gaps.outside_bases``
    record: GraphRecord | None = None  # the stored record it was taken from
    keys: set[Key] | None = None  # the keys it read, when it was built

    @property
    def reused(self) -> bool:
        return self.record is not None

    def new_record(self, numbered: Callable[[set[Key]], array[int]]) -> GraphRecord | None:
        """The record of a graph built this run (None when it read what it derives)."""
        keys = self.keys or set()
        if any(k[0] in GRAPH_DERIVED for k in keys):
            return None
        return GraphRecord(self.classes, numbered(keys), self.subclasses, self.problems, self.outside)


def class_graph(index: ProjectIndex, previous: AnalysisState | None, changed: set[int]) -> ClassGraph:
    """The class graph of ``index``, installed in it: the stored one when it still holds
    (``changed``: the indexes of the stored keys whose entries changed), else built."""
    classes = tuple(index.classes.data)
    stored = previous.graph if previous is not None else None
    if stored is not None and stored.classes == classes and changed.isdisjoint(stored.keys):
        index.install_subclasses(stored.subclasses)
        return ClassGraph(classes, stored.subclasses, stored.problems, stored.outside, record=stored)
    with recording() as keys:
        table = index.subclass_table()
        index.install_subclasses(table)
        problems = hierarchy_problems(index)
        outside = outside_bases(index)
    return ClassGraph(classes, table, problems, outside, keys=set(keys))
