"""What ``SummaryBuilder`` (``deadinit.semantics.summary.builder``) records of the statements that
bind or remove names: assignments (module constants, class attributes, ``self`` attributes and
locals, with what they hold), annotated and augmented assignments, loop targets and ``del``."""

from __future__ import annotations

from deadinit.semantics import syntax as sx
from deadinit.semantics.annotations import annotation_types
from deadinit.semantics.class_typed import annotation_builds
from deadinit.semantics.dynamic import loop_names
from deadinit.semantics.effects import self_targets, store_nodes
from deadinit.semantics.exprs import is_name, literal_strings, self_attr, to_expr
from deadinit.semantics.summary.expressions import ExpressionFacts
from deadinit.semantics.summary.scope import FunctionScope


class BindingFacts(ExpressionFacts):
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
                many = len(t.items) == 1 and isinstance(t.items[0], sx.Other) and t.items[0].what == sx.OtherWhat.SLICE
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
            built = annotation_builds(node.annotation, self.classifier, self.parse, callables=False)
            if built is not None:
                cls.field_builds[t.id] = built
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
