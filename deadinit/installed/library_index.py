"""The installed libraries as one index: the project index's tables and name resolution over
library modules, each summarised (by the same semantic model) the first time a resolution
reaches it, so that a run reads only the modules its names lead to.

Modules of the project, of the standard library and of the tensor libraries are never read
here: the project answers for its own names and the semantic model for torch's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from deadinit.index import lazy_tables
from deadinit.index.dependencies import Recorded, note
from deadinit.index.lazy_tables import BuiltOnRead, ModuleFunctions
from deadinit.index.name_resolution import ResolvedName
from deadinit.index.project_index import ProjectIndex
from deadinit.installed.distributions import Distributions
from deadinit.installed.finder import ModuleFinder
from deadinit.installed.store import LibraryStore
from deadinit.model.kinds import BaseKind, NameKind
from deadinit.model.summary import ClassSummary, FileSummary

_ABSENT = object()


class LazyModules(Mapping[str, FileSummary]):
    """module name -> summary, loaded on first read; iteration gives the modules loaded so far."""

    def __init__(self, load: Callable[[str], FileSummary | None]) -> None:
        self._load = load
        self.loaded: dict[str, FileSummary | None] = {}

    def get(self, key: str, default: object = None) -> FileSummary | object:  # type: ignore[override]
        got = self.loaded.get(key, _ABSENT)
        if got is _ABSENT:
            got = self.loaded[key] = self._load(key)
        return default if got is None else got

    def __getitem__(self, key: str) -> FileSummary:
        got = self.get(key)
        if got is None:
            raise KeyError(key)
        return got  # type: ignore[return-value]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __iter__(self) -> Iterator[str]:
        return (m for m, s in list(self.loaded.items()) if s is not None)

    def __len__(self) -> int:
        return sum(1 for s in self.loaded.values() if s is not None)


class LibraryIndex(ProjectIndex):
    def __init__(self, finder: ModuleFinder, store: LibraryStore, readable: Callable[[str], bool]) -> None:
        """``readable``: whether a top-level package may be read here (not the project's, the standard
        library's or a tensor library's)."""
        super().__init__([])
        self.finder = finder
        self.store = store
        self.readable = readable
        self.distributions = Distributions()
        modules = LazyModules(self._load)
        self._lazy = modules
        self.modules = Recorded("module", modules)
        self.classes: Recorded[str, ClassSummary] = Recorded("class", {})
        self.class_module: Recorded[str, str] = Recorded("class_module", {})
        self.class_bases = Recorded("class_bases", {})
        self.paths = Recorded("path", BuiltOnRead(modules, _path))
        self._packages = Recorded("package", BuiltOnRead(modules, _is_package))
        self.constants = Recorded("constants", BuiltOnRead(modules, lazy_tables.constants))
        self._imports = Recorded("imports", BuiltOnRead(modules, lazy_tables.imports))
        self._stars = Recorded("stars", BuiltOnRead(modules, lazy_tables.star_imports))
        self._toplevel = Recorded("toplevel", BuiltOnRead(modules, lazy_tables.toplevel_classes))
        self._functions = Recorded("functions_in", BuiltOnRead(modules, lazy_tables.function_names))
        self.functions = Recorded("function", ModuleFunctions(modules))

    @property
    def loaded(self) -> int:
        """How many library modules this run read."""
        return len(self._lazy)

    def _load(self, name: str) -> FileSummary | None:
        if not name or not self.readable(name.partition(".")[0]):
            return None
        found = self.finder.find(name)
        if found is None:
            return None
        if found.path is None:  # a namespace package: no file, only submodules
            return FileSummary(path="", module=name, is_package=True)
        owner = self.distributions.owner(found.entry, name.partition(".")[0])
        s = self.store.summary(found.path, name, found.is_package, self.store.group(owner, found.entry))
        if s is None or s.module != name:
            return None
        classes, class_module, class_bases = self.classes.data, self.class_module.data, self.class_bases.data
        for c in s.classes:
            if c.qualname not in classes:
                classes[c.qualname] = c  # type: ignore[index]
                class_module[c.qualname] = name  # type: ignore[index]
                class_bases[c.qualname] = (c.bases, c.base_text)  # type: ignore[index]
        return s

    def is_module(self, name: str) -> bool:
        note(("prefix", name))
        return name in self._lazy or (self.readable(name.partition(".")[0]) and self.finder.find(name) is not None)

    def resolve_dotted(self, dotted: str) -> ResolvedName | None:
        """The class, function or module a fully qualified dotted name is."""
        head, _, rest = dotted.partition(".")
        if not self.is_module(head):
            return None
        target: ResolvedName | None = ResolvedName(NameKind.MODULE, head)
        for part in rest.split(".") if rest else []:
            assert target is not None
            kind, name = target
            if kind is NameKind.MODULE:
                target = self._member(name, part, 1)
            elif kind is NameKind.CLASS and f"{name}.{part}" in self.classes:
                target = ResolvedName(NameKind.CLASS, f"{name}.{part}")
            else:
                return None
            if target is None:
                return None
        return target

    def ancestry(self, qualname: str) -> frozenset[str]:
        """The library classes of ``qualname``'s MRO and the bases outside the libraries anywhere in it."""
        out = set()
        for c in self.mro(qualname) or [qualname]:
            out.add(c)
            out.update(b.name for b in self.bases(c) if b.kind == BaseKind.EXTERNAL)
        return frozenset(out)


def _path(s: FileSummary) -> str:
    return s.path


def _is_package(s: FileSummary) -> bool:
    return s.is_package
