"""One line per class the index cannot place in a hierarchy: inheritance cycles (``A(B)``
in one file, ``B(A)`` in another), bases that name the class itself through an alias,
and bases with no consistent C3 order.  ``run_check`` adds them to its errors, so the
user learns why such a class is not analysed instead of meeting silence.

``hierarchy_problems`` reads only the class graph (bases as written and what they
resolve to), so an incremental run keeps its answer while none of what it read changed;
``problem_lines`` places each problem (file, line, class name) from the summaries as
they are now.
"""

from __future__ import annotations

from dataclasses import dataclass

from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import BaseKind, StrEnum
from deadinit.model.qualnames import short_name


class ProblemKind(StrEnum):
    SELF_BASE = "self-base"  # a class that names itself as a base
    CYCLE = "cycle"  # bases that lead back to the class
    NO_C3 = "no-c3"  # bases no method resolution order fits


@dataclass(frozen=True)
class HierarchyProblem:
    cls: str  # qualified name
    what: ProblemKind
    detail: str = ""  # the base as written ("self-base"); the cycle's class names ("cycle")


def hierarchy_problems(index: ProjectIndex, only: set[str] | None = None) -> list[HierarchyProblem]:
    """The problems of every class, or of the classes ``only`` names."""
    out: list[HierarchyProblem] = []
    reported: set[str] = set()
    cycles: dict[str, list[str]] = {}
    for qn in sorted(index.class_bases.data if only is None else only):
        bases, texts = index.class_bases[qn]
        mod = index.class_module[qn]
        for b, text in zip(bases, texts, strict=True):
            if b is not None and b != "object" and index.resolve(mod, b) == qn and _names_itself(index, mod, b, qn):
                out.append(HierarchyProblem(qn, ProblemKind.SELF_BASE, text))
        if qn in reported or index.mro(qn) is not None:
            continue
        parents = [b.name for b in index.bases(qn) if b.kind == BaseKind.CLASS]
        if any(index.mro(p) is None and qn not in _cycle(index, p, cycles) for p in parents):
            continue  # an ancestor's own line explains it
        cycle = _cycle(index, qn, cycles)
        if cycle:
            reported.update(cycle)
            out.append(HierarchyProblem(qn, ProblemKind.CYCLE, _names(cycle)))
        else:
            out.append(HierarchyProblem(qn, ProblemKind.NO_C3))
    return out


def _names_itself(index: ProjectIndex, mod: str, base: str, qn: str) -> bool:
    """``base`` names the class ``qn`` itself: without the class's own binding it names ``qn`` (an
    alias) or nothing at all. A name the module imports names what it imports, also when that is
    outside the project (``from lib import X`` then ``class X(X):``)."""
    shadowed = index.resolve_shadowed(mod, base)
    return shadowed == qn or (shadowed is None and index.import_of(mod, base.partition(".")[0]) is None)


def with_ancestors(index: ProjectIndex, qualname: str) -> set[str]:
    """``qualname`` and every project class its bases lead to."""
    out, stack = {qualname}, [qualname]
    while stack:
        for b in index.bases(stack.pop()):
            if b.kind == BaseKind.CLASS and b.name not in out:
                out.add(b.name)
                stack.append(b.name)
    return out


def problem_lines(index: ProjectIndex, problems: list[HierarchyProblem]) -> list[str]:
    out = []
    for p in problems:
        cls = index.classes.data[p.cls]
        where = f"{index.paths.data[index.class_module.data[p.cls]]}: line {cls.line}: class {cls.name}"
        if p.what == ProblemKind.SELF_BASE:
            out.append(
                f"{where}: base `{p.detail}` is the class itself (through an alias or a name bound later); "
                "treated as a base outside the project"
            )
        elif p.what == ProblemKind.CYCLE:
            out.append(f"{where} inherits from itself ({p.detail}); not analysed")
        else:
            out.append(f"{where}: its bases have no consistent method resolution order (C3); not analysed")
    return out


def _cycle(index: ProjectIndex, start: str, known: dict[str, list[str]] | None = None) -> list[str]:
    """The classes of an inheritance cycle through ``start`` (in order), or [].  ``known`` keeps the
    answers found so far: every class of a cycle gets the cycle's list, so a cycle of thousands of
    classes is walked once, not once per class."""
    if known is not None and start in known:
        return known[start]
    parent: dict[str, str] = {}
    stack = [start]
    found: list[str] = []
    while stack and not found:
        qn = stack.pop()
        for b in index.bases(qn):
            if b.kind != BaseKind.CLASS:
                continue
            if b.name == start:
                found = [qn]
                while found[-1] != start:
                    found.append(parent[found[-1]])
                found.reverse()
                break
            if b.name not in parent:
                parent[b.name] = qn
                stack.append(b.name)
    if known is not None:
        if found:
            for i, member in enumerate(found):
                known[member] = [*found[i:], *found[:i]]
        else:
            known[start] = []
    return found


def _names(cycle: list[str], most: int = 8) -> str:
    """``A -> B -> C -> A`` by short names; a long cycle shows its first and last classes and a count."""
    short = [short_name(c) for c in cycle]
    if len(short) > most:
        short = [*short[: most // 2], f"... {len(cycle) - most + 1} more ...", *short[-(most // 2) + 1 :]]
    return " -> ".join([*short, short[0]])
