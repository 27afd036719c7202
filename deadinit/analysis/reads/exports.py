"""Project classes offered to code outside the project, module by module, and what finding them read.

A module offers the classes its ``__all__`` names and, when it is a package, those its
``__init__`` imports under a public name from another module.  Which class a name is, is what
resolving it gives, and resolving reads only the bound names of the modules it looks up
(``ProjectIndex.resolve_visiting``): each module's exports are kept with the modules their
resolution visited, so that a variant of the project (an edit, ``fix``'s rewrite) finds again
only the exports of the modules that changed and of those that looked one up that binds other
names now (``session.stored_sites``, ``analysis.liveness.variant_sites``), instead of every module's.
"""

from __future__ import annotations

from collections.abc import Iterable, Set

from deadinit.analysis.reads.external import visited
from deadinit.index.dependencies import Memo, Recorded, paused
from deadinit.index.project_index import ProjectIndex
from deadinit.model.summary import FileSummary

ExportPairs = tuple[tuple[str, str], ...]  # (class, where it is offered: ``mod.__all__``, a package)
# per module in the index's order: its exports, and the numbers of the modules resolving them visited
Exports = tuple[list[ExportPairs], list[tuple[int, ...]]]


def module_exports(index: ProjectIndex, mod: str, s: FileSummary, visits: set[str]) -> ExportPairs:
    """The classes ``mod`` offers, in order; the modules resolving them looked up into ``visits``."""
    out = []
    for name in s.exports:
        qn = index.resolve_visiting(mod, name, visits)
        if qn is not None:
            out.append((qn, f"{mod}.__all__"))
    if s.is_package:
        for imp in s.imports:
            if imp.name is None or imp.local.startswith("_"):
                continue
            qn = index.resolve_visiting(mod, imp.local, visits)
            if qn is not None and index.class_module.get(qn) != mod:
                out.append((qn, f"re-exported by package {mod}"))
    return tuple(out)


def export_parts(index: ProjectIndex, before: Exports | None = None, redone: Set[int] = frozenset()) -> Exports:
    """Every module's exports (``Exports``): those of ``before`` (of a project with the same modules
    in the same order), with the modules numbered ``redone`` found again; without ``before``, all."""
    modules = list(index.modules.data.items())
    numbers = {m: k for k, (m, _) in enumerate(modules)}
    empty: tuple[()] = ()
    pairs: list[ExportPairs] = list(before[0]) if before is not None else [empty] * len(modules)
    visits: list[tuple[int, ...]] = list(before[1]) if before is not None else [empty] * len(modules)
    with paused():
        for k in sorted(redone) if before is not None else range(len(modules)):
            seen: set[str] = set()
            mod, s = modules[k]
            pairs[k] = module_exports(index, mod, s, seen)
            visits[k] = visited(seen, numbers, k)
    return pairs, visits


def exported_from(parts: Iterable[ExportPairs]) -> dict[str, str]:
    """class -> where it is offered first, in module order."""
    out: dict[str, str] = {}
    for pairs in parts:
        for qn, where in pairs:
            out.setdefault(qn, where)
    return out


class ProjectExports:
    """The exported classes of one index, as a recorded table (``Analyzer.exports``), found on first
    use unless a variant's were installed (``install``)."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self._parts: Exports | None = None
        self._table: Recorded[str, str] | None = None
        self._first_below: Memo[str, str | None] = Memo()

    def install(self, parts: Exports) -> None:
        self._parts, self._table, self._first_below = parts, None, Memo()

    def parts(self) -> Exports:
        if self._parts is None:
            self._parts = export_parts(self.index)
        return self._parts

    def table(self) -> Recorded[str, str]:
        if self._table is None:
            self._table = Recorded("exports", exported_from(self.parts()[0]))
        return self._table

    def first_at_or_below(self, cls: str) -> str | None:
        """``cls`` when it is exported, else the first (by name) exported class below it; kept per class."""

        def find() -> str | None:
            table = self.table()
            return next((qn for qn in (cls, *sorted(self.index.all_subclasses(cls))) if qn in table), None)

        return self._first_below.get_or(cls, find)
