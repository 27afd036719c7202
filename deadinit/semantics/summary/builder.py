"""One pass over a module's syntax tree, producing its ``FileSummary``.

Facts are recorded in source order: imports and module constants, classes with
their bases and methods (``self.x`` reads and writes, ``super()`` and
``Parent.m(self)`` calls, dynamic access, the flattened ``__init__``), ``obj.x``
reads with what is known of the receiver's class, constructor calls and
``isinstance`` checks.  Private names are mangled as the compiler does, once,
here.

The walk's state is in ``scope``, the visitors of expressions in
``expressions``, of imports in ``imports``; statements, classes and
functions are visited here.
"""

from __future__ import annotations

from typing import cast

from deadinit.model.access import Access
from deadinit.model.summary import ClassSummary, FileSummary, MethodSummary
from deadinit.semantics import syntax as sx
from deadinit.semantics.annotations import annotation_types
from deadinit.semantics.construction_args import param_flow
from deadinit.semantics.dynamic import loop_names
from deadinit.semantics.effects import self_targets, store_nodes
from deadinit.semantics.exprs import dotted, is_name, literal_strings, self_attr, to_expr
from deadinit.semantics.init.flow import InitFlattener
from deadinit.semantics.loaders.skips import skips_unknown_weights
from deadinit.semantics.raises import method_checks
from deadinit.semantics.returns import ReturnsInference, generator_mark
from deadinit.semantics.stubs import is_stub
from deadinit.semantics.summary.expressions import ExpressionFacts
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


