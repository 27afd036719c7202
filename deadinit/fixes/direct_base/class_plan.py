"""The records of one direct-base rewrite: what is planned for a class (``ClassPlan``) and what
came of it (``Outcome``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from deadinit.analysis.analyzer import Analyzer
from deadinit.analysis.reads.reach import method_reads
from deadinit.analysis.reuse import Reuse
from deadinit.fixes.direct_base.source import ModuleSources
from deadinit.index.project_index import ProjectIndex

DEFAULT_MAX_COPY_LINES = 400


@dataclass
class Outcome:
    cls: str
    reuse: Reuse | None = None
    path: str = ""
    old: str = ""
    new: str = ""
    blockers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    nothing_to_do: str = ""  # reason when the class is left alone on purpose
    kept_attrs: list[str] = field(default_factory=list)
    dropped_attrs: list[str] = field(default_factory=list)
    copied_methods: list[tuple[str, int]] = field(default_factory=list)
    copied_class_attrs: list[str] = field(default_factory=list)
    dropped_effects: list[str] = field(default_factory=list)
    copied_lines: int = 0
    new_bases: list[str] = field(default_factory=list)
    removed_bases: list[str] = field(default_factory=list)
    regions: list[tuple[int, int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.blockers and not self.nothing_to_do and self.new != self.old


class ClassPlan:
    """What the inliner and the checks need to know about one class being re-based."""

    def __init__(
        self,
        index: ProjectIndex,
        analyzer: Analyzer,
        cls: str,
        reuse: Reuse,
        sources: ModuleSources,
        self_name: str = "self",
    ) -> None:
        self.index = index
        self.analyzer = analyzer
        self.cls = cls
        self.reuse = reuse
        self.dropped = list(reuse.dropped)
        self.mro = index.mro(cls) or [cls]
        self.sources = sources
        self.self_name = self_name
        self.blockers: list[str] = []
        self.new_mro = [cls] + [q for q in self.mro[1:] if q not in self.dropped]

    def block(self, reason: str) -> None:
        if reason not in self.blockers:
            self.blockers.append(reason)

    def init_target(self, owner: str, target: str) -> str | None:
        """Class whose ``__init__`` a ``super().__init__`` / ``P.__init__(self)`` in ``owner`` runs."""
        if target == "super":
            r = self.index.resolve_method(self.mro, "__init__", after=owner)
        else:
            qn = self.index.resolve(self.index.class_module[owner], target)
            if qn is None or qn not in self.mro:
                return None
            r = self.index.resolve_method(self.mro[self.mro.index(qn) :], "__init__")
        return r[0] if r else None

    def method_names(self) -> set[str]:
        names: set[str] = set()
        for qn in self.mro:
            names |= set(self.index.classes[qn].methods)
        return names

    def method_reads(self, name: str) -> set[str]:
        r = self.index.resolve_method(self.mro, name)
        if r is None:
            return set()
        return set(method_reads(self.index, self.mro, [r], "called").reads)


def cst_lines(node: cst.CSTNode) -> int:
    return len(cst.Module([]).code_for_node(node).strip("\n").splitlines())
