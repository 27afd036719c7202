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
from deadinit.model.kinds import BaseKind


@dataclass(frozen=True)
class HierarchyProblem:
    cls: str  # qualified name
    what: str  # "self-base", "cycle" or "no-c3"
    detail: str = ""  # the base as written ("self-base"); the cycle's class names ("cycle")


def hierarchy_problems(index: ProjectIndex, only: set[str] | None = None) -> list[HierarchyProblem]:
    """The problems of every class, or of the classes ``only`` names."""
    out: list[HierarchyProblem] = []
    reported: set[str] = set()
    for qn in sorted(index.class_bases.data if only is None else only):
        bases, texts = index.class_bases[qn]
        mod = index.class_module[qn]
        for b, text in zip(bases, texts, strict=True):
            if (
                b is not None
                and b != "object"
                and index.resolve(mod, b) == qn
                and index.resolve_shadowed(mod, b) in (None, qn)
            ):
                out.append(HierarchyProblem(qn, "self-base", text))
        if qn in reported or index.mro(qn) is not None:
            continue
        parents = [b.name for b in index.bases(qn) if b.kind == BaseKind.CLASS]
        if any(index.mro(p) is None and qn not in _cycle(index, p) for p in parents):
            continue  # an ancestor's own line explains it
        cycle = _cycle(index, qn)
        if cycle:
            reported.update(cycle)
            names = " -> ".join(c.rsplit(".", 1)[-1] for c in [*cycle, cycle[0]])
            out.append(HierarchyProblem(qn, "cycle", names))
        else:
            out.append(HierarchyProblem(qn, "no-c3"))
    return out


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
        if p.what == "self-base":
            out.append(
                f"{where}: base `{p.detail}` is the class itself (through an alias or a name bound later); "
                "treated as a base outside the project"
            )
        elif p.what == "cycle":
            out.append(f"{where} inherits from itself ({p.detail}); not analysed")
        else:
            out.append(f"{where}: its bases have no consistent method resolution order (C3); not analysed")
    return out


def _cycle(index: ProjectIndex, start: str) -> list[str]:
    """The classes of an inheritance cycle through ``start`` (in order), or []."""
    stack = [(start, [start])]
    seen = {start}
    while stack:
        qn, path = stack.pop()
        for b in index.bases(qn):
            if b.kind != BaseKind.CLASS:
                continue
            if b.name == start:
                return path
            if b.name not in seen:
                seen.add(b.name)
                stack.append((b.name, [*path, b.name]))
    return []
