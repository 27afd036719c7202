"""One pass over a module's syntax tree, producing its ``FileSummary``.

Facts are recorded in source order: imports and module constants, classes with
their bases and methods (``self.x`` reads and writes, ``super()`` and
``Parent.m(self)`` calls, dynamic access, the flattened ``__init__``), ``obj.x``
reads with what is known of the receiver's class, constructor calls and
``isinstance`` checks.  Private names are mangled as the compiler does, once,
here.

The walk's state is in ``scope``, what it records of expressions in
``expressions``, of imports in ``imports``, of statements that bind or remove
names in ``bindings``; the walk itself (``_RECORDS``: what it does at each kind of
node), classes and functions are here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from deadinit.model.access import Access, ObjectWalk
from deadinit.model.kinds import InitStmtKind
from deadinit.model.summary import ClassSummary, FileSummary, MethodSummary, Returns
from deadinit.semantics import syntax as sx
from deadinit.semantics.annotations import annotation_types
from deadinit.semantics.construction_args import param_flow
from deadinit.semantics.exprs import dotted
from deadinit.semantics.init.flow import InitFlattener
from deadinit.semantics.init.rebound import open_param
from deadinit.semantics.loaders.skips import skips_unknown_weights
from deadinit.semantics.raises import method_checks
from deadinit.semantics.returns import ReturnsInference, generator_mark, returns_value
from deadinit.semantics.stubs import is_stub
from deadinit.semantics.summary.bindings import BindingFacts
from deadinit.semantics.summary.imports import ImportFacts
from deadinit.semantics.summary.mangling import mangle_file
from deadinit.semantics.summary.outside_uses import outside_uses
from deadinit.semantics.summary.scope import (
    CLASS_SCOPE,
    FUNCTION_SCOPE,
    FunctionScope,
    decorator_names,
    followable,
    signature_param,
)
from deadinit.semantics.walk_elements import Guard, WalkAt, staying_walks


class SummaryBuilder(BindingFacts, ImportFacts):
    def build(self, module: sx.Module) -> FileSummary:
        for st in module.body:
            self.visit(st)
        self.module_names.mark(self.reads)
        for name, n in self.module_defs.items():
            if n > 1:  # defined twice: which one a call reaches depends on the path taken
                self.s.functions.pop(name, None)
                self.s.return_types.pop(name, None)
        mangle_file(self.s)
        self.s.outside = outside_uses(self.s)
        return self.s

    # -- traversal ---------------------------------------------------------------
    def visit(self, node: sx.Node) -> None:
        t = type(node)
        record = _RECORDS.get(t)
        if record is not None:
            record(self, node)
        elif t is not sx.Name and t is not sx.Const:  # most nodes: nothing of their own to record
            self._visit_children(node)

    def _visit_children(self, node: sx.Node) -> None:
        for c in node.children():
            if type(c) not in _LEAVES:
                self.visit(c)

    def _at_attribute(self, node: sx.Attribute) -> None:
        self.attribute(node)
        if type(node.value) not in _LEAVES:
            self.visit(node.value)

    def _at_call(self, node: sx.Call) -> None:
        self.call(node)
        if type(node.func) not in _LEAVES:
            self.visit(node.func)
        for a in node.args:
            value = a.value  # an ``Arg`` records nothing of its own: its value is visited directly
            if type(value) not in _LEAVES:
                self.visit(value)

    def _at_import(self, node: sx.Import) -> None:
        self.import_(node)  # the names an import statement spells are no attribute reads

    def _at_lambda(self, node: sx.Lambda) -> None:
        if self.functions:  # its parameters shadow the function's names
            for p in node.params:
                self.bind_local(self.functions[-1], p.name, None, None)
        self.yields_to.append(None)
        self._visit_children(node)
        self.yields_to.pop()

    def _at_assign(self, node: sx.Assign) -> None:
        self.assign(node)
        self._visit_children(node)

    def _at_ann_assign(self, node: sx.AnnAssign) -> None:
        self.ann_assign(node)
        self._visit_children(node)

    def _at_aug_assign(self, node: sx.AugAssign) -> None:
        self.aug_assign(node)
        self._visit_children(node)

    def _at_subscript(self, node: sx.Subscript) -> None:
        self.keyed_access(node)
        self._visit_children(node)

    def _at_for(self, node: sx.For) -> None:
        self.loop(node.target, node.iter)
        self._visit_children(node)

    def _at_comprehension(self, node: sx.Comprehension) -> None:
        for g in node.generators:
            self.loop(g.target, g.iter)
        self._visit_children(node)

    def _at_with_item(self, node: sx.WithItem) -> None:
        self.bind_unknown(self.functions[-1] if self.functions else None, node.asname)
        self._visit_children(node)

    def _at_handler(self, node: sx.Handler) -> None:
        self.bind_unknown(self.functions[-1] if self.functions else None, node.name)
        self._visit_children(node)

    def _at_names(self, node: sx.Names) -> None:
        if self.functions:  # ``global x``: other functions may bind it to anything
            for name in node.names:
                self.never_typed(self.functions[-1], name)
        self._visit_children(node)

    def _at_other(self, node: sx.Other) -> None:
        for target in node.stores:
            self.bind_unknown(self.functions[-1] if self.functions else None, target)
        if self.yields_to and self.yields_to[-1] is not None and generator_mark(node):
            self.yields_to[-1].generator = True
        self._visit_children(node)

    def _at_delete(self, node: sx.Delete) -> None:
        self.delete(node)
        self._visit_children(node)

    # -- classes and functions ---------------------------------------------------
    def class_(self, node: sx.ClassDef) -> None:
        prefix = self.classes[-1].qualname if self.classes else self.s.module
        if self.functions:
            prefix = f"{prefix}.<locals>"
        bases: list[str | None] = []
        texts: list[str] = []
        keywords: list[str] = []
        for a, text in zip(node.bases, node.texts, strict=True):
            if a.keyword is not None or a.star == "**":
                keywords.append(f"{a.keyword}={text}" if a.keyword is not None else f"**{text}")
            else:
                texts.append(text)
                bases.append(dotted(a.value.value if isinstance(a.value, sx.Subscript) else a.value))
        cls = ClassSummary(
            node.name,
            f"{prefix}.{node.name}",
            node.line,
            node.col,
            node.end_line,
            bases,
            texts,
            keywords,
            decorator_names(node.decorators),
        )
        inits = [st for st in node.body if isinstance(st, sx.FunctionDef) and st.name == "__init__"]
        if inits:
            cls.init_lines = inits[-1].lines()
        if not self.functions and not self.classes:
            self.module_names.bound_otherwise(node.name)
        self.s.classes.append(cls)
        self.classes.append(cls)
        self.scopes.append(CLASS_SCOPE)
        self.yields_to.append(None)
        for c in node.children():
            self.visit(c)
        self._helper_flows(cls, node)
        self.yields_to.pop()
        self.classes.pop()
        self.scopes.pop()

    def _helper_flows(self, cls: ClassSummary, node: sx.ClassDef) -> None:
        """Flatten the helpers construction may run: what the class's ``__init__`` calls as ``self.m(...)``
        (and what those call, transitively), and each method that writes to self (an override, or a
        helper, that an ``__init__`` of a parent or a subclass in another file may call)."""
        defs: dict[str, sx.FunctionDef] = {}
        for st in node.body:
            if isinstance(st, sx.FunctionDef):
                defs.setdefault(st.name, st)  # the first definition, as ``methods`` keeps it
        init = cls.methods.get("__init__")
        todo = (
            [st.method for st in (init.init_flow or ()) if st.method and st.kind == InitStmtKind.EFFECT] if init else []
        )
        todo += [n for n, m in cls.methods.items() if m.writes]
        seen: set[str] = {"__init__"}
        while todo:
            name = todo.pop()
            method, d = cls.methods.get(name), defs.get(name)
            if name in seen or method is None or d is None:
                continue
            seen.add(name)
            if (
                method.self_name is None
                or method.is_property
                or {"staticmethod", "classmethod"} & set(method.decorators)
            ):
                continue
            method.init_flow = InitFlattener(d, method.self_name, self.classifier, self.parse).run(d.body)
            todo += [st.method for st in method.init_flow if st.method and st.kind == InitStmtKind.EFFECT]

    def function(self, node: sx.FunctionDef) -> None:
        in_class_body = bool(self.scopes) and self.scopes[-1] == CLASS_SCOPE
        self.scopes.append(FUNCTION_SCOPE)
        method = None
        self_name = self.functions[-1].self_name if self.functions else None
        decos = decorator_names(node.decorators)
        plist = [p for p in node.params if p.group in (sx.ParamGroup.POSONLY, sx.ParamGroup.NORMAL) and not p.star]
        if in_class_body:
            method, self_name = self._method(node, decos, plist)
        elif self.functions and self.functions[-1].method is not None:
            method = self.functions[-1].method  # a nested function: its reads count for the method
        elif not self.scopes[:-1]:
            self.module_defs[node.name] = self.module_defs.get(node.name, 0) + 1
        returns = None  # a module-level function's, recorded once its body is known not to yield
        if not self.scopes[:-1] and followable(decos):
            returns = self._module_function_returns(node)
        rest = plist[1:] if (in_class_body and self_name and plist) else plist
        ctx = self._walk_function(node, FunctionScope(node.name, self_name, method), rest)
        if in_class_body and not (ctx.generator or returns_value(node.body)):
            cast(MethodSummary, method).walks.clear()  # it gives nothing back: its walks act on each element
        if ctx.generator and in_class_body:
            cast(MethodSummary, method).returns = None
        if returns is not None and not ctx.generator:
            self.s.functions.setdefault(node.name, returns)

    def _method(
        self, node: sx.FunctionDef, decos: tuple[str, ...], plist: list[sx.Param]
    ) -> tuple[MethodSummary, str | None]:
        """The summary of a method (recorded in its class) and the name its instance goes by."""
        static = "staticmethod" in decos
        self_name = None if static or not plist else plist[0].name
        method = MethodSummary(
            node.name, node.line, node.col, node.end_line, decos, self_name=self_name, is_stub=is_stub(node)
        )
        skip = plist[0] if plist and not static else None
        for p in node.params:
            if p is not skip:
                method.params.append(signature_param(p, self.parse))
        cast("dict[str, MethodSummary]", self.classes[-1].methods).setdefault(node.name, method)  # built here
        if node.name == "__init__" and self_name:
            method.init_flow = InitFlattener(node, self_name, self.classifier, self.parse).run(node.body)
            method.param_flow = param_flow(node, self_name)
        elif followable(decos):
            method.returns = ReturnsInference(node, self_name, self.classifier, self.parse).run()
            if method.returns is not None:
                method.returns.params = tuple(method.params)
        if node.name != "__init__" and self_name:
            method.ensures, method.calls = method_checks(node, self_name)
            method.skips_unknown_weights = skips_unknown_weights(node, self_name)
        if node.returns is not None and followable(decos):
            method.return_types = annotation_types(node.returns, self.parse)
        return method, self_name

    def _module_function_returns(self, node: sx.FunctionDef) -> Returns | None:
        """What a followable module-level function returns (its annotation recorded now)."""
        returns = ReturnsInference(node, None, self.classifier, self.parse).run()
        if returns is not None:
            returns.params = tuple(signature_param(p, self.parse) for p in node.params)
        types = annotation_types(node.returns, self.parse) if node.returns is not None else None
        if types is not None:
            self.s.return_types.setdefault(node.name, types)
        return returns

    def _walk_function(self, node: sx.FunctionDef, ctx: FunctionScope, rest: list[sx.Param]) -> FunctionScope:
        """Walk a function's parts in its own scope ``ctx`` (``rest``: its parameters but ``self``)."""
        ctx.params = {p.name: i for i, p in enumerate(rest)}
        ctx.bound.update(p.name for p in node.params)
        if not self.functions and not self.classes:
            self.module_names.bound_otherwise(node.name)
        for p in node.params:
            self.declare_local(ctx, p.name, p.annotation if not p.star else None)
            if open_param(p):
                ctx.open.add(p.name)
        self.functions.append(ctx)
        self.yields_to.append(None)  # decorators, parameters and annotation: the enclosing scope's
        first = node.body[0] if node.body else None
        for c in node.children():
            if c is first:
                self.yields_to[-1] = ctx
            self.visit(c)
        self.yields_to.pop()
        self.functions.pop()
        self.scopes.pop()
        gives_nothing = not (ctx.generator or returns_value(node.body))
        walks = not gives_nothing and any(p[8] for p in ctx.pending)
        in_class_body = bool(self.scopes) and self.scopes[-1] == CLASS_SCOPE and bool(self.classes)
        owner = self.classes[-1].qualname.rsplit(".", 1)[-1] if in_class_body else None
        self._flush(ctx, gives_nothing, staying_walks(node, owner) if walks else {})
        return ctx

    def _flush(
        self, ctx: FunctionScope, gives_nothing: bool = False, staying: dict[WalkAt, Guard] | None = None
    ) -> None:
        """Record the function's ``obj.x`` reads; a walk over another object in a function that gives
        nothing back acts on each element (``ObjectWalk.ACTS``), as a walk of ``self`` there does; one in
        ``staying`` keeps its elements in the function (``ObjectWalk.STAYS``, ``semantics.walk_elements``)
        or lets them leave only under its guard (``ObjectWalk.GUARDED``)."""
        staying = staying or {}
        for record in ctx.deferred:
            record()
        ctx.deferred.clear()  # they hold ``ctx``: a reference cycle otherwise
        cls = self.classes[-1].qualname if self.classes else None
        outer = self.functions[-1].types if self.functions else {}
        typing = self.typing(ctx)
        scopes = [ctx.bound, *(f.bound for f in self.functions)]
        reads, candidate = self.reads, self.module_names.candidate
        local_types, isinst, params, function = ctx.types, ctx.isinst, ctx.params, ctx.name
        walked = ObjectWalk.ACTS if gives_nothing else ObjectWalk.GIVES_BACK
        for attr, line, col, text, name, via, through, element, walk in ctx.pending:
            types = typing.value(element) if element is not None else None
            param = None
            if name is not None:
                types = isinst[name] if name in isinst else local_types.get(name, outer.get(name))
                if name in params and not through:
                    param = (params[name], name)
            candidate(len(reads), text, scopes)
            guard = staying.get((line, col, attr)) if walk else None
            kind = (walked if guard is None else ObjectWalk.GUARDED if guard else ObjectWalk.STAYS) if walk else None
            reads.append(
                Access(
                    attr,
                    line,
                    col,
                    text,
                    types,
                    cls,
                    function,
                    via,
                    param,
                    through=through,
                    walk=kind,
                    guard=guard or (),
                )
            )


