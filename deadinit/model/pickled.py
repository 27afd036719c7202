"""A mapping and a list kept as pickled bytes until what they hold is asked for.

A file's attribute reads and its classes' method summaries are most of a summary's size,
and an incremental run that analyses a few classes reads the methods of those few and the
reads of the attributes they allocate: the others stay bytes.  What is known without them
(a mapping's names, a list's length and tally) is kept as it is.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, overload

V = TypeVar("V")


class PickledMapping(Mapping[str, V], Generic[V]):
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


class PickledList(Sequence[V], Generic[V]):
    """A list kept as pickled bytes until an element is asked for, with ``tally``: what its
    owner needs to know of the elements without them (e.g. how many there are of each name)."""

    __slots__ = ("_blob", "_data", "_length", "groups", "tally")

    def __init__(self, length: int, tally: Any, blob: bytes) -> None:
        self._length = length
        self.tally = tally
        self._blob = blob
        self._data: list[V] | None = None
        self.groups: Any = None  # the owner's grouping of the elements, once asked for

    @classmethod
    def of(cls, data: list[V], tally: Any) -> PickledList[V]:
        out: PickledList[V] = cls(len(data), tally, pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
        out._data = data
        return out

    def loaded(self) -> list[V]:
        if self._data is None:
            self._data = pickle.loads(self._blob)
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
        return self._length

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PickledList) and other._blob == self._blob:
            return True
        return isinstance(other, Sequence) and not isinstance(other, str) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.loaded())

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._length, self.tally, self._blob))
