"""What ``SummaryBuilder`` records of expressions: ``self.x`` reads, keyed and dynamic
access to ``self``, ``super()`` attributes, ``obj.x`` reads with their receiver, constructor
calls, parent calls and ``isinstance`` checks."""

from __future__ import annotations

from deadinit.model.access import Access, ObjectWalk, TypeRef
from deadinit.model.summary import Construct, MethodSummary
from deadinit.semantics import syntax as sx
from deadinit.semantics.dynamic import ANY, KeyedRead, access_of, literal_attr_of, wholesale_use
from deadinit.semantics.effects import literal_attr_of_self, super_attribute
from deadinit.semantics.exprs import capitalised, dotted, is_name, self_attr, to_expr
from deadinit.semantics.summary.flow import FlowTyping
from deadinit.semantics.summary.scope import FunctionScope
from deadinit.semantics.walks import first_of_walk, object_walk, walk_name


class ExpressionFacts(FlowTyping):
    """The builder's visitors of expressions."""

    def keyed_access(self, node: sx.Node) -> bool:
        """``getattr(self, k)``, ``self.__dict__[k]``, ``vars(self).get(k)``...: a read of ``k``, or a
        dynamic access when ``k`` is computed.  True when ``node`` was one."""
        ctx = self.functions[-1] if self.functions else None
        if ctx is None or ctx.method is None or not ctx.self_name:
            return False
        got = access_of(node, ctx.self_name, ctx.loop_names.get)
        if got is None:
            return False
        event = got.event
        self.keyed.add(id(got.store))
        if isinstance(event, KeyedRead):
            where = ctx.method.writes if id(node) in self.stores else ctx.method.reads
            where.append((event.attr, node.line, node.col))
        elif id(node) not in self.stores:  # ``self._modules[k] = v`` only writes, as ``setattr`` does
            ctx.method.dynamic.append((event.reason, node.line, event.pattern))
        return True

    def attribute(self, node: sx.Attribute) -> None:
        ctx = self.functions[-1] if self.functions else None
        value = node.value
        if ctx is not None and ctx.self_name and is_name(value, ctx.self_name):
            if ctx.method is not None and id(node) not in self.stores:
                ctx.method.reads.append((node.attr, node.line, node.col))
                why = wholesale_use(node, ctx.self_name)
                if why is not None and id(node) not in self.keyed:
                    ctx.method.dynamic.append((why, node.line, ANY))
            return
        if type(value) is sx.Call:  # only a call can be ``super()``
            on_super, start = super_attribute(node, ctx.self_name if ctx is not None else None)
            if on_super:
                if ctx is not None and ctx.method is not None:
                    ctx.method.super_calls.append((node.attr, start))
                return
        if id(node) not in self.stores:
            walk = object_walk(node.attr, id(node) in self.called)
            self._object_read(node.attr, node.line, node.col, value, ctx, walk)

    def _object_read(
        self, attr: str, line: int, col: int, value: sx.Expr, ctx: FunctionScope | None, walk: bool = False
    ) -> None:
        """``value.attr`` read, ``value`` not the method's self: recorded with its receiver (``Access``);
        ``walk``: a walk over ``value`` (``semantics.walks.object_walk``)."""
        via = self_attr(value, ctx.self_name) if ctx is not None and ctx.self_name else None
        text = _short(value)
        if ctx is not None:
            name = value.id if isinstance(value, sx.Name) else None
            through = None
            element = (
                value if isinstance(value, (sx.Subscript, sx.Call)) else None
            )  # ``items[i].attr``, ``P(pid).attr``
            if isinstance(value, sx.Attribute) and via is None:  # ``meta.spec.x`` / ``self.model.spec.x``
                root = value.value
                if isinstance(root, sx.Name) and root.id != ctx.self_name:
                    name, through = root.id, value.attr
                elif ctx.self_name and self_attr(root, ctx.self_name) is not None:
                    via, through = self_attr(root, ctx.self_name), value.attr
            ctx.pending.append((attr, line, col, text, name, via, through, element, walk))
        else:
            in_class = self.classes[-1].qualname if self.classes else None
            self.module_names.candidate(len(self.reads), text, [f.bound for f in self.functions])
            self.reads.append(
                Access(attr, line, col, text, None, in_class, None, None, walk=ObjectWalk.GIVES_BACK if walk else None)
            )

    def call(self, node: sx.Call) -> None:
        if self.keyed_access(node):
            return
        ctx = self.functions[-1] if self.functions else None
        if isinstance(node.func, sx.Attribute):
            self.called.add(id(node.func))
        named = literal_attr_of(node, ctx.self_name if ctx is not None else None)
        if named is not None:  # ``getattr(obj, "x")``, ``hasattr(obj, "x")``: what ``obj.x`` reads
            self._object_read(named[1], node.line, node.col, named[0], ctx)
        if ctx is not None and ctx.method is not None and ctx.self_name:
            self._walk(node, ctx.method, ctx.self_name)
        self.filled(ctx, node)
        fn = dotted(node.func)
        if fn is None:
            return
        if capitalised(fn):
            self_args: tuple[int | str, ...] = ()
            if ctx is not None and ctx.self_name:
                self_args = tuple(
                    a.keyword if a.keyword is not None else i
                    for i, a in enumerate(node.args)
                    if is_name(a.value, ctx.self_name)
                )
            self.s.constructs.append(
                Construct(
                    fn,
                    node.line,
                    self.classes[-1].qualname if self.classes else None,
                    ctx.name if ctx else None,
                    self_args,
                )
            )
        if fn in ("isinstance", "issubclass") and len(node.args) == 2:
            self._isinstance(node, ctx)
        if ctx is None or ctx.method is None or not ctx.self_name:
            return
        m = ctx.method
        literal = literal_attr_of_self(node, ctx.self_name, ("hasattr",))
        if literal is not None:
            m.reads.append((literal, node.line, node.col))
            return
        why = wholesale_use(node, ctx.self_name)
        if why is not None and id(node) not in self.keyed:
            m.dynamic.append((why, node.line, ANY))
            return
        if (
            isinstance(node.func, sx.Attribute)
            and node.func.attr != "__init__"
            and node.args
            and is_name(node.args[0].value, ctx.self_name)
        ):
            base = dotted(node.func.value)
            if base and base != ctx.self_name and base[:1].isupper():
                m.parent_calls.append((base, node.func.attr))

    def _walk(self, node: sx.Call, method: MethodSummary, self_name: str) -> None:
        """``self.named_children()`` and the other walks of what ``self`` registered; a walk that
        ``next()`` takes only the first element of reads no particular attribute."""
        first = first_of_walk(node, self_name)
        if first is not None:
            self.peeked.add(id(first))
        elif id(node) not in self.peeked and (name := walk_name(node, self_name)) is not None:
            method.walks.append((name, node.line))

    def env_default(self, name: str, value: sx.Expr) -> None:
        """``NAME = EnvX(default, ...)`` at module or class level: the default of the setting ``NAME``."""
        if isinstance(value, sx.Call):
            fn = dotted(value.func) or ""
            if fn.split(".")[-1].startswith("Env") and value.args:
                first = value.args[0]
                if first.keyword is None or first.keyword == "default":
                    self.s.env_defaults[name] = to_expr(first.value, None)

    def _isinstance(self, node: sx.Call, ctx: FunctionScope | None) -> None:
        second = node.args[1].value
        classes = second.elts if isinstance(second, sx.Sequence) and second.shape == "tuple" else (second,)
        refs = []
        for c in classes:
            d = dotted(c.value if isinstance(c, sx.Starred) else c)
            if d:
                self.s.isinstance_checks.append((d, node.line))
                refs.append(TypeRef(d, False))
        first = node.args[0].value
        if ctx is not None and isinstance(first, sx.Name) and refs:
            ctx.isinst[first.id] = ctx.isinst.get(first.id, ()) + tuple(refs)


def _short(node: sx.Node) -> str:
    d = dotted(node)
    if d:
        return d if len(d) < 60 else d[:57] + "..."
    return "<expr>"
