"""The ``__init__`` functions a skip-flag rewrite edits, each parsed once, and the files with them replaced.

Findings name classes by qualified name; a class's summary says where the ``__init__`` its body
defines last is (``ClassSummary.init_lines``).  That function is parsed alone
(``fixes.lone_function``): the rest of its file is never parsed with libcst.  A file whose layout
libcst's parse of the whole file could not be matched this way (an encoding other than UTF-8) is
parsed whole, and the function found there by its lines.
"""

from __future__ import annotations

from typing import TypeVar

import libcst as cst
from libcst.metadata import CodeRange

from deadinit.fixes.init_units import InitBody, take_named_writes
from deadinit.fixes.lone_function import LoneFunction, LoneFunctions, layout
from deadinit.fixes.parsed import ParsedModule, parse_module_exactly
from deadinit.fixes.positions import Positions
from deadinit.frontends.parse import syntax_of
from deadinit.index.project_index import ProjectIndex
from deadinit.semantics import syntax as sx
from deadinit.semantics.statements import loads

_Node = TypeVar("_Node", bound=cst.CSTNode)


class _WholeFile:
    """A file parsed whole: its functions found by their lines."""

    def __init__(self, path: str, data: bytes) -> None:
        self.data = data
        self.parsed = ParsedModule(path, data, parse_module_exactly(data))

    def parse(self, first: int, last: int) -> LoneFunction:
        func = _init_on(self.parsed.syntax, (first, last))
        if func is None:
            raise ValueError(f"{self.parsed.path}:{first}: no __init__ on these lines")
        node = self.parsed.adapter.origins[id(func)]
        assert isinstance(node, cst.FunctionDef)  # what the syntax FunctionDef was made from
        return LoneFunction(self.parsed, node, 0, 0)


class InitLocator:
    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self._files: dict[str, LoneFunctions | _WholeFile | None] = {}
        self._inits: dict[str, InitBody | None] = {}
        self._lone: dict[int, LoneFunction] = {}  # id(libcst function) -> where it was parsed
        self._syntax: dict[str, sx.Module | None] = {}

    def source(self, path: str) -> bytes:
        """The bytes of ``path`` as read for this plan."""
        source = self._files[path]
        assert source is not None
        return source.data

    def _file(self, path: str) -> LoneFunctions | _WholeFile | None:
        if path not in self._files:
            try:
                with open(path, "rb") as f:
                    data = f.read()
                shape = layout(data)
                self._files[path] = LoneFunctions(path, data, shape) if shape is not None else _WholeFile(path, data)
            # SyntaxError: libcst finds no coding cookie in a file of lone "\r" line ends
            except (OSError, SyntaxError, cst.ParserSyntaxError, UnicodeDecodeError, ValueError):
                self._files[path] = None
        return self._files[path]

    def init(self, qualname: str) -> InitBody | None:
        """The ``__init__`` defined in the body of class ``qualname`` (None when it has none)."""
        if qualname in self._inits:
            return self._inits[qualname]
        body = None
        cls = self.index.classes.data.get(qualname)
        lines = cls.init_lines if cls is not None and "<locals>" not in qualname else None
        source = self._file(self.index.path_of(qualname)) if lines is not None else None
        if source is not None and lines is not None:
            try:
                lone = source.parse(*lines)
            except (cst.ParserSyntaxError, UnicodeDecodeError, ValueError):
                lone = None
            if lone is not None:
                self._lone[id(lone.func)] = lone
                body = lone.parsed.init_body(lone.func)
                init = cls.methods.get("__init__") if cls is not None else None
                take_named_writes(body, init.init_flow if init is not None else None)
        self._inits[qualname] = body
        return body

    def located(self, qualname: str) -> InitBody:
        """The ``__init__`` of a class on a group's path (``GroupBuilder._path`` found each one)."""
        body = self.init(qualname)
        assert body is not None, qualname
        return body

    def parsed(self, func: cst.FunctionDef) -> ParsedModule:
        """Where ``func``, an ``__init__`` this locator gave, was parsed: its positions and indent."""
        return self._lone[id(func)].parsed

    def super_call(self, qualname: str, line: int) -> cst.Call | None:
        """The ``super().__init__(...)`` / ``Base.__init__(self, ...)`` call starting on ``line``."""
        body = self.init(qualname)
        return body.init_call_at(line) if body is not None else None

    def module_reads_outside(self, qualname: str, body: InitBody, names: set[str]) -> set[str]:
        """Which of ``names`` the module of ``qualname`` loads outside ``body``'s function
        (globals other code reads); all of them when the module cannot be read."""
        path = self.index.path_of(qualname)
        lone = self._lone[id(body.func)]
        if isinstance(self._files.get(path), _WholeFile):
            return set(loads(lone.parsed.syntax, None, skip=body.syntax).names) & names
        if path not in self._syntax:
            made = syntax_of(self.source(path), path)
            self._syntax[path] = made[0] if isinstance(made, tuple) else None
        module = self._syntax[path]
        skip = _init_on(module, body.syntax.lines()) if module is not None else None
        if module is None or skip is None:
            return set(names)
        return set(loads(module, None, skip=skip).names) & names

    def rewritten(self, path: str, new: dict[int, cst.FunctionDef]) -> bytes:
        """``path`` with each ``__init__`` this locator gave replaced: id(old function) -> new one."""
        source = self._files[path]
        olds = [self._lone[i] for i in new]
        if isinstance(source, _WholeFile):
            module = source.parsed.module.visit(_ReplaceFunctions(new, [o.func for o in olds], source.parsed.positions))
            return module.bytes
        assert isinstance(source, LoneFunctions)
        return source.replaced(
            [(o, o.parsed.module.visit(_ReplaceFunctions(new, [o.func], o.parsed.positions))) for o in olds]
        )


def _init_on(module: sx.Module, lines: tuple[int, int]) -> sx.FunctionDef | None:
    """The ``__init__`` of ``module`` that spans ``lines`` (``sx.FunctionDef.lines``)."""
    stack: list[sx.Node] = [module]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.FunctionDef) and n.name == "__init__" and n.lines() == lines:
            return n
        stack.extend(n.children())
    return None


class _ReplaceFunctions(cst.CSTTransformer):
    """Puts the rewritten functions in place, descending only into the nodes that
    enclose one (by position): the rest of the module is neither visited nor rebuilt."""

    def __init__(self, repl: dict[int, cst.FunctionDef], originals: list[cst.FunctionDef], pos: Positions) -> None:
        self.repl = repl
        self.pos = pos
        self.spans = [_span(pos[f]) for f in originals]

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) in self.repl:
            return False  # replaced whole when left
        if isinstance(node, cst.Module):
            return True
        r = self.pos.get(node)
        if r is None:
            return False
        start, end = _span(r)
        return any(start <= s and e <= end for s, e in self.spans)

    def on_leave(
        self, original_node: _Node, updated_node: _Node
    ) -> _Node | cst.RemovalSentinel | cst.FlattenSentinel[_Node]:
        new = self.repl.get(id(original_node))
        if new is None:
            return updated_node
        assert isinstance(new, type(updated_node))  # a function for a function
        return new


def _span(r: CodeRange) -> tuple[tuple[int, int], tuple[int, int]]:
    return (r.start.line, r.start.column), (r.end.line, r.end.column)
