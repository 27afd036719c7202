"""Every ``obj.x`` read of the project by attribute name, built without unpickling the reads.

Each summary tallies its reads by attribute (``model.access.object_read_tally``), so the
table knows which modules read an attribute, and how often, from the tallies alone; a
module's reads of an attribute are unpickled the first time that attribute is asked for.  An
incremental run that analyses a few classes unpickles the reads of their attributes only.
The table is built from the tallies' names (which modules read each attribute); an attribute's
tallies are taken from its modules when it is first asked for.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from deadinit.model.access import Access, group_object_reads, object_read_tally, object_reads, read_line
from deadinit.model.pickled import PickledGroups
from deadinit.model.read_tally import ReadTallies, ReadTally
from deadinit.model.summary import FileSummary

Read = tuple[Access, str]  # the read and the module it is in


class ReadsByAttr(Mapping[str, list[Read]]):
    """attribute -> its reads on an object (not a module), in module order, then source order."""

    def __init__(self, modules: Mapping[str, FileSummary]) -> None:
        self._modules = modules
        self._tallies: list[tuple[str, ReadTallies]] = [
            (mod, object_read_tally(s.accesses)) for mod, s in modules.items()
        ]
        where: dict[str, list[int]] = {}  # attribute -> the numbers (in ``_tallies``) of the modules that read it
        for k, (_, tallies) in enumerate(self._tallies):
            for attr in tallies:
                got = where.get(attr)
                if got is None:
                    where[attr] = [k]
                else:
                    got.append(k)
        self._where = where
        self._places: dict[str, list[tuple[str, ReadTally]]] = {}  # attribute -> (module, its reads' tally)
        self._built: dict[str, list[Read]] = {}
        self._plain: dict[str, dict[str, list[Access]]] = {}

    def _reads_in(self, mod: str, attr: str) -> list[Access]:
        accesses = self._modules[mod].accesses
        if isinstance(accesses, PickledGroups):
            return object_reads(accesses, attr)
        groups = self._plain.get(mod)  # a summary never pickled: its reads grouped once
        if groups is None:
            groups = self._plain[mod] = group_object_reads(accesses)
        return groups.get(attr, [])

    def __getitem__(self, attr: str) -> list[Read]:
        got = self._built.get(attr)
        if got is None:
            if attr not in self._where:
                raise KeyError(attr)
            got = self._built[attr] = [(a, mod) for mod, _ in self.places(attr) for a in self._reads_in(mod, attr)]
        return got

    def __contains__(self, attr: object) -> bool:
        return attr in self._where

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def places(self, attr: str) -> list[tuple[str, ReadTally]]:
        """(module, the tally of its reads of ``attr``), in module order; nothing unpickled."""
        got = self._places.get(attr)
        if got is None:
            tallies = self._tallies
            got = self._places[attr] = [(tallies[k][0], tallies[k][1][attr]) for k in self._where.get(attr, ())]
        return got

    def shapes(self, attr: str) -> list[tuple[str, bytes]]:
        """(module, the digest of the shapes of its reads of ``attr``), in module order: ``places``
        without the counts and lines."""
        tallies = self._tallies
        return [(tallies[k][0], tallies[k][1].shapes(attr)) for k in self._where.get(attr, ())]

    def modules(self) -> list[str]:
        """The modules in order: a module's number is its place here."""
        return [mod for mod, _ in self._tallies]

    def readers_weight(self, attr: str, weights: Sequence[int]) -> tuple[int, int]:
        """The sum of the weights (``weights``, by module number) of the modules that read ``attr``,
        and how many they are: which modules read it, reduced to two numbers without a tally made."""
        readers = self._where.get(attr, ())
        return sum(map(weights.__getitem__, readers)), len(readers)

    def line_at(self, attr: str, i: int) -> tuple[str, int] | None:
        """The module and line of ``self[attr][i]``, from the tallies (None past the end)."""
        for k in self._where.get(attr, ()):
            mod, tallies = self._tallies[k]
            n = tallies.count(attr)
            if i < n:
                return mod, read_line(tallies[attr], i)
            i -= n
        return None
