"""The installed libraries' answers to the project index (``index.outside.Outside``): what an
outside class derives from, what constructing one allocates, what an outside function returns.

A project module's name is made canonical through the project's own imports (those reads are
recorded: the class analysed depends on them); what the libraries say of a canonical name
depends only on the installed environment, which the run's key covers, so it is kept for the
run and not recorded.  Nothing here is ever reported: findings come from the project's classes.
"""

from __future__ import annotations

from deadinit.index.dependencies import paused
from deadinit.index.name_resolution import ResolvedName
from deadinit.index.outside import OutsideClass, OutsideFunction
from deadinit.index.project_index import ProjectIndex
from deadinit.installed.library_index import LibraryIndex
from deadinit.installed.registries import Registries
from deadinit.model.kinds import AllocKind, NameKind
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo

MAX_DEPTH = 3  # installed classes followed into the classes their ``__init__`` builds
_ALLOCATIONS = frozenset(
    {AllocKind.TENSOR, AllocKind.MODULE, AllocKind.PARAMETER, AllocKind.BUFFER, AllocKind.CACHED_BUFFER}
)


class InstalledFacts:
    def __init__(self, project: ProjectIndex, settings: Settings, library: LibraryIndex) -> None:
        self.project = project
        self.settings = settings
        self.library = library
        self.registries = Registries(project, library, settings)
        self._ancestors: dict[str, frozenset[str]] = {}
        self._classes: dict[str, str | None] = {}  # library qualname -> what constructing it allocates
        self._active: set[str] = set()

    # -- names ---------------------------------------------------------------------
    def resolve(self, module: str, dotted: str) -> ResolvedName | None:
        """What ``dotted``, seen from ``module`` (the project's or a library's), is in the libraries."""
        if module in self.project.modules.data:
            if self.project.resolve_any(module, dotted) is not None:
                return None  # the project's own
            canonical = self.project.canonical(module, dotted)
            with paused():
                return self.library.resolve_dotted(canonical)
        with paused():
            return self.library.resolve_any(module, dotted)

    # -- ``index.outside.Outside`` ---------------------------------------------------
    def ancestors(self, name: str) -> frozenset[str]:
        got = self._ancestors.get(name)
        if got is None:
            with paused():
                r = self.library.resolve_dotted(name)
                got = frozenset()
                if r is not None and r.kind is NameKind.CLASS:
                    got = self.library.ancestry(r.name) | {name}
            self._ancestors[name] = got
        return got

    def constructed(self, module: str, dotted: str) -> OutsideClass | None:
        r = self.resolve(module, dotted)
        if r is None or r.kind is not NameKind.CLASS:
            return None
        return OutsideClass(r.name, self._class_kind(r.name, 0))

    def function(self, module: str, dotted: str) -> OutsideFunction | None:
        built = self.registries.build(module, dotted)
        if built is not None:
            return built
        r = self.resolve(module, dotted)
        if r is None or r.kind is not NameKind.FUNCTION:
            return None
        with paused():
            found = self.library.functions.get(r.name)
            if found is None:
                return None
            fmodule, name, returns = found
            return OutsideFunction(fmodule, f"{fmodule}.{name}", returns, self.library.paths[fmodule])

    def registered(self, registry: str) -> tuple[str, ...]:
        return self.registries.registered(registry)

    # -- what constructing an installed class allocates ------------------------------
    def _class_kind(self, qualname: str, depth: int) -> str | None:
        if qualname in self._classes:
            return self._classes[qualname]
        if qualname in self._active or depth > MAX_DEPTH:
            return None  # a cycle or a deep chain of constructions: not known to allocate
        self._active.add(qualname)
        try:
            with paused():
                kind = self._kind_of(qualname, depth)
        finally:
            self._active.discard(qualname)
        if depth == 0 or kind is not None:
            self._classes[qualname] = kind
        return kind

    def _kind_of(self, qualname: str, depth: int) -> str | None:
        ancestry = self.library.ancestry(qualname)
        if not ancestry.isdisjoint(self.settings.module_bases):
            return AllocKind.MODULE
        if not ancestry.isdisjoint(self.settings.parameter_bases):
            return AllocKind.PARAMETER
        lib = self.library
        for owner in lib.mro(qualname) or [qualname]:
            init = lib.classes[owner].methods.get("__init__")
            module = lib.class_module[owner]
            for st in (init.init_flow or ()) if init is not None else ():
                if st.attr is not None and self._allocates(st.alloc, module, depth):
                    return AllocKind.OBJECT
        return None

    def _allocates(self, alloc: AllocInfo | None, module: str, depth: int) -> bool:
        """Whether a value an installed class's ``__init__`` keeps is an allocation."""
        if alloc is None:
            return False
        if alloc.kind in _ALLOCATIONS:
            return True
        if alloc.kind == AllocKind.CONTAINER:
            return self._allocates(alloc.element, module, depth)
        if alloc.kind in (AllocKind.CALL, AllocKind.ITEM, AllocKind.TUPLE):
            return False
        r = self.library.resolve_any(module, alloc.callee)
        if r is None or r.kind is not NameKind.CLASS:
            return alloc.kind != AllocKind.MAYBE_CLASS  # a heavy class the pattern names, not read
        return self._class_kind(r.name, depth + 1) is not None
