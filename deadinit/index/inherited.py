"""What a class inherits along its MRO (class values, methods, hierarchy roots, bases outside the
project), kept per class and built from its one base's entry where it has one, so that a class
deep in a chain costs its own definitions, not its whole MRO again."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from deadinit.index.dependencies import Memo, Recorded
from deadinit.model.kinds import BaseKind
from deadinit.model.summary import ClassSummary, Expr, MethodSummary

V = TypeVar("V")
Methods = dict[str, tuple[str, MethodSummary]]  # method name -> (owner, method) it resolves to


@dataclass(frozen=True)
class Base:
    kind: BaseKind
    name: str  # qualname for project classes, canonical dotted name otherwise


class InheritedTables:
    """``ProjectIndex``'s per-class tables of what the MRO gives, over its class graph."""

    classes: Recorded[str, ClassSummary]
    _class_values: Memo[str, dict[str, Expr]]
    _methods_on: Memo[str, Methods]
    _roots: Memo[str, tuple[str, ...]]
    _defining: Memo[str, tuple[str, ...]]

    def bases(self, qualname: str) -> list[Base]:
        raise NotImplementedError  # the index's

    def mro(self, qualname: str) -> list[str] | None:
        raise NotImplementedError  # the index's

    def one_base(self, qualname: str) -> str | None:
        """The project base of a class with exactly one and an MRO: its MRO is then the class followed by
        the base's (C3 over one sequence), so what a class inherits can be built from the base's."""
        names = [b.name for b in self.bases(qualname) if b.kind == BaseKind.CLASS]
        return names[0] if len(names) == 1 and self.mro(qualname) is not None else None

    def _inherited(self, memo: Memo[str, V], qualname: str, build: Callable[[str, V | None], V]) -> V:
        """``memo``'s entry for ``qualname``: ``build(q, parent)`` with the entry of ``q``'s one base, or
        None to build it from ``q``'s MRO.  The classes above along one-base links come first, each
        after its base, iteratively: a chain thousands deep costs one step per class, no recursion."""
        if qualname in memo:
            return memo[qualname]
        todo: list[str] = []
        q: str | None = qualname
        while q is not None and q not in memo:
            todo.append(q)
            q = self.one_base(q)
        value: V | None = None
        for c in reversed(todo):
            value = memo.get_or(c, functools.partial(self._build, memo, c, build))
        return value  # type: ignore[return-value]

    def _build(self, memo: Memo[str, V], qualname: str, build: Callable[[str, V | None], V]) -> V:
        parent = self.one_base(qualname)  # read inside the entry's recording: its keys are the entry's too
        return build(qualname, memo[parent] if parent is not None and parent in memo else None)

    def class_values(self, mro: list[str]) -> dict[str, Expr]:
        """Class attributes an instance with this MRO sees: the nearest class that sets each one."""
        out: dict[str, Expr] = {}
        for qn in reversed(mro):
            self._set_class_values(out, qn)
        return out

    def _set_class_values(self, out: dict[str, Expr], qualname: str) -> None:
        """What the class ``qualname`` sets over those of the classes above it in ``out``."""
        c = self.classes[qualname]
        for name in c.class_attrs:
            out.pop(name, None)  # an annotation or a value we cannot read hides what is above
        out.update(c.class_values)

    def class_values_of(self, qualname: str) -> dict[str, Expr]:
        """``class_values`` of the class's MRO, kept per class (read only)."""
        return self._inherited(self._class_values, qualname, self._class_values_from)

    def _class_values_from(self, qualname: str, parent: dict[str, Expr] | None) -> dict[str, Expr]:
        if parent is None:
            return self.class_values(self.mro(qualname) or [qualname])
        out = dict(parent)
        self._set_class_values(out, qualname)
        return out

    def methods_on(self, qualname: str) -> Methods:
        """Each method name defined on the class's MRO -> what ``resolve_method`` finds for it there, in
        the order of the names' first definitions along the MRO; kept per class (read only)."""
        return self._inherited(self._methods_on, qualname, self._methods_from)

    def _methods_from(self, qualname: str, parent: Methods | None) -> Methods:
        if parent is not None:
            out = {name: (qualname, m) for name, m in self.classes[qualname].methods.items()}
            out.update((name, r) for name, r in parent.items() if name not in out)
            return out
        found: Methods = {}
        for qn in self.mro(qualname) or [qualname]:
            for name, m in self.classes[qn].methods.items():
                found.setdefault(name, (qn, m))
        return found

    def roots_of(self, qualname: str) -> tuple[str, ...]:
        """The classes of the MRO without a project base (the hierarchy's roots), in MRO order."""
        return self._inherited(self._roots, qualname, self._roots_from)

    def _roots_from(self, qualname: str, parent: tuple[str, ...] | None) -> tuple[str, ...]:
        if parent is not None:
            return parent  # a class with a project base is no root
        mro = self.mro(qualname) or [qualname]
        return tuple(qn for qn in mro if not any(b.kind == BaseKind.CLASS for b in self.bases(qn)))

    def defining(self, qualname: str) -> tuple[str, ...]:
        """The classes of the MRO that define more than an ``__init__`` (another method, a class
        attribute, a base outside the project), in MRO order: the others add nothing to what a walk of
        the MRO's methods, class attributes and outside bases finds."""
        return self._inherited(self._defining, qualname, self._defining_from)

    def _defining_from(self, qualname: str, parent: tuple[str, ...] | None) -> tuple[str, ...]:
        if parent is None:
            return tuple(qn for qn in self.mro(qualname) or [qualname] if self._defines_more(qn))
        return (qualname, *parent) if self._defines_more(qualname) else parent

    def _defines_more(self, qualname: str) -> bool:
        c = self.classes[qualname]
        return (
            bool(c.class_attrs)
            or any(name != "__init__" for name in c.methods)
            or any(b.kind != BaseKind.CLASS for b in self.bases(qualname))
        )
