"""The construction sites and exports of a ``check`` after an edit, from the tables the last run stored.

The last run stored, with its construction sites and exports, each module's fingerprint and the
digest of the names it binds (``index.lazy_tables.bound_digest``).  The fingerprints tell which
modules changed, the digests which of those bind other names; the constructions and exports of the
changed modules, and of those whose resolution looked up one that binds other names, are resolved
again (``analysis.liveness.variant_sites``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from deadinit.analysis.liveness.variant_sites import Resolved, redone_in
from deadinit.analysis.reads.exports import Exports
from deadinit.analysis.reads.external import ExternalReads
from deadinit.index.lazy_tables import bound_digest
from deadinit.index.project_index import ProjectIndex
from deadinit.session.analysis_state import StoredTables


def stored_resolved(
    stored: StoredTables | None, index: ProjectIndex, fingerprints: Mapping[str, str]
) -> Resolved | None:
    """The construction sites and exports of ``index`` from the tables a run stored (``stored_tables``):
    None when there are none, they hold other modules or another order, or a summary has no fingerprint."""
    if stored is None or tuple(index.modules.data) != stored.modules:
        return None
    redone, rebound = set(), set()
    for k, s in enumerate(index.modules.data.values()):
        fp = fingerprints.get(s.path)
        if fp is None:
            return None
        if short_digest(fp) != stored.fingerprints[k]:
            redone.add(k)
            if bound_digest(s) != stored.bound[k]:
                rebound.add(k)
    was = Resolved((stored.sites, stored.visits), (stored.exports, stored.export_visits))
    return redone_in(was, index, redone, rebound) if redone else was


def stored_tables(
    inputs: str,
    index: ProjectIndex,
    ext: ExternalReads,
    exports: Exports,
    fingerprints: Mapping[str, str],
    was: StoredTables | None,
) -> StoredTables:
    """What ``stored_resolved`` and ``api.check.index_project`` start from: the subclass table, the
    construction sites (resolved now unless installed), the ``exports`` and each module's digests; a
    module whose fingerprint ``was`` holds keeps its bound-names digest from there."""
    ext.construct_sites()
    modules = tuple(index.modules.data)
    fps = tuple(short_digest(fingerprints[s.path]) for s in index.modules.data.values())
    known: dict[bytes, bytes] = {}
    if was is not None:
        known = dict(zip(was.fingerprints, was.bound, strict=True))
    bound = tuple(known.get(fp) or bound_digest(s) for fp, s in zip(fps, index.modules.data.values(), strict=True))
    subclasses = dict(index.subclasses.data)
    return StoredTables(inputs, subclasses, ext.site_refs, ext.site_visits, *exports, modules, fps, bound)


def short_digest(fingerprint: str) -> bytes:
    return hashlib.blake2b(fingerprint.encode(), digest_size=8).digest()
