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
PRESENT = "?"  # suffix of a table kind: whether an entry exists
INNER = "."  # suffix of a table kind: one entry of the dict an entry holds
Key = tuple[str, Hashable]


class _Frame(set[Key]):
    """One recording's keys, and the memo entries whose keys it already holds (``replayed``, by
    the identity of their key sets): a memo hit asked for again costs no second set union."""

    __slots__ = ("replayed",)

    def __init__(self) -> None:
        super().__init__()
        self.replayed: set[int] = set()

    def replay(self, keys: frozenset[Key]) -> None:
        if id(keys) not in self.replayed:
            self.replayed.add(id(keys))
            self.update(keys)


_frames: list[_Frame] = []


def note(key: Key) -> None:
    """Add ``key`` to the innermost active recording (none: nothing is recorded)."""
    if _frames:
        _frames[-1].add(key)


@contextmanager
def recording() -> Iterator[set[Key]]:
    """Record the keys read inside the block into the set it yields (and into any recording around it)."""
    keys = _Frame()
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

    def __init__(self, kind: str, data: Mapping[K, V] | None = None) -> None:
        self.kind = kind
        self.data: Mapping[K, V] = data if data is not None else {}

    def __getitem__(self, key: K) -> V:
        if _frames:
            _frames[-1].add((self.kind, key))
        return self.data[key]

    def get(self, key: object, default=None):  # type: ignore[no-untyped-def]
        if _frames:
            _frames[-1].add((self.kind, key))
        return self.data.get(key, default)  # type: ignore[arg-type]

    def __contains__(self, key: object) -> bool:
        """Notes ``(kind + "?", key)``: whether the entry exists, not what it holds."""
        if _frames:
            _frames[-1].add((self.kind + PRESENT, key))
        return key in self.data

    def inner(self, key: K, name: Hashable) -> object:
        """``self[key].get(name)`` for a table of dicts (None when either is missing), noted as
        ``(kind + ".", (key, name))``: the one entry of the inner dict."""
        if _frames:
            _frames[-1].add((self.kind + INNER, (key, name)))
        found = self.data.get(key)
        return found.get(name) if found is not None else None  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[K]:
        if _frames:
            _frames[-1].add((self.kind, ALL))
        return iter(self.data)

    def __len__(self) -> int:
        if _frames:
            _frames[-1].add((self.kind, ALL))
        return len(self.data)


_NEVER = 1 << 30
_depth = [0]  # ``Memo.get_or`` computations in progress, all memos together
_cut = [_NEVER]  # the innermost computation's cycles: those at this depth or deeper read a cut-short entry


class Memo(Generic[K, V]):
    """A memo shared across classes: a hit notes again the keys its entry's computation recorded.

    ``get_or`` answers a cycle (an entry asked for while it is being computed) with the caller's
    ``cycle`` value, and keeps no entry of the cycle (its head included): such an answer depends on
    which entry of the cycle was asked first, so keeping it would make later answers depend on the
    order the classes were analysed in (and an incremental run analyses fewer of them than a full
    one).  Every answer is then the one computed from its own key, whoever asks; an entry that only
    leads into a cycle is kept."""

    __slots__ = ("active", "deps", "values")

    def __init__(self) -> None:
        self.values: dict[K, V] = {}
        self.deps: dict[K, frozenset[Key]] = {}
        self.active: dict[K, int] = {}  # entries being computed -> their depth

    def __contains__(self, key: K) -> bool:
        return key in self.values

    def __getitem__(self, key: K) -> V:
        if _frames:
            deps = self.deps.get(key)
            if deps:
                _frames[-1].replay(deps)  # a memo's key sets live as long as it does: their ids stay theirs
        return self.values[key]

    def __setitem__(self, key: K, value: V) -> None:
        """An entry whose keys ``computing`` recorded."""
        self.values[key] = value

    @contextmanager
    def computing(self, key: K) -> Iterator[None]:
        """Record the computation of ``key``'s entry in the block; the entry keeps those keys."""
        with recording() as keys:
            yield
        self.deps[key] = frozenset(keys)

    def get_or(self, key: K, compute: Callable[[], V], cycle: V | None = None) -> V:
        if key in self.values:
            return self[key]
        at = self.active.get(key)
        if at is not None:  # asked for while being computed: cut short
            _cut[0] = min(_cut[0], at)
            return cycle  # type: ignore[return-value]
        at = self.active[key] = _depth[0]
        _depth[0] += 1
        around, _cut[0] = _cut[0], _NEVER
        try:
            with recording() as keys:
                value = compute()
        finally:
            _depth[0] -= 1
            del self.active[key]
            cut, _cut[0] = _cut[0], min(around, _cut[0])
        if at < cut:  # no cycle inside it reached it or a computation around it
            self.values[key] = value
            self.deps[key] = frozenset(keys)
        return value
