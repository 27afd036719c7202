"""Names resolved across modules: what a dotted name seen from a module is (a project class, a
function, a module), through imports, star imports, packages and module-level aliases.

Resolving reads only what the modules bind (``index.lazy_tables.bound_names``), through the
index's per-module tables, each a ``Recorded`` mapping (``deadinit.index.dependencies``).
"""

from __future__ import annotations

from typing import NamedTuple

from deadinit.index.dependencies import Recorded, note
from deadinit.index.module_names import absolute_module
from deadinit.model.kinds import ExprTag, NameKind
from deadinit.model.summary import ClassSummary, Expr, Import


class ResolvedName(NamedTuple):
    """What a dotted name is: a project (or library) class, a module-level function or a module,
    by its qualified name."""

    kind: NameKind
    name: str


class NameResolution:
    """``ProjectIndex``'s name resolution, over the tables it builds."""

    classes: Recorded[str, ClassSummary]
    constants: Recorded[str, dict[str, Expr]]
    module_prefixes: frozenset[str]
    _packages: Recorded[str, bool]
    _imports: Recorded[str, dict[str, Import]]
    _stars: Recorded[str, list[Import]]
    _toplevel: Recorded[str, dict[str, str]]
    _functions: Recorded[str, dict[str, str]]
    _visits: set[str] | None = None  # see ``resolve_visiting``

    def _abs_module(self, module: str, imp: Import) -> str:
        return absolute_module(module, bool(self._packages.get(module)), imp)

    def resolve(self, module: str, dotted: str, _depth: int = 0) -> str | None:
        """Qualified name of the project class ``dotted`` names in ``module``, else None."""
        r = self.resolve_any(module, dotted, _depth)
        return r.name if r and r.kind is NameKind.CLASS else None

    def resolve_visiting(self, module: str, dotted: str, visits: set[str]) -> str | None:
        """``resolve``, adding to ``visits`` every module whose names the resolution looked up: one
        whose visited modules still bind what they bound resolves as it did (with the same modules)."""
        self._visits = visits
        try:
            return self.resolve(module, dotted)
        finally:
            self._visits = None

    def canonical(self, module: str, dotted: str) -> str:
        """Best-effort fully qualified dotted name (through imports), also for external names."""
        r = self.resolve_any(module, dotted)
        if r is not None:
            return r.name
        head, _, rest = dotted.partition(".")
        imp = self.import_of(module, head)
        if imp is None:
            return dotted
        mod = self._abs_module(module, imp)
        full = f"{mod}.{imp.name}" if imp.name else (imp.module if imp.local != imp.module.split(".")[0] else imp.local)
        return full + ("." + rest if rest else "")

    def resolve_function(self, module: str, dotted: str) -> str | None:
        """Qualified name of the module-level project function ``dotted`` names in ``module``, else None."""
        r = self.resolve_any(module, dotted)
        return r.name if r and r.kind is NameKind.FUNCTION else None

    def resolve_any(self, module: str, dotted: str, _depth: int = 0) -> ResolvedName | None:
        """The class, function or module a dotted name as seen from ``module`` is."""
        if _depth > 20:
            return None
        head, _, rest = dotted.partition(".")
        target = self._lookup_name(module, head, _depth)
        if target is None:
            return None
        for part in rest.split(".") if rest else []:
            kind, name = target
            if kind is NameKind.MODULE:
                target = self._member(name, part, _depth + 1)
            elif kind is NameKind.CLASS:
                nested = f"{name}.{part}"
                if self._visits is not None:
                    self._visits.add(name)  # a module of the class's name would define ``nested`` too
                target = ResolvedName(NameKind.CLASS, nested) if nested in self.classes else None
            else:  # an attribute of a function
                target = None
            if target is None:
                return None
        return target

    def _lookup_name(self, module: str, name: str, depth: int) -> ResolvedName | None:
        if self._visits is not None:
            self._visits.add(module)
        local = self._toplevel.inner(module, name)
        if local:
            return ResolvedName(NameKind.CLASS, str(local))
        function = self._functions.inner(module, name)
        if function:
            return ResolvedName(NameKind.FUNCTION, str(function))
        imp = self.import_of(module, name)
        if imp is not None:
            if imp.name is None:  # import a.b [as m]
                target = imp.module if imp.local != imp.module.split(".")[0] or imp.local == imp.module else imp.local
                return ResolvedName(NameKind.MODULE, target) if self.is_module(target) else None
            base = self._abs_module(module, imp)
            return self._member(base, imp.name, depth + 1)
        for star in self._stars.get(module, []):
            base = self._abs_module(module, star)
            r = self._member(base, name, depth + 1)
            if r is not None:
                return r
        alias = self.constant_of(module, name)
        if alias is not None and alias[0] in (ExprTag.NAME, ExprTag.DOTTED) and alias[1] != name:  # ``P = Parent``
            return self.resolve_any(module, alias[1], depth + 1)
        return None

    def import_of(self, module: str, local: str) -> Import | None:
        """The import that binds ``local`` in ``module`` (``import *`` aside)."""
        found = self._imports.inner(module, local)
        return found if isinstance(found, Import) else None

    def constant_of(self, module: str, name: str) -> Expr | None:
        """The value of the module-level constant ``name`` of ``module``."""
        return self.constants.inner(module, name)  # type: ignore[return-value]

    def _member(self, module: str, name: str, depth: int) -> ResolvedName | None:
        sub = f"{module}.{name}" if module else name
        if self._visits is not None:
            self._visits.add(module)
        if module in self._packages:
            r = self._lookup_name(module, name, depth + 1) if depth < 20 else None
            if r is not None:
                return r
        if self.is_module(sub):
            return ResolvedName(NameKind.MODULE, sub)
        return None

    def is_module(self, name: str) -> bool:
        """A module of the project, or a package above one (``a.b`` when ``a.b.c`` is known)."""
        note(("prefix", name))
        return name in self.module_prefixes
