"""The construction sites of a ``check`` after an edit, from the tables the last run stored.

The last run stored, with its construction sites, each module's fingerprint and the digest of
the names it binds (``index.lazy_tables.bound_digest``).  The fingerprints tell which modules
changed; when each binds what it bound, only their constructions are resolved again
(``analysis.variant_sites.resited``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from deadinit.analysis.external import ExternalReads, SiteRefs
from deadinit.analysis.variant_sites import resited
from deadinit.index.lazy_tables import bound_digest
from deadinit.index.project_index import ProjectIndex
from deadinit.runtime.analysis_state import StoredTables


def stored_sites(stored: StoredTables | None, index: ProjectIndex, fingerprints: Mapping[str, str]) -> SiteRefs | None:
    """The construction sites of ``index`` from the tables a run stored (``stored_tables``): None
    when there are none, they hold other modules or another order, a summary has no fingerprint,
    or a module that changed binds other names."""
    if stored is None or tuple(index.modules.data) != stored.modules:
        return None
    redone = set()
    for k, s in enumerate(index.modules.data.values()):
        fp = fingerprints.get(s.path)
        if fp is None:
            return None
        if short_digest(fp) != stored.fingerprints[k]:
            if bound_digest(s) != stored.bound[k]:
                return None
            redone.add(k)
    return resited(stored.sites, index, redone)


def stored_tables(
    inputs: str, index: ProjectIndex, ext: ExternalReads, fingerprints: Mapping[str, str], was: StoredTables | None
) -> StoredTables:
    """What ``stored_sites`` and ``api.check.index_project`` start from: the subclass table, the
    construction sites (resolved now unless installed) and each module's digests; a module whose
    fingerprint ``was`` holds keeps its bound-names digest from there."""
    ext.construct_sites()
    modules = tuple(index.modules.data)
    fps = tuple(short_digest(fingerprints[s.path]) for s in index.modules.data.values())
    known: dict[bytes, bytes] = {}
    if was is not None:
        known = dict(zip(was.fingerprints, was.bound, strict=True))
    bound = tuple(known.get(fp) or bound_digest(s) for fp, s in zip(fps, index.modules.data.values(), strict=True))
    return StoredTables(inputs, dict(index.subclasses.data), ext.site_refs, modules, fps, bound)


def short_digest(fingerprint: str) -> bytes:
    return hashlib.blake2b(fingerprint.encode(), digest_size=8).digest()
