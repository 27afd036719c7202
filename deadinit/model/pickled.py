"""A mapping and a list kept as pickled bytes until what they hold is asked for.

A file's attribute reads and its classes' method summaries are most of a summary's size,
and an incremental run that analyses a few classes reads the methods of those few and the
reads of the attributes they allocate: the others stay bytes.  What is known without them
(a mapping's names, a list's groups and tally) is kept as it is.
"""

from __future__ import annotations

import functools
import pickle
from array import array
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, overload

V = TypeVar("V")


class PickledMapping(Mapping[str, V], Generic[V]):
    """A mapping kept as one pickled blob until a value is asked for; its names are kept as they are."""

    __slots__ = ("_blob", "_data", "_names")

    def __init__(self, names: tuple[str, ...], blob: bytes) -> None:
        self._names = names
        self._blob = blob
        self._data: dict[str, V] | None = None

    @classmethod
    def of(cls, data: Mapping[str, V]) -> PickledMapping[V]:
        if isinstance(data, PickledMapping):
            return data
        out: PickledMapping[V] = cls(tuple(data), pickle.dumps(dict(data), protocol=pickle.HIGHEST_PROTOCOL))
        out._data = dict(data)
        return out

    def _loaded(self) -> dict[str, V]:
        if self._data is None:
            self._data = pickle.loads(self._blob)
        return self._data

    def __getitem__(self, name: str) -> V:
        return self._loaded()[name]

    def get(self, name: str, default: Any = None) -> Any:
        """``Mapping.get`` without an exception for a missing name, and without unpickling for one."""
        data = self._data
        if data is None:
            if name not in self._names:
                return default
            data = self._loaded()
        return data.get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PickledMapping) and other._blob == self._blob:
            return True
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._loaded())

    def __reduce__(self) -> tuple[Any, ...]:
        return (PickledMapping, (self._names, self._blob))


class PickledGroups(Sequence[V], Generic[V]):
    """A list kept as one pickled blob per group of its elements (and one for the elements of no
    group), so that one group is unpickled alone; the whole list comes back in its order.
    ``tally``: what the owner needs to know of each group without its elements."""

    __slots__ = ("_blobs", "_data", "_groups", "_names", "_numbers", "_order", "tally")

    def __init__(self, tally: Any, names: tuple[str, ...], blobs: tuple[bytes, ...], order: bytes) -> None:
        self.tally = tally
        self._names = names  # group i is names[i]; blobs[-1] holds the elements of no group
        self._blobs = blobs
        self._order = order  # per element, its group's number (``array('I')``)
        self._data: list[V] | None = None
        self._groups: dict[str, list[V]] = {}
        self._numbers: dict[str, int] | None = None

    @classmethod
    def of(cls, data: list[V], groups: dict[str, list[V]], rest: list[V], tally: Any) -> PickledGroups[V]:
        """``groups`` and ``rest`` split ``data``, each in its order; ``groups`` keeps its names' order."""
        names = tuple(groups)
        number = {id(x): i for i, name in enumerate(names) for x in groups[name]}
        order = array("I", [number.get(id(x), len(names)) for x in data]).tobytes()
        dump = functools.partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL)
        out: PickledGroups[V] = cls(tally, names, (*map(dump, groups.values()), dump(rest)), order)
        out._data = data
        out._groups = dict(groups)
        return out

    def group(self, name: str) -> list[V]:
        """The elements of the group ``name``, in order (empty when there is none)."""
        got = self._groups.get(name)
        if got is None:
            if self._numbers is None:
                self._numbers = {name: i for i, name in enumerate(self._names)}
            i = self._numbers.get(name)
            if i is None:
                return []
            got = self._groups[name] = pickle.loads(self._blobs[i])
        return got

    def loaded(self) -> list[V]:
        if self._data is None:
            parts = [iter(self.group(name)) for name in self._names]
            parts.append(iter(pickle.loads(self._blobs[-1])))
            self._data = [next(parts[i]) for i in array("I", self._order)]
        return self._data

    @overload
    def __getitem__(self, i: int) -> V: ...
    @overload
    def __getitem__(self, i: slice) -> list[V]: ...
    def __getitem__(self, i: int | slice) -> V | list[V]:
        return self.loaded()[i]

    def __iter__(self) -> Iterator[V]:
        return iter(self.loaded())

    def __len__(self) -> int:
        return len(self._order) // array("I").itemsize

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, str) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.loaded())

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.tally, self._names, self._blobs, self._order))


LAZY_BLOB = "_pickled_fields"  # the key, in an object's ``__dict__``, of its lazy fields' blob


def lazy_fields(obj: object, state: dict[str, Any], names: tuple[str, ...], key: str = LAZY_BLOB) -> dict[str, Any]:
    """``state`` (``obj``'s pickled ``__dict__``) with the fields ``names`` as one blob under
    ``key``, kept on ``obj`` too (pickling it again reuses the bytes); an object whose fields
    came from a blob keeps that blob.  The class reads them back with ``unpickled_on_first_read``
    (an object may keep several such groups of fields, each under its own key)."""
    blob = state.get(key)
    if blob is None:
        fields = {n: _InOrder(v) if type(v) in (set, frozenset) else v for n, v in ((n, state[n]) for n in names)}
        blob = pickle.dumps(fields, protocol=pickle.HIGHEST_PROTOCOL)
        obj.__dict__[key] = blob
    for n in names:
        state.pop(n, None)
    state[key] = blob
    return state


class _InOrder:
    """A set field as its elements in one order: a set of strings iterates in the order that string
    hashing (randomised per process) decides, and equal fields must pickle to equal bytes in every
    process (the incremental analysis's digests hash a class's pickle).  Unpickles as the set."""

    __slots__ = ("value",)

    def __init__(self, value: set[Any] | frozenset[Any]) -> None:
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self.value), (sorted(self.value, key=repr),)


def unpickled_on_first_read(cls: type, names: tuple[str, ...], key: str = LAZY_BLOB) -> None:
    """Make the fields ``names`` of ``cls`` (a dataclass; each with a ``default_factory``, so
    no class attribute of its name) read an unpickled object's blob (``lazy_fields``, the same
    ``key``) on first read.  A descriptor on the class, which an instance's own value hides:
    reading a field of an object that has it costs nothing more, and unpickling an object looks
    for no ``__setstate__`` through a ``__getattr__`` (a Python call per object)."""
    for name in names:
        if name in cls.__dict__:
            raise TypeError(f"{cls.__name__}.{name} has a class attribute")
        setattr(cls, name, _LazyField(name, key))


class _LazyField:
    """A non-data descriptor: the field ``name`` of an object whose lazy fields are still a blob (``key``)."""

    __slots__ = ("key", "name")

    def __init__(self, name: str, key: str) -> None:
        self.name = name
        self.key = key

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        d = obj.__dict__
        if self.name not in d and self.key in d:
            d.update(pickle.loads(d[self.key]))
        try:
            return d[self.name]
        except KeyError:
            raise AttributeError(self.name) from None
