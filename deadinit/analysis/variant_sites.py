"""The construction sites of a variant of a project, from those of the project as it was.

Which class a construction builds is the class its callee resolves to, and resolving a name
reads only the modules' bound names (``index.lazy_tables.bound_names``).  When each module that
changed binds the names it bound, every name resolves as before: the constructions of the other
modules build what they built, and only the changed modules' constructions are resolved
(``resited``), instead of every construction of the project.  Two variants use it:

* ``deadinit fix`` re-analyses its plan: the project with a few modules summarised again, in
  memory (``fixes.safety.reanalyse``), from the project's own index (``variant_sites``);
* a ``check`` after an edit, from the tables the last run stored (``rules.stored_sites``).
"""

from __future__ import annotations

from collections.abc import Set

from deadinit.analysis.external import SiteRefs
from deadinit.index.lazy_tables import bound_names
from deadinit.index.project_index import ProjectIndex


def variant_sites(before: ProjectIndex, refs: SiteRefs, after: ProjectIndex, changed: Set[str]) -> SiteRefs | None:
    """The construction sites of ``after`` (``ExternalReads.site_refs``: what ``construct_sites``
    gives, in its order), which is ``before`` with the modules ``changed`` summarised again, from
    ``before``'s complete ``refs``.  None when the two indexes do not hold the same modules in the
    same order, or a changed module binds other names."""
    modules = list(after.modules.data)
    if modules != list(before.modules.data):
        return None
    old, new = before.modules.data, after.modules.data
    if any(m not in new or bound_names(old[m]) != bound_names(new[m]) for m in changed):
        return None
    numbers = {m: k for k, m in enumerate(modules)}
    return resited(refs, after, {numbers[m] for m in changed})


def resited(refs: SiteRefs, after: ProjectIndex, redone: Set[int]) -> SiteRefs:
    """``refs`` with the constructions of the modules numbered ``redone`` in ``after`` resolved
    again, in ``construct_sites``' order."""
    modules = list(after.modules.data)
    out: dict[str, list[tuple[int, int, int]]] = {}
    for qn, places in refs.items():
        kept = [p for p in places if p[0] not in redone]
        if kept:
            out[qn] = kept
    for k in sorted(redone):
        mod = modules[k]
        for i, c in enumerate(after.modules.data[mod].constructs):
            built = after.resolve(mod, c.callee)
            if built is not None:
                out.setdefault(built, []).append((k, i, c.line))
    for places in out.values():
        places.sort()  # in module order, then the module's
    return dict(sorted(out.items(), key=lambda item: item[1][0]))  # each class where its first site is
