"""Positions in the source text for the ``ast`` adapter.

CPython's ``ast`` gives UTF-8 byte columns and leaves some names without a position
(``import a.b``, ``except E as name``, the ``**`` of a dict item); libcst, whose
positions the syntax tree uses, gives character columns and locates them all.
``SourceText`` converts the first and finds the second in the text.
"""

from __future__ import annotations

import ast
import bisect
import re
from functools import cached_property
from itertools import accumulate

from deadinit.semantics import syntax as sx

_NEWLINE = re.compile(r"\r\n|\r|\n")
_SPACE = re.compile(r"(?:[ \t\f]|\\\r?\n)*")


class SourceText:
    """The decoded source of a module: CPython's UTF-8 byte columns as characters, and
    the positions of names and tokens CPython's tree does not locate."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n") if "\r" not in text else _NEWLINE.split(text)
        self._utf8: dict[int, bytes] = {}

    @cached_property
    def wide_lines(self) -> frozenset[int]:
        """The lines (1-based) where a UTF-8 byte column may differ from the character column."""
        return frozenset([i for i, s in enumerate(self.lines, 1) if not s.isascii()])

    def col(self, line: int, byte_col: int) -> int:
        s = self.lines[line - 1]
        if s.isascii():
            return byte_col
        b = self._utf8.get(line)
        if b is None:
            b = self._utf8[line] = s.encode("utf-8")
        return len(b[:byte_col].decode("utf-8", "replace"))

    def segment(self, node: ast.AST) -> str:
        l1, l2 = node.lineno, node.end_lineno  # type: ignore[attr-defined]
        c1 = self.col(l1, node.col_offset)
        c2 = self.col(l2, node.end_col_offset)  # type: ignore[attr-defined]
        if l1 == l2:
            return self.lines[l1 - 1][c1:c2]
        return "\n".join([self.lines[l1 - 1][c1:], *self.lines[l1 : l2 - 1], self.lines[l2 - 1][:c2]])

    def char(self, line: int, col: int) -> str:
        s = self.lines[line - 1]
        return s[col] if col < len(s) else ""

    # -- positions of names CPython does not locate ------------------------------
    def after(self, line: int, byte_col: int, pattern: str) -> tuple[int, int]:
        """(line, char column) just after ``pattern`` matched at a position."""
        offset = self.offset(line, self.col(line, byte_col))
        m = re.compile(pattern).match(self.text, offset)
        return self.position(m.end() if m else offset)

    def before(self, line: int, byte_col: int, token: str, async_: bool = False) -> tuple[int, int]:
        """(line, char column) of the last ``token`` before a position (``async for`` for comprehensions)."""
        offset = self.offset(line, self.col(line, byte_col))
        k = self.text.rfind(token, 0, offset)
        if async_:
            a = self.text.rfind("async", 0, k)
            k = a if a >= 0 else k
        return self.position(k if k >= 0 else offset)

    def name_after(self, line: int, byte_col: int, name: str, keyword: str) -> sx.Name:
        """The ``name`` that follows ``keyword`` after a position (``except E as name``)."""
        offset = self.offset(line, self.col(line, byte_col))
        m = re.compile(keyword + r"(?:\s|\\\r?\n)*(" + re.escape(name) + r")\b").search(self.text, offset)
        pos = self.position(m.start(1)) if m else (line, self.col(line, byte_col))
        return sx.Name(pos[0], pos[1], pos[0], name)

    def dotted_at(self, dotted: str, line: int, col: int, chars: bool = False) -> sx.Expr:
        """The ``Name``/``Attribute`` chain of a module name written at (line, col)."""
        start_col = col if chars else self.col(line, col)
        if self.lines[line - 1].startswith(dotted, start_col):  # written without spaces: all on this line
            first, *rest = dotted.split(".")
            chain: sx.Expr = sx.Name(line, start_col, line, first)
            for part in rest:
                chain = sx.Attribute(line, start_col, line, chain, part)
            return chain
        offset = self.offset(line, start_col)
        text = self.text
        parts = dotted.split(".")
        node: sx.Expr | None = None
        start = self.position(offset)
        for i, part in enumerate(parts):
            if i:
                m = _SPACE.match(text, offset)
                offset = m.end() + 1 if m else offset + 1  # the dot
                m = _SPACE.match(text, offset)
                offset = m.end() if m else offset
            end_pos = self.position(offset + len(part))
            node = (
                sx.Name(*self.position(offset), end_pos[0], part)
                if node is None
                else sx.Attribute(start[0], start[1], end_pos[0], node, part)
            )
            offset += len(part)
        assert node is not None
        return node

    @cached_property
    def _line_starts(self) -> list[int]:
        """The offset in the text where each line starts."""
        if "\r" not in self.text:  # every newline one character: a line starts one past the previous one
            return list(accumulate(map((1).__add__, map(len, self.lines[:-1])), initial=0))
        return [0, *(m.end() for m in _NEWLINE.finditer(self.text))]

    def offset(self, line: int, col: int) -> int:
        return self._line_starts[line - 1] + col

    def position(self, offset: int) -> tuple[int, int]:
        starts = self._line_starts
        i = bisect.bisect_right(starts, offset)
        return i, offset - starts[i - 1]
