"""Parsed files for the skip-flag rewrite: one parse per file, nodes found by position.

Findings name statements by file and line; this module finds the libcst nodes that
sit there (a class's ``__init__``, its ``super().__init__(...)`` call) through
``PositionProvider``, and keeps the units of every ``__init__`` it was asked about.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from deadinit.fixes.skip_flag.units import Unit, function_units, walk_units


@dataclass
class InitSource:
    cls: str
    func: cst.FunctionDef
    self_name: str
    units: list[Unit]
    by_id: dict = field(default_factory=dict)  # id(node) -> Unit

    def params(self) -> list[str]:
        p = self.func.params
        out = [x.name.value for x in list(p.posonly_params) + list(p.params) + list(p.kwonly_params)]
        for star in (p.star_arg, p.star_kwarg):
            if isinstance(star, cst.Param):
                out.append(star.name.value)
        return out

    def has_star(self) -> bool:
        p = self.func.params
        return isinstance(p.star_arg, cst.Param) or p.star_kwarg is not None


@dataclass
class SourceFile:
    path: str
    data: bytes
    module: cst.Module
    positions: dict
    inits: dict = field(default_factory=dict)  # class qualname -> InitSource

    def pos(self, node):
        return self.positions[node]


class Sources:
    def __init__(self, index):
        self.index = index
        self.files: dict[str, SourceFile] = {}
        self.errors: dict[str, str] = {}

    def file(self, path: str) -> SourceFile | None:
        if path in self.files or path in self.errors:
            return self.files.get(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
            wrapper = MetadataWrapper(cst.parse_module(data), unsafe_skip_copy=True)
        except (OSError, cst.ParserSyntaxError, UnicodeDecodeError, ValueError) as e:
            self.errors[path] = f"cannot read or parse {path}: {e}"
            return None
        self.files[path] = SourceFile(path, data, wrapper.module, wrapper.resolve(PositionProvider))
        return self.files[path]

    def init(self, qualname: str) -> InitSource | None:
        """The ``__init__`` defined in the body of class ``qualname`` (None when it has none)."""
        path = self.index.file_of(qualname).path
        sf = self.file(path)
        if sf is None:
            return None
        if qualname in sf.inits:
            return sf.inits[qualname]
        module = self.index.class_module[qualname]
        parts = qualname[len(module) + 1 :].split(".")
        func = _find_init(sf.module.body, parts)
        if func is None:
            sf.inits[qualname] = None
            return None
        self_name, units = function_units(func, sf.pos)
        src = InitSource(qualname, func, self_name, units)
        src.by_id = {id(u.node): u for u in walk_units(units)}
        sf.inits[qualname] = src
        return src

    def super_call(self, qualname: str, line: int) -> cst.Call | None:
        """The ``super().__init__(...)`` / ``Base.__init__(self, ...)`` call starting on ``line``."""
        src = self.init(qualname)
        if src is None:
            return None
        sf = self.file(self.index.file_of(qualname).path)
        found: list = []

        class V(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                f = node.func
                if isinstance(f, cst.Attribute) and f.attr.value == "__init__" and sf.pos(node).start.line == line:
                    found.append(node)

            def visit_FunctionDef(self, node) -> bool:
                return node is src.func

            def visit_Lambda(self, node) -> bool:
                return False

        src.func.visit(V())
        return found[0] if found else None


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


def module_reads_outside(sf: SourceFile, func: cst.FunctionDef, names: set) -> set:
    """Which of ``names`` the module loads outside ``func`` (module globals shared with other code)."""
    out: set = set()

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return node is not func

        def visit_Name(self, node: cst.Name) -> None:
            if node.value in names:
                out.add(node.value)

        def visit_Assign(self, node: cst.Assign) -> bool:  # ``_g = None`` at module level is a write
            for t in node.targets:
                if not isinstance(t.target, cst.Name):
                    t.target.visit(self)
            node.value.visit(self)
            return False

        def visit_Global(self, node) -> bool:
            return False

    sf.module.visit(V())
    return out
