"""A parameter the parent already has for the allocation: pass it instead of adding a flag.

``def __init__(self, dim, use_post_norm: bool = True): ... if use_post_norm: self.post_norm
= LayerNorm(dim)``: when the subclass never uses ``post_norm``, the parent already offers
the switch.  The skip-flag fix then passes ``use_post_norm=False`` from the subclass's
``super().__init__`` call and edits nothing else.

The parameter is reused only when that keeps every other behaviour: it is a plain
parameter of the top ``__init__`` whose default is ``True``; the subclass calls that
``__init__`` directly and does not pass it already; ``if <param>:`` at the top level of the
body builds only attributes the group skips (its ``else``, if any, only assigns them);
every dead attribute of that class is built there; and the parameter is read nowhere else
(not stored, not forwarded, not tested again).
"""

from __future__ import annotations

from deadinit.analysis.analyzer import ClassAnalysis
from deadinit.fixes.init_units import InitBody, InitUnit, UnitKind, walk_units
from deadinit.fixes.skip_flag.groups import Group
from deadinit.fixes.skip_flag.source import InitLocator
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import ExprTag, ParamKind
from deadinit.semantics import syntax as sx


def guard_parameter(index: ProjectIndex, inits: InitLocator, g: Group, an: ClassAnalysis) -> str | None:
    """The parameter of ``g.top``'s ``__init__`` to pass ``False`` to instead of a new flag, if any."""
    if len(g.path) != 2 or g.reuse or g.refusal:
        return None
    top = g.top
    dead = g.dead.get(top) or set()
    if not dead or any(attrs for owner, attrs in g.dead.items() if owner != top):
        return None
    method = index.classes[top].methods.get("__init__")
    src = inits.init(top)
    if method is None or src is None:
        return None
    _, call, _ = an.chain.calls[top]
    passed = {k for k, _ in call.kwargs}
    positional = [p.name for p in method.params if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL)]
    for p in method.params:
        if p.default != (ExprTag.CONST, True) or p.kind not in (ParamKind.NORMAL, ParamKind.KWONLY) or p.name in passed:
            continue
        if p.name in positional and positional.index(p.name) < len(call.args):
            continue
        if _guards_exactly(src, p.name, dead):
            return p.name
    return None


def _guards_exactly(src: InitBody, param: str, dead: set[str]) -> bool:
    guard = next((u for u in src.units if u.kind == UnitKind.IF and _tests_name(u, param)), None)
    if guard is None or not guard.blocks:
        return False
    body = list(walk_units(guard.blocks[0]))
    orelse = [v for block in guard.blocks[1:] for v in walk_units(block)]
    if not all(_builds_only(v, dead) for v in body) or not all(_builds_only(v, dead) for v in orelse):
        return False
    if any(v.kind == UnitKind.IF and not v.can_wrap for v in orelse):  # an ``elif`` tests something else
        return False
    built = {a for v in body for a in (*v.self_assigns, *v.self_fills)}
    if not dead <= built:
        return False
    inside = {id(v) for v in (guard, *body, *orelse)}
    outside = [v for v in walk_units(src.units) if id(v) not in inside]
    bound = {n for v in (*body, *orelse) for n in v.names_bound}
    if any(param in v.names_read or bound & v.names_read for v in outside):
        return False
    if any(dead & set(v.self_assigns) or dead & v.self_fills for v in outside):
        return False
    return not any(param in f.names_read for v in (*body, *orelse) for f in v.statements)


def _tests_name(u: InitUnit, name: str) -> bool:
    test = getattr(u.statements[0].stmt, "test", None)
    return isinstance(test, sx.Name) and test.id == name


def _builds_only(u: InitUnit, dead: set[str]) -> bool:
    """The unit builds attributes of ``dead`` and does nothing else that could be seen."""
    own = [f for f in u.statements]
    if u.untracked_writes or any(f.init_call is not None or f.calls_self_method for f in own):
        return False
    return set(u.self_assigns) <= dead and u.self_fills <= dead
