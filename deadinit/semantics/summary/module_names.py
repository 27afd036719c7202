"""Which receivers of ``recv.attr`` are modules: ``pkg.layers.mlp`` after ``import pkg.layers``.

Such an access reads an attribute of a module, never of an object, so it is not a read of
any class's attribute.  A receiver counts as a module when its first name is bound in the
file only by ``import a.b`` / ``import a.b as m`` (no ``from`` import, assignment, loop
target, definition or parameter binds it) and no enclosing function binds it locally.
"""

from __future__ import annotations

from collections.abc import Iterable

from deadinit.model.access import Access


class ModuleNames:
    def __init__(self) -> None:
        self.imported: set[str] = set()  # names bound by ``import a.b [as m]``
        self.other: set[str] = set()  # names bound at module level some other way
        self.candidates: list[tuple[int, str]] = []  # (access index, receiver's first name)

    def plain_import(self, name: str, asname: str | None) -> None:
        self.imported.add(asname if asname is not None else name.split(".")[0])

    def bound_otherwise(self, name: str) -> None:
        self.other.add(name)

    def candidate(self, index: int, receiver: str, local_scopes: Iterable[set[str]]) -> None:
        """An access about to be stored at ``index``; ``local_scopes`` are the names enclosing functions bind."""
        if receiver == "<expr>" or receiver.endswith("..."):
            return
        root = receiver.partition(".")[0]
        for scope in local_scopes:
            if root in scope:
                return
        self.candidates.append((index, root))

    def mark(self, accesses: list[Access]) -> None:
        modules = self.imported - self.other
        for i, root in self.candidates:
            if root in modules:  # the access is the builder's own, not yet shared: set in place (no copy)
                object.__setattr__(accesses[i], "on_module", True)
