"""The construction sites and exports of a variant of a project, from those of the project as it was.

Which class a construction builds, or an exported name offers, is the class the name resolves to,
and resolving a name reads only the bound names (``index.lazy_tables.bound_names``) of the modules
it looks up, which are kept per module (``ExternalReads.site_visits``, ``analysis.reads.exports``).  The
constructions and exports of a module that did not change, and whose lookups visited no module that
binds other names now, resolve as they did; only the others are resolved again (``redone_in``),
instead of every one of the project.  Two variants use it:

* ``deadinit fix`` re-analyses its plan: the project with a few modules summarised again, in
  memory (``session.reanalysis``), from the project's own index (``variant_resolved``);
* a ``check`` after an edit, from the tables the last run stored (``session.stored_sites``).
"""

from __future__ import annotations

from collections.abc import Set
from typing import NamedTuple

from deadinit.analysis.reads.exports import Exports, export_parts
from deadinit.analysis.reads.external import SiteRefs, SiteVisits, module_sites, visited
from deadinit.index.lazy_tables import bound_names
from deadinit.index.project_index import ProjectIndex

Sites = tuple[SiteRefs, SiteVisits]  # what ``ExternalReads.install_sites`` takes


class Resolved(NamedTuple):
    """What resolving names gave a project, per module with the modules each module's lookups
    visited: its construction sites (complete) and, where known, its exported classes."""

    sites: Sites
    exports: Exports | None = None


def variant_resolved(
    before: ProjectIndex, resolved: Resolved, after: ProjectIndex, changed: Set[str]
) -> Resolved | None:
    """The construction sites (``ExternalReads.site_refs``: what ``construct_sites`` gives, in its
    order, and ``site_visits``) and exports of ``after``, which is ``before`` with the modules
    ``changed`` summarised again, from ``before``'s.  None when the two indexes do not hold the same
    modules in the same order."""
    modules = list(after.modules.data)
    if modules != list(before.modules.data):
        return None
    old, new = before.modules.data, after.modules.data
    numbers = {m: k for k, m in enumerate(modules)}
    rebound = {numbers[m] for m in changed if bound_names(old[m]) != bound_names(new[m])}
    return redone_in(resolved, after, {numbers[m] for m in changed}, rebound)


def redone_in(resolved: Resolved, after: ProjectIndex, changed: Set[int], rebound: Set[int]) -> Resolved:
    """``resolved`` in ``after``, where the modules numbered ``changed`` were summarised again and
    those numbered ``rebound`` bind other names: theirs and those of the modules whose lookups
    visited a rebound one are resolved again."""
    sites = resited(resolved.sites, after, changed | visitors(resolved.sites[1], rebound))
    exports = resolved.exports
    if exports is not None:
        exports = export_parts(after, exports, changed | visitors(exports[1], rebound))
    return Resolved(sites, exports)


def visitors(visits: SiteVisits, modules: Set[int]) -> set[int]:
    """The modules whose resolution (of constructions, of exports) looked up one of ``modules``."""
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
