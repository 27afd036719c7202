"""One line per class the index cannot place in a hierarchy: inheritance cycles (``A(B)``
in one file, ``B(A)`` in another), bases that name the class itself through an alias,
and bases with no consistent C3 order.  ``run_check`` adds them to its errors, so the
user learns why such a class is not analysed instead of meeting silence.
"""

from __future__ import annotations

from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import BaseKind


def hierarchy_problems(index: ProjectIndex) -> list[str]:
    out: list[str] = []
    reported: set[str] = set()
    for qn in sorted(index.classes):
        cls = index.classes[qn]
        path = index.file_of(qn).path
        for b, text in zip(cls.bases, cls.base_text, strict=True):
            mod = index.class_module[qn]
            if (
                b is not None
                and b != "object"
                and index.resolve(mod, b) == qn
                and index.resolve_shadowed(mod, b) in (None, qn)
            ):
                out.append(
                    f"{path}: line {cls.line}: class {cls.name}: base `{text}` is the class itself (through an "
                    "alias or a name bound later); treated as a base outside the project"
                )
        if qn in reported or index.mro(qn) is not None:
            continue
        parents = [b.name for b in index.bases(qn) if b.kind == BaseKind.CLASS]
        if any(index.mro(p) is None and qn not in _cycle(index, p) for p in parents):
            continue  # an ancestor's own line explains it
        cycle = _cycle(index, qn)
        if cycle:
            reported.update(cycle)
            names = " -> ".join(c.rsplit(".", 1)[-1] for c in [*cycle, cycle[0]])
            out.append(f"{path}: line {cls.line}: class {cls.name} inherits from itself ({names}); not analysed")
        else:
            out.append(
                f"{path}: line {cls.line}: class {cls.name}: its bases have no consistent method resolution "
                "order (C3); not analysed"
            )
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
