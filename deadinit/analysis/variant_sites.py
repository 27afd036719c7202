"""The construction sites of a variant of a project, from those of the project as it was.

Which class a construction builds is the class its callee resolves to, and resolving a name
reads only the bound names (``index.lazy_tables.bound_names``) of the modules it looks up, which
the sites keep per module (``ExternalReads.site_visits``).  The constructions of a module that did
not change, and whose lookups visited no module that binds other names now, build what they built;
only the others are resolved again (``resited``), instead of every construction of the project.
Two variants use it:

* ``deadinit fix`` re-analyses its plan: the project with a few modules summarised again, in
  memory (``fixes.safety.reanalyse``), from the project's own index (``variant_sites``);
* a ``check`` after an edit, from the tables the last run stored (``rules.stored_sites``).
"""

from __future__ import annotations

from collections.abc import Set

from deadinit.analysis.external import SiteRefs, SiteVisits, module_sites, visited
from deadinit.index.lazy_tables import bound_names
from deadinit.index.project_index import ProjectIndex

Sites = tuple[SiteRefs, SiteVisits]  # what ``ExternalReads.install_sites`` takes


def variant_sites(before: ProjectIndex, sites: Sites, after: ProjectIndex, changed: Set[str]) -> Sites | None:
    """The construction sites of ``after`` (``ExternalReads.site_refs``: what ``construct_sites``
    gives, in its order, and ``site_visits``), which is ``before`` with the modules ``changed``
    summarised again, from ``before``'s complete ``sites``.  None when the two indexes do not hold
    the same modules in the same order."""
    modules = list(after.modules.data)
    if modules != list(before.modules.data):
        return None
    old, new = before.modules.data, after.modules.data
    numbers = {m: k for k, m in enumerate(modules)}
    rebound = {numbers[m] for m in changed if bound_names(old[m]) != bound_names(new[m])}
    return resited(sites, after, {numbers[m] for m in changed} | visitors(sites[1], rebound))


def visitors(visits: SiteVisits, modules: Set[int]) -> set[int]:
    """The modules whose constructions' resolution looked up one of ``modules``."""
    if not modules:
        return set()
    return {k for k, seen in enumerate(visits) if not modules.isdisjoint(seen)}


def resited(sites: Sites, after: ProjectIndex, redone: Set[int]) -> Sites:
    """``sites`` with the constructions of the modules numbered ``redone`` in ``after`` resolved
    again, in ``construct_sites``' order."""
    refs, visits = sites
    modules = list(after.modules.data)
    numbers = {m: k for k, m in enumerate(modules)}
    out: dict[str, list[tuple[int, int, int]]] = {}
    for qn, places in refs.items():
        kept = [p for p in places if p[0] not in redone]
        if kept:
            out[qn] = kept
    now = list(visits)
    for k in sorted(redone):
        constructs = after.modules.data[modules[k]].constructs
        built, seen = module_sites(after, modules[k], constructs)
        for i, qn in built:
            out.setdefault(qn, []).append((k, i, constructs[i].line))
        now[k] = visited(seen, numbers, k)
    for places in out.values():
        places.sort()  # in module order, then the module's
    return dict(sorted(out.items(), key=lambda item: item[1][0])), now  # each class where its first site is
