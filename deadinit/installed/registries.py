"""Registries: ``R.build(cfg)`` builds a class registered into the object ``R`` (``@R.register_module()``,
``@R.register()`` on the class).  When every class registered into ``R`` that the project
defines, and at least one, is an ``nn.Module``, ``R`` is a registry of modules and its ``build``
returns some module: an allocation of a module, whose size is not known.

A registry object is named by where it is defined: ``pkg/registry.py``'s ``MODELS = Registry(...)``
is ``pkg.registry.MODELS``, whichever module imports or re-exports it, in the project or an
installed library.  The table of registrations is built from every project class's decorators
once and read as a ``Recorded`` table (kind ``registered``): a class that joins or leaves a
registry changes what every ``build`` of it returns.
"""

from __future__ import annotations

from deadinit.index.dependencies import Recorded, paused
from deadinit.index.name_resolution import NameResolution
from deadinit.index.outside import OutsideFunction
from deadinit.index.project_index import ProjectIndex
from deadinit.installed.library_index import LibraryIndex
from deadinit.model.kinds import AllocKind, ExprTag, NameKind
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo, Returns

REGISTER_METHODS = frozenset({"register_module", "register"})
BUILD_METHOD = "build"
MAX_DEPTH = 8


class Registries:
    def __init__(self, project: ProjectIndex, library: LibraryIndex, settings: Settings) -> None:
        self.project = project
        self.library = library
        self.settings = settings
        self._table: Recorded[str, tuple[str, ...]] | None = None

    def build(self, module: str, dotted: str) -> OutsideFunction | None:
        """What ``R.build(...)`` returns, written in ``module``, when ``R`` is a registry of modules."""
        head, dot, last = dotted.rpartition(".")
        if not dot or last != BUILD_METHOD or not head or head.split(".")[0] == "self":
            return None
        registry = self.object_name(module, head)
        if registry is None or not self._holds_modules(registry):
            return None
        returns = Returns(0, values=(AllocInfo(AllocKind.MODULE, callee=f"{registry}.{BUILD_METHOD}"),))
        return OutsideFunction(module, f"{head}.{BUILD_METHOD} (a registry of modules)", returns, "")

    def registered(self, registry: str) -> tuple[str, ...]:
        found: tuple[str, ...] = self._registrations().get(registry, ())
        return found

    def _holds_modules(self, registry: str) -> bool:
        classes = self.registered(registry)
        bases = self.settings.module_bases
        return bool(classes) and all(self.project.derives_from_external(qn, bases) for qn in classes)

    def _registrations(self) -> Recorded[str, tuple[str, ...]]:
        if self._table is None:
            table: dict[str, list[str]] = {}
            with paused():  # each entry is read as one key of the table
                for qn, c in self.project.classes.data.items():
                    for d in c.decorators:
                        head, dot, last = d.rpartition(".")
                        if dot and last in REGISTER_METHODS:
                            name = self.object_name(self.project.class_module.data[qn], head)
                            if name is not None:
                                table.setdefault(name, []).append(qn)
            self._table = Recorded("registered", {k: tuple(v) for k, v in table.items()})
        return self._table

    # -- where a module-level object is defined ----------------------------------------
    def object_name(self, module: str, dotted: str, depth: int = 0) -> str | None:
        """``defining_module.NAME`` of the module-level object ``dotted`` names in ``module``
        (through imports, re-exports and ``ALIAS = NAME``); None when ``module`` binds no such name."""
        if depth > MAX_DEPTH:
            return None
        index = self._index_of(module)
        if index is None:
            return f"{module}.{dotted}"  # a module neither the project nor a library reads: as imported
        head, _, rest = dotted.partition(".")
        if rest:
            r = index.resolve_any(module, head)
            return self.object_name(r.name, rest, depth + 1) if r is not None and r.kind is NameKind.MODULE else None
        imp = index.import_of(module, head)
        if imp is not None:
            if imp.name is None:
                return None  # ``import a.b``: a module, not an object
            return self.object_name(index._abs_module(module, imp), imp.name, depth + 1)
        value = index.constant_of(module, head)
        if value is None:
            return None
        if value[0] in (ExprTag.NAME, ExprTag.DOTTED) and value[1] != head:
            return self.object_name(module, value[1], depth + 1)
        return f"{module}.{head}"

    def _index_of(self, module: str) -> NameResolution | None:
        if module in self.project.modules.data:
            return self.project
        with paused():
            return self.library if module in self.library.modules else None
