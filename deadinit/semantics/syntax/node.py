"""The base of every syntax node (``deadinit.semantics.syntax``): positions, children,
equality by value."""

from __future__ import annotations


class Node:
    __slots__ = ("col", "end_line", "line")
    kind = "node"

    def __init__(self, line: int, col: int, end_line: int) -> None:
        self.line = line
        self.col = col
        self.end_line = end_line

    def children(self) -> tuple[Node, ...]:
        return ()

    def __repr__(self) -> str:
        fields = ", ".join(f"{s}={getattr(self, s)!r}" for s in type(self).__slots__)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return NotImplemented
        return all(getattr(self, s) == getattr(other, s) for s in _all_slots(type(self)))

    __hash__ = None  # type: ignore[assignment]


def _all_slots(t: type) -> tuple[str, ...]:
    out: list[str] = []
    for k in reversed(t.__mro__):
        out.extend(getattr(k, "__slots__", ()))
    return tuple(out)
