"""What the summary says the analysis could not see of the project itself: base classes in modules of
the project's packages that were not analysed, and top-level names the project's imports use that
are folders of the project rather than its modules (its modules named otherwise than its code
imports them: ``roots`` fixes that)."""

from __future__ import annotations

import os
from collections.abc import Iterable

from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import BaseKind
from deadinit.model.result import MisnamedPackage, Unanalysed
from deadinit.model.summary import FileSummary


def misnamed_packages(summaries: Iterable[FileSummary], unanalysed: Iterable[Unanalysed]) -> list[MisnamedPackage]:
    """The packages of ``unanalysed`` (imported absolutely for the project's classes' bases and
    calls, installed nowhere) that are folders of the project: its modules are named one level too
    deep (``python.sglang.x`` imported as ``sglang.x``) or too shallow (``core.x`` imported as
    ``pkg.core.x``).  In ``unanalysed``'s order."""
    missing = {u.package: u for u in unanalysed}
    if not missing:
        return []
    folders = _folders_named(list(summaries), set(missing))
    return [MisnamedPackage(p, u.bases, u.calls, folders[p]) for p, u in missing.items() if p in folders]


def _folders_named(summaries: list[FileSummary], wanted: set[str]) -> dict[str, str]:
    """For each name of ``wanted`` that is the folder above a module's top package (named too
    shallow), or the package below a top namespace package (named too deep), the folder that holds
    it: the ``roots`` entry under which it is a top-level package.  Deeper folders are not looked at:
    a subpackage named after the library it wraps (``backends/openai/``) is no misnaming."""
    found: dict[str, str] = {}
    for s in summaries:
        parts = s.module.split(".")
        top = os.path.abspath(s.path)
        for _ in range(len(parts) + (1 if s.is_package else 0)):
            top = os.path.dirname(top)
        top = os.path.join(top, parts[0])  # the folder of the top package
        above = os.path.dirname(top)
        candidates = [(os.path.basename(above), os.path.dirname(above))]
        if len(parts) > 1 and not os.path.isfile(os.path.join(top, "__init__.py")):
            candidates.append((parts[1], top))
        for name, holder in candidates:
            if name in wanted and name not in found:
                found[name] = holder
        if len(found) == len(wanted):
            break
    return found


def outside_bases(index: ProjectIndex) -> list[str]:
    """The bases of the project's classes that name a module of the project's own top-level packages
    that is not analysed (``sglang.srt.x.Parent`` from a lone file of ``sglang``), sorted.  It reads
    the bases of every class, as the class graph does (``session.class_graph`` keeps it with the graph)."""
    tops = {p for p in index.module_prefixes if "." not in p}
    out: set[str] = set()
    for qn in index.classes.data:
        for b in index.bases(qn):
            module = b.name.rpartition(".")[0]
            if b.kind == BaseKind.EXTERNAL and module.partition(".")[0] in tops and module not in index.modules:
                out.add(b.name)
    return sorted(out)
