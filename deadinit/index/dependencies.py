"""What an analysis read, recorded as it reads it (the incremental analysis's dependencies).

Every project-wide table derived from the summaries (the index's dicts, the analyzer's
construction sites, ``obj.x`` reads by attribute name...) is a ``Recorded`` mapping: a
lookup notes the key ``(table kind, entry key)`` in the innermost active recording, present
or absent (a failed lookup is a dependency too: adding the entry later changes the answer);
iterating a whole table notes ``(kind, ALL)``.  A memo shared across classes is a ``Memo``:
an entry keeps the keys recorded while it was computed and notes them again on every hit,
so a class whose analysis used a memoised answer depends on what that answer read.

Recordings nest: when the innermost one ends, its keys go to the one around it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

ALL = "\0all"  # the entry key of a whole-table iteration
Key = tuple[str, Hashable]

_frames: list[set[Key]] = []


def note(key: Key) -> None:
    """Add ``key`` to the innermost active recording (none: nothing is recorded)."""
    if _frames:
        _frames[-1].add(key)


def replay(keys: frozenset[Key] | set[Key]) -> None:
    if _frames and keys:
        _frames[-1].update(keys)


@contextmanager
def recording() -> Iterator[set[Key]]:
    """Record the keys read inside the block into the set it yields (and into any recording around it)."""
    keys: set[Key] = set()
    _frames.append(keys)
    try:
        yield keys
    finally:
        _frames.pop()
        if _frames:
            _frames[-1].update(keys)


@contextmanager
def paused() -> Iterator[None]:
    """Record nothing inside the block: for building a whole table whose entries are recorded when read."""
    saved = _frames[:]
    _frames.clear()
    try:
        yield
    finally:
        _frames[:] = saved


class Recorded(Mapping[K, V], Generic[K, V]):
    """A read-mostly dict whose reads are recorded as ``(kind, key)``."""

    __slots__ = ("data", "kind")

    def __init__(self, kind: str, data: dict[K, V] | None = None) -> None:
        self.kind = kind
        self.data: dict[K, V] = data if data is not None else {}

    def __getitem__(self, key: K) -> V:
        if _frames:
            _frames[-1].add((self.kind, key))
        return self.data[key]

    def get(self, key: object, default=None):  # type: ignore[no-untyped-def]
        if _frames:
            _frames[-1].add((self.kind, key))
        return self.data.get(key, default)  # type: ignore[arg-type]

    def __contains__(self, key: object) -> bool:
        if _frames:
            _frames[-1].add((self.kind, key))
        return key in self.data

    def __iter__(self) -> Iterator[K]:
        if _frames:
            _frames[-1].add((self.kind, ALL))
        return iter(self.data)

    def __len__(self) -> int:
        if _frames:
            _frames[-1].add((self.kind, ALL))
        return len(self.data)


class Memo(Generic[K, V]):
    """A memo shared across classes: a hit notes again the keys its entry's computation recorded."""

    __slots__ = ("deps", "values")

    def __init__(self) -> None:
        self.values: dict[K, V] = {}
        self.deps: dict[K, frozenset[Key]] = {}

    def __contains__(self, key: K) -> bool:
        return key in self.values

    def __getitem__(self, key: K) -> V:
        if _frames:
            deps = self.deps.get(key)
            if deps:
                _frames[-1].update(deps)
        return self.values[key]

    def __setitem__(self, key: K, value: V) -> None:
        """A provisional entry (a cycle guard) or one whose keys ``computing`` stores."""
        self.values[key] = value

    @contextmanager
    def computing(self, key: K) -> Iterator[None]:
        """Record the computation of ``key``'s entry in the block; the entry keeps those keys."""
        with recording() as keys:
            yield
        self.deps[key] = frozenset(keys)

    def get_or(self, key: K, compute: Callable[[], V]) -> V:
        if key in self.values:
            return self[key]
        with self.computing(key):
            value = compute()
        self.values[key] = value
        return value
