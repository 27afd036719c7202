"""The digest of each recorded table entry (``deadinit.index.dependencies``), to tell which changed.

A class's analysis recorded keys ``(kind, entry)``; the incremental run compares each key's
digest now with the one stored: an entry whose digest changed (added or removed included)
makes every class that read it dirty.  A digest is a small comparable value built from
the entry's value, where summaries are named by their module's fingerprint (a hash of
the whole summary): an entry derived from a module that did not change keeps its digest.
A whole-table read (``ALL``) has no digest: it is always changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Mapping

from deadinit.analysis.liveness import Analyzer
from deadinit.index.dependencies import ALL, Key
from deadinit.index.project_index import ProjectIndex

Digest = Hashable


def _hashed(value: object) -> str:
    return hashlib.blake2b(repr(value).encode(), digest_size=12).hexdigest()


class TableDigests:
    """Digests of the entries of one run's tables; ``fingerprints``: module -> summary fingerprint."""

    def __init__(self, index: ProjectIndex, analyzer: Analyzer, fingerprints: Mapping[str, str]) -> None:
        self.index = index
        self.analyzer = analyzer
        self.fps = fingerprints
        self._class_origins: dict[str, list[tuple[str, str]]] | None = None
        self._path_module: dict[str, str] | None = None
        self._kinds: dict[str, Callable[[Hashable], Digest]] = {
            "module": self.fps.get,
            "class": self._class,
            "function": self._function,
            "subclasses": lambda qn: tuple(self.index.subclasses.data.get(qn, ())),  # type: ignore[arg-type]
            "prefix": lambda name: name in self.index.module_prefixes,
            "attr": self._attr,
            "sites": self._sites,
            "sites_at": lambda loc: tuple(sorted(self.analyzer.sites_at.data.get(loc, ()))),  # type: ignore[arg-type]
            "exports": lambda qn: self.analyzer.exports().data.get(qn),  # type: ignore[arg-type]
            "env": lambda name: repr(self.analyzer.sizes.values.env_defaults.data.get(name)),  # type: ignore[arg-type]
        }

    def changed(self, key: Key, stored: Digest) -> bool:
        """Whether ``key``'s entry differs from the one whose digest was ``stored``."""
        return key[1] == ALL or key[0] not in self._kinds or self.digest(key) != stored

    def digest(self, key: Key) -> Digest:
        kind, entry = key
        if entry == ALL or kind not in self._kinds:
            return None
        return self._kinds[kind](entry)

    def _class(self, qn: Hashable) -> Digest:
        if self._class_origins is None:
            self._class_origins = {}
            for m, s in self.index.modules.data.items():
                for c in s.classes:
                    self._class_origins.setdefault(c.qualname, []).append((m, self.fps[m]))
        return tuple(self._class_origins.get(qn, ()))  # type: ignore[call-overload]

    def _function(self, qn: Hashable) -> Digest:
        f = self.index.functions.data.get(qn)  # type: ignore[call-overload]
        return (f[0], self.fps[f[0]]) if f is not None else None

    def _attr(self, name: Hashable) -> Digest:
        entries = self.analyzer.ext.by_attr.data.get(name, ())  # type: ignore[call-overload]
        return _hashed([(mod, self.fps[mod]) for _, mod in entries])

    def _sites(self, qn: Hashable) -> Digest:
        if self._path_module is None:
            self._path_module = {s.path: m for m, s in self.index.modules.data.items()}
        sites = self.analyzer.sites.data.get(qn, ())  # type: ignore[call-overload]
        return _hashed([(path, line, self.fps[self._path_module[path]]) for path, line in sites])