# what ``SummaryBuilder.visit`` does at the nodes it records something of (each also walks the node's
# children, or the part of them that holds more to record); every other node: only its children
_RECORDS: dict[type[sx.Node], Callable[[SummaryBuilder, Any], None]] = {
    sx.Attribute: SummaryBuilder._at_attribute,
    sx.Call: SummaryBuilder._at_call,
    sx.FunctionDef: SummaryBuilder.function,
    sx.ClassDef: SummaryBuilder.class_,
    sx.Assign: SummaryBuilder._at_assign,
    sx.AnnAssign: SummaryBuilder._at_ann_assign,
    sx.AugAssign: SummaryBuilder._at_aug_assign,
    sx.Import: SummaryBuilder._at_import,
    sx.Subscript: SummaryBuilder._at_subscript,
    sx.For: SummaryBuilder._at_for,
    sx.Comprehension: SummaryBuilder._at_comprehension,
    sx.Delete: SummaryBuilder._at_delete,
    sx.WithItem: SummaryBuilder._at_with_item,
    sx.Handler: SummaryBuilder._at_handler,
    sx.Names: SummaryBuilder._at_names,
    sx.Lambda: SummaryBuilder._at_lambda,
    sx.Other: SummaryBuilder._at_other,
}

_LEAVES = frozenset({sx.Name, sx.Const})  # nothing to record, no children: not visited
