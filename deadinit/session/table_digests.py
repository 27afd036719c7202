"""The digest of each recorded table entry (``deadinit.index.dependencies``), to tell which changed.

A class's analysis recorded keys ``(kind, entry)``; the incremental run compares each key's
digest now with the one stored: an entry whose digest changed (added or removed included)
makes every class that read it dirty.  A digest is a pair:

* coarse: cheap, from the entry's provenance, where a summary is named by its module's
  fingerprint (a hash of the whole summary): an entry derived only from modules that did not
  change keeps it, and is unchanged;
* fine: a hash of the entry's value itself, computed when the coarse one moved (an edit in a
  module that changes other entries of it but not this one); None for the kinds whose coarse
  digest is the value.

A whole-table read (``ALL``) has no digest: it is always changed.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from deadinit.analysis.analyzer import Analyzer
from deadinit.analysis.reads.external import attr_typing
from deadinit.index.dependencies import ALL, INNER, PRESENT, Key
from deadinit.index.lazy_tables import lineless
from deadinit.index.project_index import ProjectIndex
from deadinit.session.analysis_state import Digest, grouped

Table = Callable[[], Mapping[Any, Any]]


def _hashed(value: object) -> str:
    return hashlib.blake2b(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), digest_size=12).hexdigest()


def _by_name(names: Mapping[str, str] | None) -> list[tuple[str, str]] | None:
    """A table of names in the order of its names, not of insertion."""
    return sorted(names.items()) if names is not None else None


def _entry_lookup(table: Table) -> Callable[[Any], Hashable]:
    """The lookup of an entry's value in ``table`` (built when first asked)."""
    return table().get


def _presence_lookup(table: Table) -> Callable[[Any], Hashable]:
    """The lookup of whether ``table`` has an entry (built when first asked)."""
    return table().__contains__


def _inner_digest(table: Table, entry: tuple[Any, Any]) -> str:
    """The digest of the inner entry ``entry[1]`` of ``table``'s entry ``entry[0]``, lines left out."""
    return _hashed(lineless(table().get(entry[0], {}).get(entry[1])))


