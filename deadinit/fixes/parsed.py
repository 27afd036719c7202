"""One parsed file for a rewrite: its libcst module, positions, syntax tree and ``__init__`` bodies.

Both strategies edit libcst nodes and ask the semantic model about them: the libcst
adapter gives the positions (libcst's ``PositionProvider`` numbers, ``fixes.positions``) and, converted once, the
syntax tree whose statements map back to the libcst statements they came from.
"""

from __future__ import annotations

from functools import cached_property

import libcst as cst
from libcst.metadata import CodeRange

from deadinit.fixes.init_units import InitBody, init_body
from deadinit.fixes.positions import Positions
from deadinit.frontends.cst_adapter import CstAdapter
from deadinit.semantics import syntax as sx


def _adapter(module: cst.Module, positions: Positions) -> CstAdapter:
    """The libcst adapter of ``module`` with positions from ``fixes.positions`` (libcst's, computed faster)."""
    adapter = CstAdapter(None)  # no position pass here
    adapter.module, adapter.pos = module, positions
    return adapter


class ParsedModule:
    def __init__(self, path: str, source: bytes | str, module: cst.Module, line_offset: int = 0) -> None:
        """``line_offset``: where ``module``'s lines are in the file (``fixes.lone_function``), 0 for a whole file."""
        self.path = path
        self.source = source  # as read: bytes for skip-flag, text for direct-base
        self.module = module
        self.positions = Positions(module, line_offset)
        self.adapter = _adapter(module, self.positions)
        self._inits: dict[int, InitBody] = {}

    def code_range(self, node: cst.CSTNode) -> CodeRange:
        return self.positions[node]

    @cached_property
    def syntax(self) -> sx.Module:
        return self.adapter.convert()

    @cached_property
    def _syntax_of(self) -> dict[int, sx.Stmt]:
        """id(libcst statement) -> the syntax statement made from it."""
        out: dict[int, sx.Stmt] = {}
        stack: list[sx.Node] = [self.syntax]
        while stack:
            n = stack.pop()
            origin = self.adapter.origins.get(id(n))
            if isinstance(n, sx.Stmt) and origin is not None:
                out.setdefault(id(origin), n)
            stack.extend(n.children())
        return out

    def syntax_of(self, node: cst.CSTNode) -> sx.Stmt | None:
        return self._syntax_of.get(id(node))

    def init_body(self, func: cst.FunctionDef) -> InitBody:
        """The units of ``func``, a function defined in this module."""
        if id(func) not in self._inits:
            syntax = self.syntax_of(func)
            assert isinstance(syntax, sx.FunctionDef), f"{self.path}: no syntax for {func.name.value}"
            self._inits[id(func)] = init_body(func, syntax, self.adapter, self.positions)
        return self._inits[id(func)]


def parse_module_exactly(source: bytes | str) -> cst.Module:
    """``cst.parse_module`` whose code is ``source`` again: libcst drops a module's last line end when
    that is a lone ``\r`` (a file of classic Mac line ends), so it is given one more to drop."""
    if isinstance(source, str):
        return cst.parse_module(source + "\r" if source.endswith("\r") else source)
    return cst.parse_module(source + b"\r" if source.endswith(b"\r") else source)
