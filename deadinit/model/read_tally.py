"""What a summary knows of its reads of each attribute without unpickling them: a tally.

Per attribute of an object a file reads: how many reads, a digest of what they are
(``model.access.read_shape``) and their lines (``array('I')`` bytes, in source order).
A summary tallies ~25 attributes (sglang's 4,719 summaries ~120,000): a file's tallies are
kept as the attributes' names and three byte strings (the counts, the digests and the lines,
each in the names' order), so that unpickling them builds a few objects per file, not a
tuple and two byte strings per attribute; an attribute's tally is made when it is read.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping
from itertools import accumulate
from typing import Any

ReadTally = tuple[int, bytes, bytes]  # how many reads, the digest of their shapes, their lines
DIGEST_SIZE = 8  # bytes of a digest of shapes
_LINE = array("I").itemsize


class ReadTallies(Mapping[str, ReadTally]):
    """attribute -> its ``ReadTally``, in the order the attributes were tallied."""

    __slots__ = ("_array", "_counts", "_digests", "_lines", "_names", "_numbers", "_starts")

    def __init__(self, names: tuple[str, ...], counts: bytes, digests: bytes, lines: bytes) -> None:
        self._names = names
        self._counts = counts  # ``array('I')`` bytes: per attribute, how many reads
        self._digests = digests  # ``DIGEST_SIZE`` bytes per attribute
        self._lines = lines  # every attribute's lines, one after the other
        self._numbers: dict[str, int] | None = None
        self._starts: array[int] | None = None  # where each attribute's lines start (in lines), then the end
        self._array: array[int] | None = None  # the counts

    @classmethod
    def of(cls, tallies: Iterable[tuple[str, ReadTally]]) -> ReadTallies:
        names, counts, digests, lines = [], array("I"), [], []
        for attr, (n, digest, at) in tallies:
            if len(digest) != DIGEST_SIZE or len(at) != n * _LINE:
                raise ValueError(f"malformed tally of {attr!r}")
            names.append(attr)
            counts.append(n)
            digests.append(digest)
            lines.append(at)
        return cls(tuple(names), counts.tobytes(), b"".join(digests), b"".join(lines))

    def _numbered(self) -> dict[str, int]:
        if self._numbers is None:
            self._numbers = dict(zip(self._names, range(len(self._names)), strict=True))
        return self._numbers

    def __getitem__(self, attr: str) -> ReadTally:
        i = self._numbered()[attr]
        if self._starts is None:
            self._starts = array("I", accumulate(self._counts_array(), initial=0))
        start, end = self._starts[i], self._starts[i + 1]
        digest = self._digests[i * DIGEST_SIZE : (i + 1) * DIGEST_SIZE]
        return end - start, digest, self._lines[start * _LINE : end * _LINE]

    def shapes(self, attr: str) -> bytes:
        """The digest of the shapes of the reads of ``attr`` (``self[attr][1]``), without slicing their lines."""
        i = self._numbered()[attr]
        return self._digests[i * DIGEST_SIZE : (i + 1) * DIGEST_SIZE]

    def count(self, attr: str) -> int:
        """How many reads of ``attr`` (``self[attr][0]``), without slicing its digest and lines."""
        return self._counts_array()[self._numbered()[attr]]

    def _counts_array(self) -> array[int]:
        if self._array is None:
            self._array = array("I", self._counts)
        return self._array

    def __contains__(self, attr: object) -> bool:
        return attr in self._numbered()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadTallies, (self._names, self._counts, self._digests, self._lines))
