"""Which recorded entries a rewrite only moved: equal but for a line offset.

``fix`` re-analyses a plan's rewrite (``session.reanalysis``).  A rewrite inserts or removes lines,
so every entry below it in its file moves: a class summary's lines, a construction site's place, a
read's line.  Its digest moves with it, although what a class's analysis reads of it is the same but
for where.  ``MovedEntries`` tells such a key apart from one whose entry changed: its entry in the
project as it is and in the rewritten one are equal once every line of the first is carried over to
the second by one offset (``Moved``: the lines both files have in common, from a line diff).

A class that read only unchanged or moved entries analyses alike, but for where its findings are;
the incremental run keeps such a class's record only when it has no finding to place
(``session.incremental``).
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Mapping
from typing import Any

from deadinit.analysis.analyzer import Analyzer
from deadinit.analysis.reads.external import attr_typing
from deadinit.index.dependencies import Key
from deadinit.index.project_index import ProjectIndex
from deadinit.model.fix import FilePlan
from deadinit.model.summary import MethodSummary

# the fields of the summary's records that hold a line; a method's fields of tuples, the item that does
_LINE_FIELDS = frozenset({"line", "end_line", "skips_unknown_weights"})
_LINE_ITEM: dict[type, dict[str, int]] = {
    MethodSummary: {"reads": 1, "writes": 1, "dynamic": 1, "param_flow": 3, "walks": 1}
}


def line_maps(files: list[FilePlan]) -> dict[str, dict[int, int]]:
    """Per rewritten path: each line of the old text that the new text keeps (outside the replaced
    blocks of a line diff) -> its number in the new text (1-based)."""
    out: dict[str, dict[int, int]] = {}
    for fp in files:
        a, b = fp.old.splitlines(), fp.new.splitlines()
        m: dict[int, int] = {}
        for i, j, n in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
            m.update((i + k + 1, j + k + 1) for k in range(n))
        out[fp.path] = m
    return out


class Moved:
    """Structural equality of an old value and a new one but for their lines, each line of the old
    carried by ``lines`` and every line moved by the same offset (an offset is learnt on the first)."""

    def __init__(self, lines: Mapping[int, int]) -> None:
        self.lines = lines
        self.offset: int | None = None

    def line(self, old: object, new: object) -> bool:
        if old is None or new is None:
            return old is new
        if not isinstance(old, int) or not isinstance(new, int):
            return False
        if self.lines.get(old) != new:
            return False
        if self.offset is None:
            self.offset = new - old
        return new - old == self.offset

    def equal(self, old: object, new: object) -> bool:
        if type(old) is not type(new):
            return False
        if dataclasses.is_dataclass(old) and not isinstance(old, type):
            items = _LINE_ITEM.get(type(old), {})
            return all(
                self._field(f.name, getattr(old, f.name), getattr(new, f.name), items.get(f.name))
                for f in dataclasses.fields(old)
            )
        if isinstance(old, (list, tuple)):
            assert isinstance(new, (list, tuple))  # the same type
            return len(old) == len(new) and all(map(self.equal, old, new))
        if isinstance(old, Mapping):
            assert isinstance(new, Mapping)  # the same type
            return old.keys() == new.keys() and all(self.equal(old[k], new[k]) for k in old)
        return old == new

    def _field(self, name: str, old: Any, new: Any, item: int | None) -> bool:
        if name in _LINE_FIELDS:
            return self.line(old, new)
        if name == "init_lines":
            return (old is None and new is None) or (
                old is not None and new is not None and self.line(old[0], new[0]) and self.line(old[1], new[1])
            )
        if name == "class_attrs":
            return old.keys() == new.keys() and all(self.line(old[k], new[k]) for k in old)
        if item is not None:
            return len(old) == len(new) and all(self._item(item, a, b) for a, b in zip(old, new, strict=True))
        return self.equal(old, new)

    def _item(self, at: int, old: tuple[Any, ...], new: tuple[Any, ...]) -> bool:
        return (
            len(old) == len(new)
            and self.line(old[at], new[at])
            and all(self.equal(a, b) for k, (a, b) in enumerate(zip(old, new, strict=True)) if k != at)
        )


class MovedEntries:
    """Whether a key's entry in the project as it is (``before``, ``was``) and in the rewritten
    project (``index``, ``now``) differ only by where (``moved``); ``lines``: ``line_maps``."""

    def __init__(
        self,
        lines: Mapping[str, Mapping[int, int]],
        before: tuple[ProjectIndex, Analyzer],
        after: tuple[ProjectIndex, Analyzer],
    ) -> None:
        self.lines = lines
        (self.before, self.was), (self.index, self.now) = before, after
        self._judges: dict[str, Callable[[Any], bool]] = {
            "class": self._class,
            "function": self._function,
            "class_attr": self._class_attr,
            "sites_at": self._site,
            "attr_line": self._read_line,
        }

    def moved(self, key: Key) -> bool:
        judge = self._judges.get(key[0])
        return judge is not None and judge(key[1])

    def _path_of(self, module: object) -> str | None:
        s = self.index.modules.data.get(module)  # type: ignore[call-overload]
        old = self.before.modules.data.get(module)  # type: ignore[call-overload]
        return s.path if s is not None and old is not None and s.path == old.path else None

    def _same_but_lines(self, module: object, old: object, new: object) -> bool:
        path = self._path_of(module)
        lines = self.lines.get(path) if path is not None else None
        return lines is not None and old is not None and Moved(lines).equal(old, new)

    def _class(self, qn: str) -> bool:
        module = self.index.class_module.data.get(qn)
        if module is None or module != self.before.class_module.data.get(qn):
            return False
        return self._same_but_lines(module, self.before.classes.data.get(qn), self.index.classes.data.get(qn))

    def _function(self, qn: str) -> bool:
        old, new = self.before.functions.data.get(qn), self.index.functions.data.get(qn)
        return old is not None and new is not None and old[0] == new[0] and self._same_but_lines(old[0], old, new)

    def _class_attr(self, entry: tuple[str, str]) -> bool:
        qn, attr = entry
        module = self.index.class_module.data.get(qn)
        if module is None or module != self.before.class_module.data.get(qn):
            return False
        old, new = self.before.classes.data.get(qn), self.index.classes.data.get(qn)
        return self._same_but_lines(module, attr_typing(old, attr), attr_typing(new, attr))

    def _site(self, entry: tuple[str, int]) -> bool:
        path, line = entry
        lines = self.lines.get(path)
        new = lines.get(line) if lines is not None else None
        return new is not None and self.was.sites_at.data.get(entry) == self.now.sites_at.data.get((path, new))

    def _read_line(self, entry: tuple[str, int]) -> bool:
        old, new = self.was.ext.reads.line_at(*entry), self.now.ext.reads.line_at(*entry)
        if old is None or new is None or old[0] != new[0]:
            return False
        path = self._path_of(old[0])
        lines = self.lines.get(path) if path is not None else None
        return lines is not None and lines.get(old[1]) == new[1]
