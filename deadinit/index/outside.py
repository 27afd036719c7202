"""What the project index asks of code outside the project: the installed libraries
(``deadinit.installed`` answers; without them, ``NO_OUTSIDE`` knows nothing).

Names are as seen from a module, project or library: a project module's names go through its
imports, a library module's through the library's own.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from deadinit.model.summary import Returns


class OutsideFunction(NamedTuple):
    module: str  # the module whose names ``returns`` uses
    label: str  # how evidence names it
    returns: Returns
    path: str


class OutsideClass(NamedTuple):
    qualname: str  # where the installed library defines it
    kind: str | None  # what constructing it allocates (an ``AllocKind``), None: nothing known to count


class Outside(Protocol):
    def ancestors(self, name: str) -> frozenset[str]:
        """The canonical names of what the outside class ``name`` derives from (itself included);
        empty when it is no class an installed library defines."""
        ...

    def constructed(self, module: str, dotted: str) -> OutsideClass | None:
        """The installed class ``dotted`` names in ``module``, and what constructing it allocates."""
        ...

    def function(self, module: str, dotted: str) -> OutsideFunction | None:
        """What the function ``dotted`` names in ``module`` returns, when an installed library (or a
        registry's ``build``) says."""
        ...

    def registered(self, registry: str) -> tuple[str, ...]:
        """The project classes registered into the registry object ``registry`` (its canonical name)."""
        ...


class _Nothing:
    def ancestors(self, name: str) -> frozenset[str]:
        return frozenset()

    def constructed(self, module: str, dotted: str) -> OutsideClass | None:
        return None

    def function(self, module: str, dotted: str) -> OutsideFunction | None:
        return None

    def registered(self, registry: str) -> tuple[str, ...]:
        return ()


NO_OUTSIDE: Outside = _Nothing()
