"""Whether a registered submodule may be what a guarded walk hands out (``ObjectWalk.GUARDED``).

A walk over submodules whose visited module leaves only under ``isinstance(child, G)``, and is
otherwise handed to the walker's own recursion, uses a member of the class it walks when the member
may be a ``G``, or when the recursion may find a ``G`` inside it.  A member is known not to be one
when its class is known: a project class without ``G`` in its MRO whose bases outside the project
are known ``torch.nn`` classes other than ``G`` (``analysis.liveness.torch_layers``), or such a
``torch.nn`` layer; and known to hold none when it is a ``torch.nn`` layer without submodules, or a
project class whose ``__init__`` chain registers only submodules known the same way (three levels
deep; a module container by what it is built with, unless the chain fills it with anything else).
Anything else (a factory's value, a guard that names no class) may be one: the walk reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deadinit.analysis.fact_records import Analysis
from deadinit.analysis.facts import allocation_of
from deadinit.analysis.flow.chain import ChainStmt, init_chain
from deadinit.analysis.liveness.torch_layers import is_leaf, known_ancestors, torch_name
from deadinit.model.kinds import AllocKind, InitStmtKind, NameKind
from deadinit.model.summary import AllocInfo
from deadinit.semantics.alloc import MODULE_CONTAINERS

_DEPTH = 3
Registered = Callable[[str, AllocInfo | None, str], bool]  # (kind, alloc, module): a registered submodule


@dataclass(frozen=True)
class _Guard:
    project: str | None  # the project class the guard names
    outside: str | None  # ... or the canonical name of a class outside the project


class GuardCheck:
    """Whether a member may be an instance of a guard's class, or hold one (above); answers kept for
    the one class analysed."""

    def __init__(self, an: Analysis, registered: Registered) -> None:
        self.an = an
        self.registered = registered
        self._memo: dict[tuple[str, _Guard, int], bool] = {}

    def may_hand_out(self, alloc: AllocInfo, module: str, guard: tuple[str, ...], guard_module: str) -> bool:
        """Whether the member ``alloc`` builds (names as in ``module``) may be, or hold, an instance of a
        class of ``guard`` (names as in ``guard_module``)."""
        for name in guard:
            g = self._guard(name, guard_module)
            if g is None or self._alloc_may(alloc, module, g, _DEPTH):
                return True
        return False

    def _guard(self, name: str, module: str) -> _Guard | None:
        index = self.an.index
        found = index.resolve_any(module, name)
        if found is not None:  # a project class, or another value of the project (a tuple of classes...)
            return _Guard(found.name, None) if found.kind == NameKind.CLASS and found.name in index.classes else None
        imp = index.import_of(module, name.split(".")[0])
        if imp is None or imp.level != 0:
            return None
        full = index.canonical(module, name)
        if index.is_module(full.split(".")[0]):  # the project's, unresolved: not known
            return None
        return _Guard(None, torch_name(full) or full)

    def _alloc_may(self, alloc: AllocInfo | None, module: str, g: _Guard, depth: int) -> bool:
        if alloc is None or not alloc.callee or depth < 0:
            return True
        index = self.an.index
        last = alloc.callee.rsplit(".", 1)[-1]
        if alloc.kind == AllocKind.CONTAINER and last in MODULE_CONTAINERS:
            return (g.outside is not None and g.outside.endswith("." + last)) or self._alloc_may(
                alloc.element, module, g, depth - 1
            )
        qn = index.resolve(module, alloc.callee)
        if qn is not None:
            return qn not in index.classes or self._project_may(qn, g, depth)
        full = index.canonical(module, alloc.callee)
        known = known_ancestors(full)
        if known is None or not is_leaf(full):
            return True
        return g.outside is not None and g.outside in known

    def _project_may(self, qn: str, g: _Guard, depth: int) -> bool:
        key = (qn, g, depth)
        if key not in self._memo:
            self._memo[key] = True  # a construction cycle: unsure
            self._memo[key] = self._project_may_of(qn, g, depth)
        return self._memo[key]

    def _project_may_of(self, qn: str, g: _Guard, depth: int) -> bool:
        index = self.an.index
        mro = index.mro(qn)
        if mro is None or (g.project is not None and g.project in mro):
            return True
        for b in index.external_bases(qn):
            known = known_ancestors(b.name)
            if known is None or (g.outside is not None and g.outside in known):
                return True
        if depth == 0:
            return True
        chain = init_chain(index, qn)
        if chain.broken is not None:
            return True
        events = [c for c in chain.stmts if c.active is not False]
        unknown = unknown_fills(self.an, events, mro)
        for c in events:
            if c.stmt.attr is None or c.stmt.kind not in (InitStmtKind.ASSIGN, InitStmtKind.FILL):
                continue
            found = allocation_of(self.an, c, mro)
            if found is None or not self.registered(found.kind, found.alloc, found.module):
                continue
            alloc = None if c.stmt.attr in unknown else found.alloc
            if self._alloc_may(alloc, found.module, g, depth - 1):
                return True
        return False


def unknown_fills(an: Analysis, events: list[ChainStmt], mro: list[str]) -> frozenset[str]:
    """The attributes a chain fills (``self.xs.append(v)``, ``self.xs[k] = v``) with something that is no
    known allocation: what their containers hold is not known."""
    return frozenset(
        c.stmt.attr
        for c in events
        if c.stmt.kind == InitStmtKind.FILL and c.stmt.attr is not None and allocation_of(an, c, mro) is None
    )
