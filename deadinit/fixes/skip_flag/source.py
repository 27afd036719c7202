"""Parsed files for the skip-flag rewrite: one parse per file, ``__init__`` bodies found by class.

Findings name classes and statements by qualified name and line; ``InitLocator`` finds
the libcst ``__init__`` of a class (also under ``if TYPE_CHECKING:`` / ``try:``) and
keeps its units (``deadinit.fixes.init_units``).
"""

from __future__ import annotations

import libcst as cst

from deadinit.fixes.init_units import InitBody
from deadinit.fixes.parsed import ParsedModule
from deadinit.semantics.statements import loads


class InitLocator:
    def __init__(self, index) -> None:
        self.index = index
        self.files: dict[str, ParsedModule] = {}
        self.errors: dict[str, str] = {}
        self._inits: dict[str, InitBody | None] = {}

    def file(self, path: str) -> ParsedModule | None:
        if path in self.files or path in self.errors:
            return self.files.get(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
            self.files[path] = ParsedModule(path, data, cst.parse_module(data))
        except (OSError, cst.ParserSyntaxError, UnicodeDecodeError, ValueError) as e:
            self.errors[path] = f"cannot read or parse {path}: {e}"
            return None
        return self.files[path]

    def file_of(self, qualname: str) -> ParsedModule | None:
        return self.file(self.index.file_of(qualname).path)

    def init(self, qualname: str) -> InitBody | None:
        """The ``__init__`` defined in the body of class ``qualname`` (None when it has none)."""
        if qualname in self._inits:
            return self._inits[qualname]
        sf = self.file_of(qualname)
        if sf is None:
            return None
        module = self.index.class_module[qualname]
        func = _find_init(sf.module.body, qualname[len(module) + 1 :].split("."))
        self._inits[qualname] = sf.init_body(func) if func is not None else None
        return self._inits[qualname]

    def super_call(self, qualname: str, line: int) -> cst.Call | None:
        """The ``super().__init__(...)`` / ``Base.__init__(self, ...)`` call starting on ``line``."""
        body = self.init(qualname)
        return body.init_call_at(line) if body is not None else None


def _find_init(body, parts: list[str]) -> cst.FunctionDef | None:
    for st in body:
        if isinstance(st, cst.ClassDef) and st.name.value == parts[0]:
            inner = st.body.body if isinstance(st.body, cst.IndentedBlock) else []
            if len(parts) > 1:
                return _find_init(inner, parts[1:])
            inits = [s for s in inner if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"]
            return inits[-1] if inits else None
        if isinstance(st, (cst.If, cst.Try)):  # classes defined under ``if TYPE_CHECKING`` / try
            orelse = getattr(st, "orelse", None)
            blocks = [st.body] + ([orelse.body] if orelse is not None and not isinstance(orelse, cst.If) else [])
            for blk in blocks:
                if isinstance(blk, cst.IndentedBlock):
                    r = _find_init(blk.body, parts)
                    if r is not None:
                        return r
    return None


def module_reads_outside(sf: ParsedModule, body: InitBody, names: set) -> set:
    """Which of ``names`` the module loads outside ``body``'s function (globals other code reads)."""
    return set(loads(sf.syntax, None, skip=body.syntax).names) & names
