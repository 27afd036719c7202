"""Allocations made through project functions and methods, resolved project-wide.

A value recorded as a ``call`` (``make_layers(...)``, ``self.init_audio_module(...)``)
is followed to the function it reaches, a method through the MRO of the class under
analysis (so a subclass's override answers for ``self._build_head()`` in the parent's
``__init__``), and replaced by what that function returns: an allocation when every
``return`` of a value gives one, else nothing.  ``item`` takes one element of a
returned tuple (``self.layers, self.start, self.end = make_layers(...)``).  A ``field`` call
(``parts.proj(n)``, ``parts: AttnParts``) and a call of ``self.proj_cls`` that is no method build what the
class-typed field's declaration says (``proj: type[RowLinear]``; a bare ``type``: an unknown module), with
the call's arguments.  The depth is
bounded; anything unresolved is not an allocation.  Each step followed is kept for the
evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from deadinit.index.project_index import ProjectIndex
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.kinds import AllocKind, ExprTag, ParamKind
from deadinit.model.qualnames import short_name
from deadinit.model.summary import AllocInfo, Param, Returns

MAX_DEPTH = 4
FOLLOWED_KINDS = (AllocKind.CALL, AllocKind.ITEM, AllocKind.TUPLE)


@dataclass(frozen=True)
class Binding:
    """One call followed: the callee's parameters and the arguments the call passes, in the caller's terms."""

    params: tuple[Param, ...]
    call: AllocInfo  # the ``call`` allocation: ``args``, ``kwargs``, ``star_args``
    module: str  # the callee's module


@dataclass(frozen=True)
class Resolved:
    alloc: AllocInfo
    module: str  # the module whose names the allocation's expressions use
    steps: tuple[Evidence, ...] = ()  # the functions followed, outermost first
    bindings: tuple[Binding, ...] = ()  # the calls followed, outermost first: how to read the allocation's names


class ReturnResolver:
    def __init__(self, index: ProjectIndex) -> None:
        self.index = index

    def resolve(self, alloc: AllocInfo | None, module: str, mro: list[str] | None) -> Resolved | None:
        """The allocation ``alloc`` makes once the calls in it are followed; None when it makes none we know."""
        if alloc is None:
            return None
        got = self._alternatives(alloc, module, mro or [], 0)
        if not got:
            return None
        first = got[0]
        if first.alloc.kind == AllocKind.TUPLE:
            items = [i for i in first.alloc.items if i is not None and i.kind not in FOLLOWED_KINDS]
            if not items:
                return None
            n = len(first.alloc.items)
            container = AllocInfo("container", element=items[0], count=(ExprTag.CONST, n))
            return Resolved(container, first.module, first.steps, first.bindings)
        return first

    def _alternatives(self, alloc: AllocInfo, module: str, mro: list[str], depth: int) -> list[Resolved] | None:
        """What ``alloc`` may be, one entry per way it is made; None when one of them is not an allocation."""
        if alloc.kind == AllocKind.CALL:
            return self._call(alloc, module, mro, depth)
        if alloc.kind == AllocKind.FIELD:
            return self._field(alloc, module)
        if alloc.kind == AllocKind.ITEM:
            return self._item(alloc, module, mro, depth)
        if alloc.kind == AllocKind.TUPLE:
            items: list[AllocInfo | None] = []
            for it in alloc.items:
                sub = self._alternatives(it, module, mro, depth) if it is not None else None
                items.append(sub[0].alloc if sub and sub[0].alloc.kind != AllocKind.TUPLE else None)
            return [Resolved(AllocInfo("tuple", items=tuple(items)), module)]
        return [Resolved(alloc, module)]

    def _item(self, alloc: AllocInfo, module: str, mro: list[str], depth: int) -> list[Resolved] | None:
        if alloc.element is None or alloc.index is None:
            return None
        whole = self._alternatives(alloc.element, module, mro, depth)
        if whole is None:
            whole = self._tuples_only(alloc.element, module, mro, depth)
        if not whole:
            return None
        size = alloc.count[1] if alloc.count is not None and alloc.count[0] == ExprTag.CONST else None
        tuples = [w for w in whole if w.alloc.kind == AllocKind.TUPLE and (size is None or len(w.alloc.items) == size)]
        if not tuples:
            return None
        out = []
        for t in tuples:
            try:
                item = t.alloc.items[alloc.index]
            except IndexError:
                return None
            if item is None:
                return None
            out.append(Resolved(item, t.module, t.steps, t.bindings))
        return out

    def _tuples_only(self, alloc: AllocInfo, module: str, mro: list[str], depth: int) -> list[Resolved] | None:
        """For unpacking: the returns of a function that give a tuple (a return of one value could not be
        unpacked into the targets, as ``make_layers`` returns the bare list only when not asked for the tuple)."""
        if alloc.kind != AllocKind.CALL:
            return None
        target = self._function(alloc.callee, module, mro)
        if target is None:
            return None
        fmodule, label, returns, path = target
        binding = Binding(returns.params, alloc, fmodule)
        out: list[Resolved] = []
        for v in returns.values:
            if v is not None and v.kind == AllocKind.TUPLE:
                sub = self._alternatives(v, fmodule, mro, depth + 1)
                if sub is None:
                    return None
                out.extend(_step(r, label, path, returns.line, binding) for r in sub)
        return out or None

    def _call(self, alloc: AllocInfo, module: str, mro: list[str], depth: int) -> list[Resolved] | None:
        if depth >= MAX_DEPTH:
            return None
        target = self._function(alloc.callee, module, mro)
        if target is None:
            name = alloc.callee.removeprefix("self.")
            if name != alloc.callee and mro and self.index.resolve_method(mro, name) is None:
                return self._declared(mro, name, alloc)  # ``self.proj_cls(n)`` with ``proj_cls: type[X]``
            return None
        fmodule, label, returns, path = target
        out: list[Resolved] = []
        for v in returns.values:
            if v is not None and v.kind == AllocKind.PARAM_CALL:  # what the call's argument builds, in its terms
                built = _passed(v.member, returns.params, alloc)
                sub = self._alternatives(built, module, mro, depth + 1) if built is not None else None
            else:
                sub = self._alternatives(v, fmodule, mro, depth + 1) if v is not None else None
            if sub is None:
                out = []
                break
            out.extend(sub)
        if not out and returns.annotated is not None:
            out = self._alternatives(returns.annotated, fmodule, mro, depth + 1) or []
        if not out:
            return None
        binding = Binding(returns.params, alloc, fmodule)
        return [_step(r, label, path, returns.line, binding) for r in out]

    def _field(self, alloc: AllocInfo, module: str) -> list[Resolved] | None:
        """``parts.proj(n)`` with ``parts: AttnParts``: what the field's declaration (``proj: type[X]``, in
        ``AttnParts`` or a base) says calling its value builds."""
        qn = self.index.resolve(module, alloc.callee)
        if qn is None or qn not in self.index.classes:
            return None
        return self._declared(self.index.mro(qn) or [qn], alloc.member, alloc)

    def _declared(self, owners: list[str], member: str, alloc: AllocInfo) -> list[Resolved] | None:
        """What the first of ``owners`` that declares ``member`` a class-typed field says calling it builds."""
        index = self.index
        for owner in owners:
            declaring = index.classes[owner]
            built = declaring.field_builds.get(member)
            if built is None and member in declaring.class_attrs:
                return None  # set without a declaration (a subclass's ``proj_cls = Other``): not known
            if built is not None:
                what = f"`{built.callee}`" if built.callee else "a class it does not name (an unknown module)"
                label = f"{short_name(owner)}.{member}"
                line = declaring.class_attrs.get(member, declaring.line)
                step = Evidence(
                    EvidenceKind.DECLARED, f"`{label}` is declared to hold {what}", index.path_of(owner), line
                )
                fmodule = index.class_module[owner]
                # the class's arguments are the call's; read where the field is declared, which names the class
                made = replace(built, args=alloc.args, kwargs=alloc.kwargs, star_args=alloc.star_args)
                return [Resolved(made, fmodule, (step,), (Binding((), alloc, fmodule),))]
        return None

    def _function(self, callee: str, module: str, mro: list[str]) -> tuple[str, str, Returns, str] | None:
        """(module, label, returns, path) of the function or method ``callee`` reaches."""
        index = self.index
        if callee.startswith("self."):
            name = callee[5:]
            found = index.resolve_method(mro, name) if mro else None
            if found is None or found[1].returns is None:
                return None
            owner, method = found
            if method.is_property:
                return None
            assert method.returns is not None
            return index.class_module[owner], f"{short_name(owner)}.{name}", method.returns, index.path_of(owner)
        qn = index.resolve_function(module, callee)
        if qn is None or qn not in index.functions:
            outside = index.outside.function(module, callee) if qn is None else None  # an installed library's
            return tuple(outside) if outside is not None else None  # type: ignore[return-value]
        fmodule, name, returns = index.functions[qn]
        return fmodule, name, returns, index.paths[fmodule]


def _step(r: Resolved, label: str, path: str, line: int, binding: Binding) -> Resolved:
    what = _describe(r.alloc)
    step = Evidence(EvidenceKind.FOLLOWED, f"`{label}` returns {what}", path, line)
    return Resolved(r.alloc, r.module, (step, *r.steps), (binding, *r.bindings))


def _describe(alloc: AllocInfo) -> str:
    if alloc.kind == AllocKind.TUPLE:
        parts = [_describe(i) if i is not None else "a value" for i in alloc.items]
        return "a tuple of " + ", ".join(parts)
    if alloc.callee:
        return f"`{alloc.callee}(...)`" if alloc.kind != AllocKind.CONTAINER else f"a `{alloc.callee}`"
    return f"a {alloc.kind}"


def _passed(param: str, params: tuple[Param, ...], call: AllocInfo) -> AllocInfo | None:
    """What calling the argument ``call`` passes for the positional parameter ``param`` builds."""
    for i, p in enumerate(params):
        if p.kind not in (ParamKind.POSONLY, ParamKind.NORMAL):
            return None
        if p.name == param:
            return call.arg_builds[i] if i < len(call.arg_builds) else None
    return None
