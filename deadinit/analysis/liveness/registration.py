"""How an ``nn.Module`` holds what its ``__init__`` binds, and the attributes its own walks read.

One owner for "registered": a binding of a module (or a module container), an
``nn.Parameter`` or a ``register_buffer`` tensor on a class that is an ``nn.Module``.  The
fix level asks it whether a fix removes a checkpoint key; the liveness asks it which
attributes a walk such as ``self.named_children()`` (``semantics.walks``) reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from deadinit.analysis.fact_records import Analysis
from deadinit.analysis.facts import allocation_of
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.analysis.liveness.walk_guards import GuardCheck, unknown_fills
from deadinit.index.dependencies import note
from deadinit.index.project_index import ProjectIndex
from deadinit.model.access import Access, ObjectWalk
from deadinit.model.kinds import AllocKind, InitStmtKind
from deadinit.model.qualnames import short_name
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo
from deadinit.semantics.alloc import MODULE_CONTAINERS
from deadinit.semantics.walks import OBJECT_WALKS, Registration, walk_reaches

_BY_KIND = {
    AllocKind.MODULE: Registration.MODULE,
    AllocKind.PARAMETER: Registration.PARAMETER,
    AllocKind.BUFFER: Registration.BUFFER,
}
REGISTERED_KINDS = frozenset(_BY_KIND)
_PARAMETER_CONTAINERS = frozenset({"ParameterList", "ParameterDict"})

Walks = list[tuple[str, str, str, int]]  # (owner, method, walk, line): ``Reach.walks``


def registration(
    index: ProjectIndex, settings: Settings, kind: str, alloc: AllocInfo | None, module: str
) -> Registration | None:
    """How a binding of ``kind`` (the analysis' class of ``alloc``, made in ``module``) is registered
    on an ``nn.Module``; None when it is not (a plain tensor, a list, a scalar...)."""
    if kind in REGISTERED_KINDS:
        return _BY_KIND[AllocKind(kind)]
    if alloc is None:
        return None
    last = alloc.callee.rsplit(".", 1)[-1] if alloc.callee else ""
    if alloc.kind == AllocKind.CONTAINER and last in MODULE_CONTAINERS:
        return Registration.PARAMETER if last in _PARAMETER_CONTAINERS else Registration.MODULE
    if alloc.callee:  # a project class named like a heavy object that is an ``nn.Module`` too
        qn = index.resolve(module, alloc.callee)
        if qn is not None and index.derives_from_external(qn, settings.module_bases):
            return Registration.MODULE
    return None


def walked(
    an: Analysis, cls: str, mro: list[str], events: list[ChainStmt], walkers: Iterable[tuple[str, Walks]]
) -> dict[str, str]:
    """attribute -> why, for the attributes the chain registers that a reachable walk of ``self``
    reads (``walkers``: (the class it runs on, its reachable walks) for ``cls`` and each subclass).
    A walk in a weight loader (``Settings.weight_loaders``) looks parameters up to load into
    them: not a read.  Then a walk over another object that may hold ``cls`` (``_OutsideWalks``)."""
    if not an.index.derives_from_external(cls, an.settings.module_bases):
        return {}
    walks = [
        (walk_reaches(walk), on, owner, method, walk, line)
        for on, found in walkers
        for owner, method, walk, line in found
        if method not in an.settings.weight_loaders
    ]
    outside = _OutsideWalks(an, cls, events, mro)
    out: dict[str, str] = {}
    for c in events:
        attr = c.stmt.attr
        if attr is None or attr in out or c.stmt.kind not in (InitStmtKind.ASSIGN, InitStmtKind.FILL):
            continue
        found_alloc = allocation_of(an, c, mro)
        if found_alloc is None:
            continue
        held = registration(an.index, an.settings, found_alloc.kind, found_alloc.alloc, found_alloc.module)
        if held is None:
            continue
        for reaches, on, owner, method, walk, line in walks:
            if held in reaches:
                where = "" if on == cls else f" on subclass {short_name(on)}"
                out[attr] = f"read by the walk self.{walk}() in {short_name(owner)}.{method} (line {line}){where}"
                break
        else:
            why = outside.why(held, attr, found_alloc.alloc, found_alloc.module)
            if why is not None:
                out[attr] = why
    return out


class _OutsideWalks:
    """The first walk over another object that may hold the class (``semantics.walks.OBJECT_WALKS``:
    ``dict(model.named_children())`` in a function outside it) reaching each registration; as on
    ``self``, a walk in a function that gives nothing back acts on each element (``ObjectWalk.ACTS``)
    and one in a weight loader loads into what it looks up: neither reads.  A walk whose elements leave
    only under an ``isinstance`` guard (``ObjectWalk.GUARDED``) reads a member that may be, or hold, an
    instance of the guard's class (``analysis.liveness.walk_guards``).  Each walk's reads are taken from
    the reads table the first time a registration it reaches is asked about."""

    def __init__(self, an: Analysis, cls: str, events: list[ChainStmt], mro: list[str]) -> None:
        self.an = an
        self.cls = cls
        self.events, self.mro = events, mro
        self._unknown: frozenset[str] | None = None
        self._first: dict[str, str | None] = {}
        self._guarded: dict[str, list[tuple[Access, str, str]]] = {}
        self.guards = GuardCheck(an, lambda kind, alloc, module: _is_submodule(an, kind, alloc, module))

    def why(self, held: Registration, attr: str, alloc: AllocInfo | None, module: str) -> str | None:
        walks = [walk for walk, reaches in OBJECT_WALKS.items() if held in reaches]
        for walk in walks:  # a walk that gives its elements back reads every one
            got = self._first[walk] if walk in self._first else self._first.setdefault(walk, self._find(walk))
            if got is not None:
                return got
        for walk in walks:
            got = self._guarded_why(walk, attr, alloc, module)
            if got is not None:
                return got
        return None

    def _guarded_why(self, walk: str, attr: str, alloc: AllocInfo | None, module: str) -> str | None:
        """Why a guarded walk ``walk`` reads ``attr``: it may hand out what ``alloc`` builds."""
        if walk not in self._guarded:
            self._guarded[walk] = self._holding(walk, ObjectWalk.GUARDED)
        for a, mod, why in self._guarded[walk]:
            if self._unknown is None:
                self._unknown = unknown_fills(self.an, self.events, self.mro)
            if alloc is None or attr in self._unknown or self.guards.may_hand_out(alloc, module, a.guard, mod):
                return why
        return None

    def _find(self, walk: str) -> str | None:
        found = self._holding(walk, ObjectWalk.GIVES_BACK, first=True)
        return found[0][2] if found else None

    def _holding(self, walk: str, kind: ObjectWalk, first: bool = False) -> list[tuple[Access, str, str]]:
        """The walks ``walk`` of ``kind`` outside a weight loader whose receiver may hold the class, with
        why each reads (only the first one with ``first``)."""
        ext, loaders = self.an.ext, self.an.settings.weight_loaders
        out = []
        for i, (a, mod) in enumerate(ext.by_attr.get(walk, [])):
            if a.walk is not kind or a.in_function in loaders:
                continue
            ok, reason = ext.could_hold(a, mod, self.cls)
            if ok:
                note(("attr_line", (walk, i)))  # the why names the walk's line
                called = "" if walk.startswith("_") else "()"
                where = f"{self.an.index.paths[mod]}:{a.line}"
                guarded = f" (a guarded walk: the member may be a {' or '.join(a.guard)})" if a.guard else ""
                out.append((a, mod, f"read by the walk `{a.receiver}.{walk}{called}` at {where}: {reason}{guarded}"))
                if first:
                    break
        return out


def _is_submodule(an: Analysis, kind: str, alloc: AllocInfo | None, module: str) -> bool:
    return registration(an.index, an.settings, kind, alloc, module) is Registration.MODULE
