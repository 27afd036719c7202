"""Module files on the library search path, found as the import system would find them and
never imported: a regular package (``__init__.py``) or a module (``.py``) in the first folder
that has one, else a namespace package of every folder's portion (PEP 420).  A module that is
only a compiled extension has no source to read: its top-level package is ``COMPILED``.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from dataclasses import dataclass

from deadinit.model.kinds import LibraryStatus

_EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | frozenset(sys.builtin_module_names) | {"__future__"}


@dataclass(frozen=True)
class ModuleFile:
    name: str  # the dotted module name
    path: str | None  # the source file; None for a namespace package
    is_package: bool
    folders: tuple[str, ...]  # a package's folders (its submodules' search path)
    entry: str  # the search-path folder it was found under


class ModuleFinder:
    def __init__(self, entries: tuple[str, ...]) -> None:
        self.entries = entries
        self._found: dict[str, ModuleFile | None] = {}
        self._compiled: set[str] = set()

    def find(self, name: str) -> ModuleFile | None:
        """The source of module ``name`` (a dotted name), None when it has none here."""
        if name in self._found:
            return self._found[name]
        parent, dot, last = name.rpartition(".")
        if dot:
            up = self.find(parent)
            found = self._look(name, last, up.folders, up.entry) if up is not None and up.is_package else None
        else:
            found = self._look(name, name, self.entries, None)
        self._found[name] = found
        return found

    def status(self, top: str) -> LibraryStatus:
        """What the search path holds for the top-level package ``top``."""
        if self.find(top) is not None:
            return LibraryStatus.SOURCE
        return LibraryStatus.COMPILED if top in self._compiled else LibraryStatus.MISSING

    def _look(self, name: str, last: str, folders: tuple[str, ...], entry: str | None) -> ModuleFile | None:
        portions: list[str] = []
        for folder in folders:
            base = os.path.join(folder, last)
            where = entry or folder
            init = os.path.join(base, "__init__.py")
            if os.path.isfile(init):
                return ModuleFile(name, init, True, (base,), where)
            if os.path.isfile(base + ".py"):
                return ModuleFile(name, base + ".py", False, (), where)
            if any(os.path.isfile(base + suffix) for suffix in _EXTENSIONS):
                self._compiled.add(name.partition(".")[0])
                return None
            if os.path.isdir(base):
                portions.append(base)
        if portions:
            return ModuleFile(name, None, True, tuple(portions), entry or os.path.dirname(portions[0]))
        return None
