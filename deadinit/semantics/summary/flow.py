"""What ``SummaryBuilder`` records of the classes values flow with: local variables (every binding
counts: a name bound twice holds what either binding holds, a name bound to something unknown
is unknown), loop variables over collections whose elements are known, and, per class, the
elements of the collections its ``self.a`` attributes hold (assignments, fills such as
``self.a.append(B(...))``, annotations such as ``list[B]``).  What an expression holds is
decided in ``deadinit.semantics.elements``."""

from __future__ import annotations

from deadinit.model.summary import ClassSummary
from deadinit.semantics import syntax as sx
from deadinit.semantics.annotations import annotation_elements, annotation_types
from deadinit.semantics.effects import self_targets
from deadinit.semantics.elements import ELEMENT_ADDERS, ELEMENT_OF, Types, ValueTyping, union
from deadinit.semantics.exprs import self_attr
from deadinit.semantics.init.rebound import defaulted
from deadinit.semantics.summary.mangling import mangled
from deadinit.semantics.summary.scope import BuilderState, FunctionScope


class FlowTyping(BuilderState):
    def typing(self, ctx: FunctionScope) -> ValueTyping:
        """How expressions of ``ctx``'s function are typed (made once: it reads the locals as they are then)."""
        if ctx.typing is None:
            ctx.typing = self._typing(ctx)
        return ctx.typing

    def _typing(self, ctx: FunctionScope) -> ValueTyping:
        types, elements = ctx.types, ctx.elements  # not ``ctx``, which holds the typing: no reference cycle

        def local_types(name: str) -> tuple[bool, Types | None]:
            return name in types, types.get(name)

        def local_elements(name: str) -> tuple[bool, Types | None]:
            return name in types, elements.get(name)

        return ValueTyping(ctx.self_name, self.canon, local_types, local_elements)

    # -- local variables ---------------------------------------------------------------
    def bind_local(self, ctx: FunctionScope, name: str, types: Types | None, elements: Types | None) -> None:
        """One more binding of ``name``: it holds what this one or an earlier one binds."""
        ctx.open.discard(name)
        if name in ctx.declared:
            return  # an annotated variable holds what its annotation says, whatever it is bound to
        if name in ctx.types:
            types, elements = union(ctx.types[name], types), union(ctx.elements.get(name), elements)
        ctx.types[name] = types
        ctx.elements[name] = elements

    def bind_value(self, ctx: FunctionScope, name: str, value: sx.Expr) -> None:
        typing = self.typing(ctx)
        default = defaulted(value, name) if name in ctx.open else None
        if default is not None:  # ``spec = spec or Spec()``: the open parameter holds what its default builds
            ctx.open.discard(name)
            ctx.types[name], ctx.elements[name] = typing.value(default), typing.elements(default)
            return
        self.bind_local(ctx, name, typing.value(value), typing.elements(value))

    def declare_local(self, ctx: FunctionScope, name: str, annotation: sx.Expr | None) -> None:
        """A parameter or an annotated local: the annotation governs every binding; none: unknown."""
        ctx.types[name] = annotation_types(annotation, self.parse) if annotation is not None else None
        ctx.elements[name] = annotation_elements(annotation, self.parse) if annotation is not None else None
        if annotation is not None:
            ctx.declared.add(name)

    def never_typed(self, ctx: FunctionScope, name: str) -> None:
        """A name whose bindings are not all in the function (``global x``, ``nonlocal x``): unknown."""
        ctx.types[name] = ctx.elements[name] = None
        ctx.declared.add(name)

    def bind_loop(self, ctx: FunctionScope, target: sx.Expr, iterable: sx.Expr) -> None:
        for name, types, elements in self.typing(ctx).loop_bindings(target, iterable):
            self.bind_local(ctx, name, types, elements)

    def bind_unknown(self, ctx: FunctionScope | None, target: sx.Node | None) -> None:
        """``with ... as x``, ``except E as x``, ``(x := ...)``: bound to something this model does not type."""
        if ctx is None or target is None:
            return
        if isinstance(target, sx.Name):
            self.bind_local(ctx, target.id, None, None)
        elif isinstance(target, (sx.Sequence, sx.Starred)):
            for el in target.elts if isinstance(target, sx.Sequence) else (target.value,):
                self.bind_unknown(ctx, el)

    # -- what self.a holds -------------------------------------------------------------
    def self_attr_assigned(self, ctx: FunctionScope, target: sx.Expr, value: sx.Expr | None) -> None:
        """``self.a = <value>`` in a method: the class ``a`` holds, and the elements of its collection; once
        every binding of the function's locals is known.  No value: bound to something not typed."""
        attr = self_attr(target, ctx.self_name)
        cls = self.classes[-1]
        if attr is None or value is None:
            for a in self_targets(target, ctx.self_name):  # ``self.a, self.b = ...``
                cls.attr_unknown.add(a)
                cls.attr_elements_unknown.add(a)
            return
        if isinstance(value, sx.Name) and value.id == "None":
            return

        def record() -> None:
            typing = self.typing(ctx)
            made = typing.value(value)
            if made is not None:
                cls.attr_types.setdefault(attr, []).extend(made)
            else:
                cls.attr_unknown.add(attr)
            _add_elements(cls, attr, typing.collection(value))

        ctx.deferred.append(record)

    def self_attr_annotated(self, attr: str, annotation: sx.Expr) -> None:
        got = annotation_elements(annotation, self.parse)
        if got is not None:
            self.classes[-1].attr_elements_declared.setdefault(attr, []).extend(got)

    def filled(self, ctx: FunctionScope | None, call: sx.Call) -> None:
        """``<receiver>.append(v)`` and the other methods that add to a collection."""
        func = call.func
        if not isinstance(func, sx.Attribute) or func.attr not in ELEMENT_ADDERS:
            return
        position, iterable = ELEMENT_ADDERS[func.attr]
        value = call.args[position].value if len(call.args) > position else None
        if any(a.keyword or a.star for a in call.args):
            value = None
        self.stored_into(ctx, func.value, value, iterable)

    def stored_into(self, ctx: FunctionScope | None, receiver: sx.Expr, value: sx.Expr | None, many: bool) -> None:
        """The collection ``receiver`` gains ``value`` (``many``: the elements of ``value``; None: unknown)."""
        attr = self_attr(receiver, ctx.self_name) if ctx is not None and ctx.self_name else None
        if attr is not None and self.classes and ctx is not None and ctx.method is not None:
            cls = self.classes[-1]

            def record() -> None:
                typing = self.typing(ctx)
                added = None if value is None else typing.collection(value) if many else typing.value(value)
                _add_elements(cls, attr, added)

            ctx.deferred.append(record)
        elif isinstance(receiver, sx.Attribute):  # ``obj.a.append(v)``: ``a`` may be any class's collection
            self.s.element_writes.add(mangled(self.classes[-1].name if self.classes else "", receiver.attr))
        elif ctx is not None and isinstance(receiver, sx.Name) and self.classes:  # ``items = self.a; items.append(v)``
            cls = self.classes[-1]
            for ref in ctx.elements.get(receiver.id) or ():
                if ref.dotted.startswith("self.") and ref.dotted.endswith(ELEMENT_OF):
                    _add_elements(cls, ref.dotted[5 : -len(ELEMENT_OF)], None)


def _add_elements(cls: ClassSummary, attr: str, got: Types | None) -> None:
    if got is None:
        cls.attr_elements_unknown.add(attr)
    elif got:
        known = cls.attr_elements.setdefault(attr, [])
        known.extend(t for t in got if t not in known)
