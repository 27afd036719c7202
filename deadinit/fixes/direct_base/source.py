"""Parsed modules for the direct-base rewrite: one parse per file, with positions and scopes."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from functools import cached_property

import libcst as cst
from libcst.metadata import GlobalScope, MetadataWrapper, ScopeProvider

from deadinit.fixes.parsed import ParsedModule, parse_module_exactly
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import StrEnum

BUILTINS = set(dir(builtins)) | {
    "__name__",
    "__file__",
    "__doc__",
    "__spec__",
    "__package__",
    "__loader__",
    "__builtins__",
    "__path__",
    "__annotations__",
    "__dict__",
    "__module__",
    "__qualname__",
    "__class__",
}


class NameBinding(StrEnum):
    """Where a loaded name is bound, as ``ModuleSource.resolution`` says."""

    LOCAL = "local"
    GLOBAL = "global"
    BUILTIN = "builtin"
    UNRESOLVED = "unresolved"


# a name the copied code would look up in its new module
MODULE_LEVEL = (NameBinding.GLOBAL, NameBinding.UNRESOLVED)


class ModuleSource(ParsedModule):
    """A parsed module with its scopes (libcst ``ScopeProvider``) and where its classes are."""

    def __init__(self, path: str, module_name: str, is_package: bool, text: str, module: cst.Module) -> None:
        super().__init__(path, text, module)
        self.module_name = module_name
        self.is_package = is_package
        self.text = text
        self.scopes = dict(MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider))

    def pos(self, node: cst.CSTNode) -> tuple[int, int]:
        p = self.positions.get(node)
        return (p.start.line, p.start.column) if p is not None else (0, 0)

    def end(self, node: cst.CSTNode) -> int:
        p = self.positions.get(node)
        return p.end.line if p is not None else 0

    def class_node(self, qualname: str) -> cst.ClassDef | None:
        """The ClassDef of ``qualname`` (module-level or nested in classes)."""
        rest = qualname[len(self.module_name) + 1 :] if qualname.startswith(self.module_name + ".") else qualname
        body: Sequence[cst.BaseStatement] = self.module.body
        node = None
        for part in rest.split("."):
            node = next((s for s in body if isinstance(s, cst.ClassDef) and s.name.value == part), None)
            if node is None:
                return None
            body = node.body.body if isinstance(node.body, cst.IndentedBlock) else []
        return node

    def methods(self, cls_node: cst.ClassDef, name: str) -> list[cst.FunctionDef]:
        body = cls_node.body.body if isinstance(cls_node.body, cst.IndentedBlock) else []
        return [s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == name]

    def resolution(self, name_node: cst.Name) -> NameBinding:
        """Where a loaded name is bound."""
        scope = self.scopes.get(name_node)
        if scope is None:
            return NameBinding.UNRESOLVED
        assignments = scope[name_node.value]
        if not assignments:
            return NameBinding.BUILTIN if name_node.value in BUILTINS else NameBinding.UNRESOLVED
        kinds = {type(a.scope).__name__ for a in assignments}
        if kinds <= {"GlobalScope"}:
            return NameBinding.GLOBAL
        if kinds <= {"BuiltinScope"}:
            return NameBinding.BUILTIN
        if "GlobalScope" in kinds and "ClassScope" in kinds:
            return NameBinding.GLOBAL
        return NameBinding.LOCAL

    @cached_property
    def rebound_globals(self) -> set[str]:
        """Names some function of the module declares ``global``."""
        found: set[str] = set()

        class V(cst.CSTVisitor):
            def visit_Global(self, node: cst.Global) -> None:
                found.update(n.name.value for n in node.names)

        self.module.visit(V())
        return found

    def global_scope(self) -> GlobalScope | None:
        for s in self.scopes.values():
            if isinstance(s, GlobalScope):
                return s
        return None


def parse(path: str, module_name: str, is_package: bool, text: str | None = None) -> ModuleSource:
    if text is None:
        with open(path, encoding="utf-8", newline="") as f:  # its line ends as they are: the rewrite keeps them
            text = f.read()
    return ModuleSource(path, module_name, is_package, text, parse_module_exactly(text))


class ModuleSources:
    """The modules of a project's classes, each parsed once."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self._by_path: dict[str, ModuleSource] = {}

    def of_class(self, qualname: str) -> ModuleSource:
        mod = self.index.class_module[qualname]
        s = self.index.modules[mod]
        return self.get(s.path, mod, s.is_package)

    def get(self, path: str, module_name: str, is_package: bool) -> ModuleSource:
        if path not in self._by_path:
            self._by_path[path] = parse(path, module_name, is_package)
        return self._by_path[path]


def undefined_names(text: str) -> list[tuple[str, int]]:
    """Names loaded somewhere in ``text`` that no scope (nor builtins) binds: (name, line)."""
    src = parse("<memory>", "__m__", False, text)
    out: list[tuple[str, int]] = []
    seen: set[tuple[str, int]] = set()
    for scope in set(src.scopes.values()):
        if scope is None:
            continue
        for access in scope.accesses:
            node = access.node
            if not isinstance(node, cst.Name):
                continue
            if access.referents or node.value in BUILTINS:
                continue
            key = (node.value, src.pos(node)[0])
            if key not in seen:
                seen.add(key)
                out.append(key)
    return sorted(out, key=lambda x: (x[1], x[0]))
