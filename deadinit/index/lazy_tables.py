"""Tables whose entries are built on first read: per module from its summary, per class from its sites.

A run that resolves names in a few modules (``explain``: one class's hierarchy) reads what
those few import and define; the other summaries keep those fields as pickled bytes
(``model.summary.MODULE_NAMES``).  Each table is a read-only mapping with all its keys, as a
dict built for all of them would be; a whole-table read builds every entry.
"""

from __future__ import annotations

import dataclasses
import hashlib
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from deadinit.model.summary import Expr, FileSummary, Import, Returns

K = TypeVar("K")
S = TypeVar("S")
V = TypeVar("V")
_MISSING = object()


class BuiltOnRead(Mapping[K, V], Generic[K, S, V]):
    """key -> ``build(source[key])``, built the first time the key's entry is read and kept; the
    keys (and their order) are ``source``'s."""

    __slots__ = ("_build", "_built", "_source")

    def __init__(self, source: Mapping[K, S], build: Callable[[S], V]) -> None:
        self._source = source
        self._build = build
        self._built: dict[K, V] = {}

    def __getitem__(self, key: K) -> V:
        got = self._built.get(key, _MISSING)
        if got is _MISSING:
            got = self._built[key] = self._build(self._source[key])
        return got  # type: ignore[return-value]

    def get(self, key: K, default: object = None) -> V | object:  # type: ignore[override]
        got = self._built.get(key, _MISSING)
        if got is _MISSING:
            s = self._source.get(key, _MISSING)
            if s is _MISSING:
                return default
            got = self._built[key] = self._build(s)  # type: ignore[arg-type]
        return got

    def __contains__(self, key: object) -> bool:
        return key in self._source

    def __iter__(self) -> Iterator[K]:
        return iter(self._source)

    def __len__(self) -> int:
        return len(self._source)


Function = tuple[str, str, Returns]  # (module, name, what it returns)


class ModuleFunctions(Mapping[str, Function]):
    """qualname (``module.name``) -> ``Function``, for the module-level functions that return an
    allocation (``FileSummary.functions``), in module order: an entry reads its own module only."""

    __slots__ = ("_built", "_modules")

    def __init__(self, modules: Mapping[str, FileSummary]) -> None:
        self._modules = modules
        self._built: dict[str, Function | None] = {}

    def get(self, qualname: str, default: object = None) -> Function | object:  # type: ignore[override]
        got = self._built.get(qualname, _MISSING)
        if got is _MISSING:
            got = self._built[qualname] = self._found(qualname)
        return default if got is None else got

    def _found(self, qualname: str) -> Function | None:
        module, dot, name = qualname.rpartition(".")  # a function's name has no dot
        s = self._modules.get(module) if dot else None
        if s is None:
            return None
        returns = s.functions.get(name)
        return None if returns is None else (module, name, returns)

    def __getitem__(self, qualname: str) -> Function:
        got = self.get(qualname)
        if got is None:
            raise KeyError(qualname)
        return got  # type: ignore[return-value]

    def __contains__(self, qualname: object) -> bool:
        return isinstance(qualname, str) and self.get(qualname) is not None

    def __iter__(self) -> Iterator[str]:
        return (f"{m}.{name}" for m, s in self._modules.items() for name in s.functions)

    def __len__(self) -> int:
        return sum(len(s.functions) for s in self._modules.values())


def constants(s: FileSummary) -> dict[str, Expr]:
    return s.constants


def imports(s: FileSummary) -> dict[str, Import]:
    """The names a module's imports bind (``import *`` aside): local name -> the import."""
    return {i.local: i for i in s.imports if i.local != "*"}


def star_imports(s: FileSummary) -> list[Import]:
    return [i for i in s.imports if i.local == "*"]


def lineless(value: object) -> object:
    """An import without its line: resolving a name reads what it binds, not where."""
    return dataclasses.replace(value, line=0) if isinstance(value, Import) else value


def bound_names(s: FileSummary, import_key: Callable[[Import], object] = lineless) -> tuple[object, ...]:
    """What resolving a name (``index.name_resolution``) reads of a module: its name, whether it
    is a package, its classes (nested ones too) and what its tables bind, each import as
    ``import_key`` gives it (without its line).  Two summaries whose bound names are equal resolve
    every name alike, wherever it is resolved from."""
    return (
        s.module,
        s.is_package,
        [c.qualname for c in s.classes],
        toplevel_classes(s),
        function_names(s),
        {name: import_key(i) for name, i in imports(s).items()},
        [import_key(i) for i in star_imports(s)],
        constants(s),
    )


def bound_digest(s: FileSummary) -> bytes:
    """A digest of ``bound_names(s)``, from the ``repr`` of its values with each import as its
    fields but its line (a summary's values print as they are): equal digests, equal bound names,
    whatever objects the summaries share."""
    return hashlib.blake2b(repr(bound_names(s, _import_key)).encode(), digest_size=16).digest()


_import_key = operator.attrgetter(*(f.name for f in dataclasses.fields(Import) if f.name != "line"))


def toplevel_classes(s: FileSummary) -> dict[str, str]:
    """A module's classes at its top level: name -> qualname."""
    return {c.name: c.qualname for c in s.classes if c.qualname == f"{s.module}.{c.name}"}


def function_names(s: FileSummary) -> dict[str, str]:
    """A module's functions that return allocations or are annotated: name -> qualname."""
    return {name: f"{s.module}.{name}" for name in (*s.functions, *s.return_types)}
