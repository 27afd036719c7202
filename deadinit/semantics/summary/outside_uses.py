"""What a file's classes take from the packages it imports: per top-level package imported
absolutely, the ``__init__`` calls whose value is assigned (the calls the analysis classifies:
a constructor, a factory, a registry's ``build``) and the base classes named through it.

The installed libraries (``deadinit.installed``) answer for those calls when the package is
installed; when it is not, the counts say how much went unanalysed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from deadinit.model.kinds import AllocKind
from deadinit.model.summary import AllocInfo, FileSummary, OutsideUse


def outside_uses(s: FileSummary) -> tuple[OutsideUse, ...]:
    tops = {i.local: i.module.partition(".")[0] for i in s.imports if i.level == 0 and i.local != "*" and i.module}
    if not tops:
        return ()
    calls: Counter[str] = Counter()
    bases: Counter[str] = Counter()
    for c in s.classes:
        for b in c.bases:
            top = tops.get(b.partition(".")[0]) if b else None
            if top is not None:
                bases[top] += 1
        init = c.methods.get("__init__")
        for st in (init.init_flow or ()) if init is not None else ():
            for callee in _callees(st.alloc, st.call):
                top = tops.get(callee.partition(".")[0])
                if top is not None:
                    calls[top] += 1
    return tuple(OutsideUse(top, calls[top], bases[top]) for top in sorted(calls.keys() | bases.keys()))


def _callees(*allocs: AllocInfo | None) -> Iterator[str]:
    """The callee, as written, of each call an assigned value is made by (one per value)."""
    for a in allocs:
        while a is not None and a.kind == AllocKind.ITEM and a.element is not None:
            a = a.element
        if a is not None and a.callee and not a.callee.startswith("self."):
            yield a.callee
