"""One function of a file parsed alone with libcst: the nodes, positions and code a parse of the whole file gives.

A skip-flag rewrite edits ``__init__`` functions only, a few percent of the lines of the files it
rewrites, and libcst parses ~100 times slower than CPython.  So the function's lines are parsed
alone, as they are, inside a wrapper:

* a block indented by the file's first indentation opens it (``if 1:`` / ``pass``), so libcst takes
  the file's default indent and newline: what a block of the default indent leaves unsaid, and what
  new code gets, are those of the whole file;
* the function sits in the body of a class (it keeps its own indentation).

Positions are shifted to the file's lines, and the rewritten function's lines replace the old ones
in the file's bytes.  A file whose default indent or encoding cannot be known this way (``layout``
None) is parsed whole.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

import libcst as cst

from deadinit.fixes.parsed import ParsedModule, parse_module_exactly
from deadinit.frontends.parse import source_encoding
from deadinit.frontends.source_file import LINE_END

_BARE = re.compile(rb"[ \t\f]*(#[^\r\n]*)?(\r\n|\r|\n|$)")  # a blank or comment-only line


@dataclass(frozen=True)
class Layout:
    """What libcst takes from the whole file: its first indentation and its first line end."""

    indent: str
    newline: str

    def wrapper(self) -> str:
        return f"if 1:{self.newline}{self.indent}pass{self.newline}class _:{self.newline}"

    def wrapper_lines(self) -> int:
        return self.wrapper().count(self.newline)


def layout(data: bytes) -> Layout | None:
    """The default indent and newline libcst gives ``data`` (its first INDENT token, its first line
    end); None for a file not in UTF-8 or that the tokenizer refuses before its first indent."""
    if source_encoding(data) != "utf-8":  # a BOM is utf-8 too
        return None
    try:
        indent = "    "  # libcst's when no line is indented
        for tok in tokenize.tokenize(io.BytesIO(data).readline):
            if tok.type == tokenize.INDENT:
                indent = tok.string
                break
    except (SyntaxError, tokenize.TokenError, UnicodeDecodeError):
        return None
    end = LINE_END.search(data)
    return Layout(indent, end.group().decode() if end is not None else "\n")


@dataclass
class LoneFunction:
    """A function parsed alone: ``parsed`` holds the wrapper, ``func`` the function in it, and
    ``start``/``stop`` the bytes of the file its lines span."""

    parsed: ParsedModule
    func: cst.FunctionDef
    start: int
    stop: int


class LoneFunctions:
    """The functions of one file, each parsed alone (``parse``), and the file with some replaced."""

    def __init__(self, path: str, data: bytes, layout: Layout) -> None:
        self.path, self.data, self.layout = path, data, layout
        self._starts: list[int] | None = None

    def _line_start(self, line: int) -> int:
        """The byte where ``line`` (1-based) starts; past the last line, the end of the file."""
        if self._starts is None:
            self._starts = [0, 0, *(m.end() for m in LINE_END.finditer(self.data))]
        return self._starts[line] if line < len(self._starts) else len(self.data)

    def parse(self, first: int, last: int) -> LoneFunction:
        """The function on lines ``first``..``last`` (its decorators included); ValueError when
        those lines are not one indented function."""
        while self._line_start(last + 1) < len(self.data) and _BARE.match(self.data, self._line_start(last + 1)):
            last += 1  # comment lines after the last statement: a whole file's parse may give them to its blocks
        start, stop = self._line_start(first), self._line_start(last + 1)
        text = self.data[start:stop].decode("utf-8")
        if not text.startswith((" ", "\t", "\f")):  # not indented
            raise ValueError(f"{self.path}:{first}: not an indented function")
        module = parse_module_exactly(self.layout.wrapper() + text)
        body = module.body[-1]
        inner = body.body.body if isinstance(body, cst.ClassDef) else ()
        if len(module.body) != 2 or len(inner) != 1 or not isinstance(inner[0], cst.FunctionDef):
            raise ValueError(f"{self.path}:{first}: not one function")
        parsed = ParsedModule(self.path, self.data, module, line_offset=first - 1 - self.layout.wrapper_lines())
        return LoneFunction(parsed, inner[0], start, stop)

    def replaced(self, new: list[tuple[LoneFunction, cst.Module]]) -> bytes:
        """The file with each function's lines replaced by its wrapper's code after a rewrite."""
        out, at = [], 0
        wrapper = self.layout.wrapper()
        for lone, module in sorted(new, key=lambda n: n[0].start):
            code = module.code
            if not code.startswith(wrapper) or lone.start < at:
                raise ValueError(f"{self.path}: rewritten functions overlap or lost their wrapper")
            out += [self.data[at : lone.start], code[len(wrapper) :].encode("utf-8")]
            at = lone.stop
        out.append(self.data[at:])
        return b"".join(out)