class TableDigests:
    """Digests of the entries of one run's tables; ``fingerprints``: module -> summary fingerprint."""

    def __init__(self, index: ProjectIndex, analyzer: Analyzer, fingerprints: Mapping[str, str]) -> None:
        self.index = index
        self.analyzer = analyzer
        self.fps = fingerprints
        self._class_origins: dict[str, list[tuple[str, str]]] | None = None
        self._path_module: dict[str, str] | None = None
        self._tokens: list[int] | None = None  # per module number of the reads table (``_attr_origin``)
        per_module = (self.fps.get, None)
        ix, an = index, analyzer
        # kind -> (coarse digest, fine digest or None) of an entry
        self._kinds: dict[str, tuple[Callable[[Any], Hashable], Callable[[Any], Hashable] | None]] = {
            "module": per_module,
            "imports": (self.fps.get, lambda m: _hashed(ix._imports.data.get(m))),
            "stars": (self.fps.get, lambda m: _hashed(ix._stars.data.get(m))),
            # by name: ``ProjectIndex.resolve_shadowed`` puts a name back at the end of its module's table
            "toplevel": (self.fps.get, lambda m: _hashed(_by_name(ix._toplevel.data.get(m)))),
            "functions_in": (self.fps.get, lambda m: _hashed(ix._functions.data.get(m))),
            "constants": (self.fps.get, lambda m: _hashed(ix.constants.data.get(m))),
            "class": (self._class_origin, lambda qn: _hashed(ix.classes.data.get(qn))),
            "function": (self._function_origin, lambda qn: _hashed(ix.functions.data.get(qn))),
            "subclasses": (lambda qn: tuple(ix.subclasses.data.get(qn, ())), None),
            "prefix": (lambda name: name in ix.module_prefixes, None),
            # what is read and how, without where (a line moved); "attr_line": where
            "attr": (self._attr_origin, self._attr_reads),
            "attr_line": (self._read_at, None),
            "sites": (self._sites_origin, lambda qn: _hashed(an.sites.data.get(qn))),
            # who passes its self where, without where the constructions are (lines moved)
            "constructs": (
                self._sites_origin,
                lambda qn: _hashed([(c.in_class, c.self_args) for c in an.ext.construct_sites().data.get(qn, ())]),
            ),
            "exports": (lambda qn: an.exports().data.get(qn), None),
            "env": (lambda name: _hashed(an.sizes.values.env_defaults.data.get(name)), None),
            "class_attr": (self._class_attr_origin, lambda e: _hashed(attr_typing(ix.classes.data.get(e[0]), e[1]))),
            "filled_elsewhere": (lambda attr: attr in an.ext.filled_elsewhere.data, None),
            "state_loads": (lambda _: _hashed(an.loader_proofs().state_loader_calls()), None),
            "constructed_by": (lambda qn: tuple(sorted(an.loader_proofs().constructed_by().data.get(qn, ()))), None),
            "registered": (ix.outside.registered, None),  # the classes registered into a registry object
        }

        # the tables whose entries' existence (PRESENT) or inner entries (INNER) a class may read
        self._tables: dict[str, Table] = {
            "module": lambda: ix.modules.data,
            "class": lambda: ix.classes.data,
            "class_module": lambda: ix.class_module.data,
            "class_bases": lambda: ix.class_bases.data,
            "path": lambda: ix.paths.data,
            "constants": lambda: ix.constants.data,
            "package": lambda: ix._packages.data,
            "imports": lambda: ix._imports.data,
            "stars": lambda: ix._stars.data,
            "toplevel": lambda: ix._toplevel.data,
            "functions_in": lambda: ix._functions.data,
            "function": lambda: ix.functions.data,
            "subclasses": lambda: ix.subclasses.data,
            "attr": lambda: an.ext.by_attr.data,
            "sites": lambda: an.sites.data,
            "sites_at": lambda: an.sites_at.data,
            "site_lines": lambda: an.site_lines.data,
            "constructs": lambda: an.ext.construct_sites().data,
            "exports": lambda: an.exports().data,
            "env": lambda: an.sizes.values.env_defaults.data,
            "filled_elsewhere": lambda: an.ext.filled_elsewhere.data,
            "constructed_by": lambda: an.loader_proofs().constructed_by().data,
        }
        # kinds whose coarse digest (and no fine one) is one lookup in a table: the entry's value, or
        # whether there is one (PRESENT); the lookup is taken when a key of the kind is first compared
        # (building the table then), and ``compare_stored`` makes them all at once
        self._lookups: dict[str, Callable[[], Callable[[Any], Hashable]]] = {}
        for base in ("class_module", "class_bases", "package", "path", "sites_at", "site_lines"):
            self._lookups[base] = functools.partial(_entry_lookup, self._tables[base])
        for base, table in self._tables.items():
            self._lookups[base + PRESENT] = functools.partial(_presence_lookup, table)
        for kind in self._lookups:
            self._kinds[kind] = (functools.partial(self._looked_up, kind), None)
        self._taken: dict[str, Callable[[Any], Hashable] | None] = {}
        # kinds whose coarse digest is a module's fingerprint: of the entry, of its first part
        self._by_module = frozenset({"module", "imports", "stars", "toplevel", "functions_in", "constants"})
        self._by_module_inner = frozenset(base + INNER for base in ("imports", "toplevel", "functions_in", "constants"))
        for base in ("imports", "toplevel", "functions_in", "constants"):  # tables of dicts, keyed by module
            table = self._tables[base]
            self._kinds[base + INNER] = (
                lambda entry: self.fps.get(entry[0]),
                functools.partial(_inner_digest, table),
            )

    def compare(self, key: Key, stored: Digest) -> tuple[bool, Digest]:
        """Whether ``key``'s entry changed since its digest was ``stored``, and its digest now."""
        kind, entry = key
        if entry == ALL or kind not in self._kinds:
            return True, (None, None)
        coarse, fine = self._kinds[kind]
        now = coarse(entry)
        if now == stored[0]:
            return False, stored
        value = fine(entry) if fine is not None else None
        return (fine is None or value != stored[1]), (now, value)

    def compare_stored(
        self,
        keys: Sequence[Key],
        stored: Sequence[Digest],
        indexes: Iterable[int],
        now: list[Digest],
        changed: set[int],
        deferred: frozenset[str] = frozenset(),
    ) -> list[int]:
        """``compare`` for the stored ``keys`` at ``indexes``: their digests now into ``now``, the
        moved ones' indexes into ``changed``; those of a ``deferred`` kind are left for later and
        their indexes returned (``compare_groups``, the keys grouped by kind)."""
        return self.compare_groups(keys, stored, grouped(keys, indexes), now, changed, deferred)

    def compare_groups(
        self,
        keys: Sequence[Key],
        stored: Sequence[Digest],
        by_kind: Mapping[str, Sequence[int]],
        now: list[Digest],
        changed: set[int],
        deferred: frozenset[str] = frozenset(),
    ) -> list[int]:
        """``compare_stored`` for the keys of each kind at ``by_kind[kind]``.  Most are named by a module
        whose fingerprint did not move, or their coarse digest is one lookup, and those of a kind are
        tested together (``_bulk``), without a call per key."""
        later: list[int] = []
        for kind, group in by_kind.items():
            ids = list(group)
            if kind in deferred:
                later.extend(ids)
                continue
            entries = [keys[i][1] for i in ids]
            whole: list[int] = []  # whole-table reads: always changed (``compare``)
            if ALL in entries:
                whole = [i for i, entry in zip(ids, entries, strict=True) if entry == ALL]
                ids = [i for i, entry in zip(ids, entries, strict=True) if entry != ALL]
                entries = [entry for entry in entries if entry != ALL]
            for i in [*whole, *self._bulk(kind, entries, ids, stored, now, changed)]:
                moved, now[i] = self.compare(keys[i], stored[i])
                if moved:
                    changed.add(i)
        return later

    def _bulk(
        self,
        kind: str,
        entries: list[Any],
        ids: list[int],
        stored: Sequence[Digest],
        now: list[Digest],
        changed: set[int],
    ) -> list[int]:
        """The keys ``ids`` of one kind (their ``entries``) whose coarse digest is one lookup, compared
        at once: the moved ones into ``now`` and ``changed``; or, for a kind whose coarse digest is a
        module's fingerprint, those whose module's moved, returned for ``compare``.  Any other kind:
        every key returned."""
        lookup = self._lookup(kind)
        if lookup is not None:
            values = list(map(lookup, entries))
            olds = [stored[i][0] for i in ids]
            if values != olds:
                for i, value, old in zip(ids, values, olds, strict=True):
                    if value != old:
                        now[i] = (value, None)
                        changed.add(i)
            return []
        if kind in self._by_module_inner:
            entries = [entry[0] for entry in entries]
        elif kind not in self._by_module:
            return ids
        fps = list(map(self.fps.get, entries))
        return [i for i, fp in zip(ids, fps, strict=True) if fp != stored[i][0]]

    def _lookup(self, kind: str) -> Callable[[Any], Hashable] | None:
        """The lookup that gives a ``kind`` entry's coarse digest, where one does (``_lookups``)."""
        if kind in self._taken:
            return self._taken[kind]
        make = self._lookups.get(kind)
        got = self._taken[kind] = make() if make is not None else None
        return got

    def _looked_up(self, kind: str, entry: object) -> Hashable:
        """The coarse digest of a ``kind`` entry: its lookup's answer (a kind of ``_lookups``)."""
        lookup = self._lookup(kind)
        assert lookup is not None  # every kind of ``_lookups`` makes one
        return lookup(entry)

    def digest(self, key: Key) -> Digest:
        kind, entry = key
        if entry == ALL or kind not in self._kinds:
            return (None, None)
        coarse, fine = self._kinds[kind]
        return (coarse(entry), fine(entry) if fine is not None else None)

    def _class_origin(self, qn: str) -> Hashable:
        if self._class_origins is None:
            self._class_origins = {}
            for m, s in self.index.modules.data.items():
                for c in s.classes:
                    self._class_origins.setdefault(c.qualname, []).append((m, self.fps[m]))
        return tuple(self._class_origins.get(qn, ()))

    def _class_attr_origin(self, entry: tuple[str, str]) -> Hashable:
        return self._class_origin(entry[0])

    def _function_origin(self, qn: str) -> Hashable:
        f = self.index.functions.data.get(qn)
        return (f[0], self.fps[f[0]]) if f is not None else None

    def _attr_origin(self, name: str) -> Hashable:
        """Which modules, as they are, read ``name``: the sum of the reading modules' tokens (a number
        for a module's name and fingerprint, stable across processes) and how many they are.  A
        module's fingerprint tells all it reads, so equal readers are equal reads; modules keep
        their relative order in every run."""
        reads = self.analyzer.ext.reads
        if self._tokens is None:
            self._tokens = [
                int.from_bytes(hashlib.blake2b(f"{m}\0{self.fps[m]}".encode(), digest_size=8).digest(), "little")
                for m in reads.modules()
            ]
        total, readers = reads.readers_weight(name, self._tokens)
        return (total & 0xFFFFFFFFFFFFFFFF, readers)

    def _read_at(self, entry: tuple[str, int]) -> Hashable:
        """Where the ``i``-th read of an attribute is (its module and line); which read is ``i``-th
        changes only with the reads themselves (the ``attr`` entry)."""
        name, i = entry
        return self.analyzer.ext.reads.line_at(name, i)

    def _attr_reads(self, name: str) -> Hashable:
        """What the reads of ``name`` are and how they are made, without where (each module's
        tally: ``model.access.read_shape``)."""
        return _hashed(self.analyzer.ext.reads.shapes(name))

    def _sites_origin(self, qn: str) -> Hashable:
        """Which constructions name the class (resolution can move one without its module changing)."""
        if self._path_module is None:
            self._path_module = {s.path: m for m, s in self.index.modules.data.items()}
        paths = self._path_module
        sites = zip(
            self.analyzer.sites.data.get(qn, ()), self.analyzer.ext.construct_sites().data.get(qn, ()), strict=True
        )
        origin = [(path, c.line, c.callee, self.fps[paths[path]]) for (path, _), c in sites]
        return hashlib.blake2b(repr(origin).encode(), digest_size=12).digest()