class SummaryBuilder(ExpressionFacts, ImportFacts):
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
        if t not in _RECORDED:  # most nodes: nothing of their own to record
            if t is not sx.Name and t is not sx.Const:  # leaves
                for c in node.children():
                    if type(c) not in _LEAVES:
                        self.visit(c)
            return
        if t is sx.Attribute:
            self.attribute(node)  # type: ignore[arg-type]
            value = node.value  # type: ignore[attr-defined]
            if type(value) not in _LEAVES:
                self.visit(value)
            return
        if t is sx.Call:
            self.call(node)  # type: ignore[arg-type]
            func = node.func  # type: ignore[attr-defined]
            if type(func) not in _LEAVES:
                self.visit(func)
            for a in node.args:  # type: ignore[attr-defined]
                value = a.value  # an ``Arg`` records nothing of its own: its value is visited directly
                if type(value) not in _LEAVES:
                    self.visit(value)
            return
        if t is sx.FunctionDef:
            self.function(node)  # type: ignore[arg-type]
            return
        elif t is sx.ClassDef:
            self.class_(node)  # type: ignore[arg-type]
            return
        elif t is sx.Assign:
            self.assign(node)  # type: ignore[arg-type]
        elif t is sx.AnnAssign:
            self.ann_assign(node)  # type: ignore[arg-type]
        elif t is sx.AugAssign:
            self.aug_assign(node)  # type: ignore[arg-type]
        elif t is sx.Import:
            self.import_(node)  # type: ignore[arg-type]
            return  # the names an import statement spells are no attribute reads
        elif t is sx.Subscript:
            self.keyed_access(node)
        elif t is sx.For:
            self.loop(node.target, node.iter)  # type: ignore[attr-defined]
        elif t is sx.WithItem:
            self.bind_unknown(self.functions[-1] if self.functions else None, node.asname)  # type: ignore[attr-defined]
        elif t is sx.Handler:
            self.bind_unknown(self.functions[-1] if self.functions else None, node.name)  # type: ignore[attr-defined]
        elif t is sx.Names and self.functions:  # ``global x``: other functions may bind it to anything
            for name in node.names:  # type: ignore[attr-defined]
                self.never_typed(self.functions[-1], name)
        elif t is sx.Lambda:
            if self.functions:  # its parameters shadow the function's names
                for p in node.params:  # type: ignore[attr-defined]
                    self.bind_local(self.functions[-1], p.name, None, None)
            self.yields_to.append(None)
            for c in node.children():
                if type(c) not in _LEAVES:
                    self.visit(c)
            self.yields_to.pop()
            return
        elif t is sx.Other:
            for target in node.stores:  # type: ignore[attr-defined]
                self.bind_unknown(self.functions[-1] if self.functions else None, target)
            if self.yields_to and self.yields_to[-1] is not None and generator_mark(node):  # type: ignore[arg-type]
                self.yields_to[-1].generator = True
        elif t is sx.Comprehension:
            for g in node.generators:  # type: ignore[attr-defined]
                self.loop(g.target, g.iter)
        elif t is sx.Delete:
            self.delete(node)  # type: ignore[arg-type]
        for c in node.children():
            if type(c) not in _LEAVES:
                self.visit(c)

    # -- module constants and assignments ----------------------------------------
    def assign(self, node: sx.Assign) -> None:
        for t in node.targets:
            self._mark_store(t)
        if len(node.targets) == 1 and isinstance(node.targets[0], sx.Name):
            name = node.targets[0].id
            if self._module_level():
                self.s.constants[name] = to_expr(node.value, None)
                if name == "__all__":
                    self.s.exports = literal_strings(node.value)
            elif self.classes and not self.functions:
                self.classes[-1].class_values[name] = to_expr(node.value, None)
                self.classes[-1].attr_elements_unknown.add(name)  # a class-level collection: not followed
            if not self.functions:
                self.env_default(name, node.value)
        if self.functions:
            self._bind_targets(self.functions[-1], node)

    def _bind_targets(self, ctx: FunctionScope, node: sx.Assign) -> None:
        for t in node.targets:
            if isinstance(t, sx.Name):
                self.bind_value(ctx, t.id, node.value)
            elif isinstance(t, sx.Subscript):  # ``items[i] = v`` / ``items[a:b] = vs``
                many = len(t.items) == 1 and isinstance(t.items[0], sx.Other) and t.items[0].what == "slice"
                self.stored_into(ctx, t.value, node.value, many)
            else:
                self.bind_unknown(ctx, t)
            if self.classes and ctx.method is not None and not isinstance(t, (sx.Name, sx.Subscript)):
                self.self_attr_assigned(ctx, t, node.value)

    def ann_assign(self, node: sx.AnnAssign) -> None:
        self._mark_store(node.target)
        t = node.target
        ctx = self.functions[-1] if self.functions else None
        if ctx is not None and isinstance(t, sx.Name):
            self.declare_local(ctx, t.id, node.annotation)
        if self.classes and ctx is not None and ctx.method is not None:
            attr = self_attr(t, ctx.self_name)
            if attr is not None:
                types = annotation_types(node.annotation, self.parse)
                cls = self.classes[-1]
                if types is None:
                    cls.attr_unknown.add(attr)
                else:
                    cls.attr_declared.setdefault(attr, []).extend(types)
                self.self_attr_annotated(attr, node.annotation)
                if node.value is not None:
                    self.self_attr_assigned(ctx, t, node.value)
        elif self.classes and not self.functions and isinstance(t, sx.Name):
            types = annotation_types(node.annotation, self.parse)
            cls = self.classes[-1]
            cls.class_attrs.setdefault(t.id, node.line)
            if node.value is not None:
                cls.class_values[t.id] = to_expr(node.value, None)
            if types is not None:
                cls.attr_declared.setdefault(t.id, []).extend(types)
            self.self_attr_annotated(t.id, node.annotation)
            if node.value is not None:
                cls.attr_elements_unknown.add(t.id)  # a class-level collection: not followed
        if isinstance(t, sx.Name) and node.value is not None:
            if self._module_level():
                self.s.constants[t.id] = to_expr(node.value, None)
            if not self.functions:
                self.env_default(t.id, node.value)

    def aug_assign(self, node: sx.AugAssign) -> None:
        ctx = self.functions[-1] if self.functions else None
        if ctx is not None and ctx.method is not None:
            attr = self_attr(node.target, ctx.self_name)
            if attr is not None:
                ctx.method.reads.append((attr, node.target.line, node.target.col))
                ctx.method.writes.append((attr, node.target.line, node.target.col))
                self.stores.add(id(node.target))
        if isinstance(node.target, sx.Name) and ctx is not None:  # ``items += [B()]``: the same object, grown
            self.bind_local(ctx, node.target.id, None, self.typing(ctx).collection(node.value))
        elif node.op in ("+", "|"):
            self.stored_into(ctx, node.target, node.value, True)

    def _bind_name(self, name: str, ctx: FunctionScope | None) -> None:
        if ctx is not None:
            ctx.bound.add(name)
        elif not self.classes:
            self.module_names.bound_otherwise(name)

    def _mark_store(self, target: sx.Expr) -> None:
        ctx = self.functions[-1] if self.functions else None
        if isinstance(target, sx.Subscript):
            self.stores.add(id(target))  # ``self.__dict__["x"] = ...`` writes ``x``
        for t in store_nodes(target):
            if isinstance(t, sx.Attribute):
                self.stores.add(id(t))
                if ctx is not None and ctx.method is not None and is_name(t.value, ctx.self_name):
                    ctx.method.writes.append((t.attr, t.line, t.col))
            elif isinstance(t, sx.Name) and self.classes and not self.functions:
                self.classes[-1].class_attrs.setdefault(t.id, t.line)
            if isinstance(t, sx.Name):
                self._bind_name(t.id, ctx)

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
        self.yields_to.pop()
        self.classes.pop()
        self.scopes.pop()

    def function(self, node: sx.FunctionDef) -> None:
        in_class_body = bool(self.scopes) and self.scopes[-1] == CLASS_SCOPE
        self.scopes.append(FUNCTION_SCOPE)
        method = None
        self_name = self.functions[-1].self_name if self.functions else None
        decos = decorator_names(node.decorators)
        plist = [p for p in node.params if p.group in ("posonly", "normal") and not p.star]
        if in_class_body:
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
        elif self.functions and self.functions[-1].method is not None:
            method = self.functions[-1].method  # a nested function: its reads count for the method
        elif not self.scopes[:-1]:
            self.module_defs[node.name] = self.module_defs.get(node.name, 0) + 1
        returns = None  # a module-level function's, recorded once its body is known not to yield
        if not self.scopes[:-1] and followable(decos):
            returns = ReturnsInference(node, None, self.classifier, self.parse).run()
            if returns is not None:
                returns.params = tuple(signature_param(p, self.parse) for p in node.params)
            types = annotation_types(node.returns, self.parse) if node.returns is not None else None
            if types is not None:
                self.s.return_types.setdefault(node.name, types)
        ctx = FunctionScope(node.name, self_name, method)
        rest = plist[1:] if (in_class_body and self_name and plist) else plist
        ctx.params = {p.name: i for i, p in enumerate(rest)}
        ctx.bound.update(p.name for p in node.params)
        if not self.functions and not self.classes:
            self.module_names.bound_otherwise(node.name)
        for p in node.params:
            self.declare_local(ctx, p.name, p.annotation if not p.star else None)
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
        self._flush(ctx)
        if ctx.generator and in_class_body:
            cast(MethodSummary, method).returns = None
        if returns is not None and not ctx.generator:
            self.s.functions.setdefault(node.name, returns)

    def _flush(self, ctx: FunctionScope) -> None:
        for record in ctx.deferred:
            record()
        ctx.deferred.clear()  # they hold ``ctx``: a reference cycle otherwise
        cls = self.classes[-1].qualname if self.classes else None
        outer = self.functions[-1].types if self.functions else {}
        typing = self.typing(ctx)
        scopes = [ctx.bound, *(f.bound for f in self.functions)]
        reads, candidate = self.reads, self.module_names.candidate
        local_types, isinst, params, function = ctx.types, ctx.isinst, ctx.params, ctx.name
        for attr, line, col, text, name, via, through, element in ctx.pending:
            types = typing.value(element) if element is not None else None
            param = None
            if name is not None:
                types = isinst[name] if name in isinst else local_types.get(name, outer.get(name))
                if name in params and not through:
                    param = (params[name], name)
            candidate(len(reads), text, scopes)
            reads.append(Access(attr, line, col, text, types, cls, function, via, param, through=through))

    # -- statements that bind or remove ------------------------------------------
    def loop(self, target: sx.Expr, iterable: sx.Expr) -> None:
        """``for n in <names>`` (a statement or a comprehension): ``n`` holds one of those attribute names."""
        ctx = self.functions[-1] if self.functions else None
        for t in store_nodes(target):
            if isinstance(t, sx.Name):
                self._bind_name(t.id, ctx)
        if ctx is not None:
            self.bind_loop(ctx, target, iterable)
            if self.classes and ctx.method is not None:
                self.self_attr_assigned(ctx, target, None)  # ``for self.a in ...``: holds what nothing types
        if ctx is not None and isinstance(target, sx.Name):
            names = loop_names(iterable, ctx.self_name)
            if names is not None:
                ctx.loop_names[target.id] = names
            else:
                ctx.loop_names.pop(target.id, None)

    def delete(self, node: sx.Delete) -> None:
        """``del self.x`` removes ``x``: it reads nothing."""
        ctx = self.functions[-1] if self.functions else None
        if ctx is not None and ctx.self_name:
            for t in node.targets:
                if self_targets(t, ctx.self_name):
                    self.stores.update(id(n) for n in store_nodes(t))


# the nodes ``SummaryBuilder.visit`` records something of (every other node: only its children)
_RECORDED = frozenset(
    {sx.Attribute, sx.Call, sx.FunctionDef, sx.ClassDef, sx.Assign, sx.AnnAssign, sx.AugAssign, sx.Import}
    | {sx.Subscript, sx.For, sx.Comprehension, sx.Delete, sx.WithItem, sx.Handler, sx.Names, sx.Lambda, sx.Other}
)

_LEAVES = frozenset({sx.Name, sx.Const})  # nothing to record, no children: not visited
