"""``deadinit fix --strategy direct-base``: re-base a subclass that reuses little of its parent.

For each class (``--class``, else every class with a DI003 finding) the reuse
table (``deadinit.analysis.reuse``) names the suggested base and the dropped
ancestors.  The rewrite (``rewrite_class``) then:

1. changes the base that named the old parent to the suggested base;
2. replaces ``super().__init__(...)`` by the dropped ancestors' ``__init__``
   statements that build what the class still needs, in order, parameters
   substituted and literal branches folded (``direct_base_inline``), keeping the
   call of the new base's ``__init__`` where the last dropped ancestor made it;
3. copies the helpers the class still reaches and the class attributes it reads;
4. fixes the imports of the class's module (``direct_base_imports``).

Nothing is written when a blocker is found (``direct_base_checks``): isinstance /
issubclass checks against a dropped class, side effects the class needs, names
that cannot be resolved, ``*args/**kwargs`` forwarding, ``super()`` calls into a
dropped class, or more copied lines than ``max_copy_lines``.  A class whose
parent ``__init__`` builds nothing dead is left alone, so a second run changes
nothing.  ``rewrite_class`` is pure (sources in, new source text out).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from deadinit.analysis.reach import method_reads, short
from deadinit.analysis.reuse import Reuse, compute_reuse
from deadinit.fixes.direct_base.source import Sources

STRATEGY = "direct-base"
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

    def __init__(self, index, analyzer, cls: str, reuse: Reuse, sources: Sources, self_name: str = "self"):
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

    def method_names(self) -> set:
        names = set()
        for qn in self.mro:
            names |= set(self.index.classes[qn].methods)
        return names

    def method_reads(self, name: str) -> set:
        r = self.index.resolve_method(self.mro, name)
        if r is None:
            return set()
        return set(method_reads(self.index, self.mro, [r], "called").reads)


def plan(result, options) -> object:
    from deadinit.fixes.direct_base.plan import make_plan

    return make_plan(result, options)


def rewrite_class(
    result, cls: str, max_copy_lines: int = DEFAULT_MAX_COPY_LINES, sources: Sources | None = None, force: bool = False
) -> Outcome:
    """Rewrite ``cls`` onto its suggested base; pure: returns the new text of its module."""
    from deadinit.fixes.direct_base.build import build_rewrite

    index, analyzer = result.index, result.analyzer
    out = Outcome(cls)
    if cls not in index.classes:
        out.blockers.append(f"unknown class {cls}")
        return out
    an = analyzer.analyse(cls)
    threshold = getattr(getattr(analyzer, "settings", None), "di003_threshold", 0.25)
    r = compute_reuse(index, analyzer, cls, threshold, an=an)
    out.reuse = r
    if r is None or an is None:
        out.nothing_to_do = f"{short(cls)} runs no ancestor __init__ of the project: nothing to re-base"
        return out
    if not r.dead_allocations and not force:
        out.nothing_to_do = f"nothing that {short(r.parent)}.__init__ builds is dead for {short(cls)}"
        return out
    sources = sources or Sources(index)
    p = ClassPlan(index, analyzer, cls, r, sources)
    build_rewrite(p, an, out, max_copy_lines)
    out.blockers = list(dict.fromkeys(out.blockers + p.blockers))
    return out


def cst_lines(node) -> int:
    return len(cst.Module([]).code_for_node(node).strip("\n").splitlines())
