"""One libcst pass over a module, producing a ``FileSummary``."""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from deadinit.frontends.init_flow import InitFlattener
from deadinit.model.settings import Settings
from deadinit.model.summary import Access, ClassSummary, Construct, FileSummary, Import, MethodSummary, Param, TypeRef
from deadinit.semantics.alloc import AllocClassifier
from deadinit.semantics.exprs import dotted, to_expr

_SUPPRESS = re.compile(rb"#\s*deadinit:\s*ignore(?:\[([A-Za-z0-9_,\s-]+)\])?")
_BUILTIN_TYPES = {
    "int",
    "float",
    "str",
    "bool",
    "bytes",
    "list",
    "dict",
    "set",
    "tuple",
    "frozenset",
    "type",
    "complex",
}
_TYPING_WRAPPERS = {"Optional", "Union", "ClassVar", "Final", "Annotated"}


def annotation_types(node: cst.BaseExpression | None) -> tuple[TypeRef, ...] | None:
    """Possible classes named by an annotation; None when it says nothing usable."""
    if node is None:
        return None
    if isinstance(node, cst.SimpleString):
        try:
            inner = cst.parse_expression(node.evaluated_value)
        except Exception:
            return None
        return annotation_types(inner)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        a, b = annotation_types(node.left), annotation_types(node.right)
        return None if a is None or b is None else a + b
    if isinstance(node, cst.Subscript):
        base = dotted(node.value)
        if base and base.split(".")[-1] in _TYPING_WRAPPERS:
            out: tuple = ()
            for el in node.slice:
                if isinstance(el.slice, cst.Index):
                    t = annotation_types(el.slice.value)
                    if t is None:
                        return None
                    out += t
                if base.split(".")[-1] == "Annotated":
                    break
            return out
        return (TypeRef(base, False),) if base else None
    if isinstance(node, cst.Name) and node.value == "None":
        return ()
    d = dotted(node)
    if d is None or d.split(".")[-1] in ("Any", "object"):
        return None
    return (TypeRef(d, False),)


class _FuncCtx:
    def __init__(self, name: str, self_name: str | None, method: MethodSummary | None):
        self.name = name
        self.self_name = self_name
        self.method = method
        self.types: dict[str, tuple[TypeRef, ...] | None] = {}
        self.isinst: dict[str, tuple[TypeRef, ...]] = {}
        self.pending: list[tuple] = []  # (attr, line, col, recv_text, recv_name)
        self.params: dict[str, int] = {}


class SummaryVisitor(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, summary: FileSummary, settings: Settings):
        super().__init__()
        self.s = summary
        self.settings = settings
        self.class_stack: list[ClassSummary] = []
        self.func_stack: list[_FuncCtx] = []
        self.store_ids: set[int] = set()
        self.kinds: list[str] = []  # "c" / "f" scope stack
        self.import_map: dict[str, str] = {}
        self.classifier = AllocClassifier(settings, self.canon)

    # -- names -----------------------------------------------------------
    def canon(self, name: str) -> str:
        head, _, rest = name.partition(".")
        full = self.import_map.get(head)
        if full is None:
            return name
        return full + ("." + rest if rest else "")

    def pos(self, node):
        return self.get_metadata(PositionProvider, node)

    # -- imports and module constants -------------------------------------
    def visit_Import(self, node: cst.Import) -> None:
        line = self.pos(node).start.line
        for alias in node.names:
            mod = dotted(alias.name) or ""
            if alias.asname is not None:
                local = alias.asname.name.value
                self.import_map.setdefault(local, mod)
                self.s.imports.append(Import(local, mod, None, 0, line))
            else:
                head = mod.split(".")[0]
                self.import_map.setdefault(head, head)
                self.s.imports.append(Import(head, mod, None, 0, line))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        line = self.pos(node).start.line
        mod = dotted(node.module) if node.module is not None else ""
        level = len(node.relative)
        if isinstance(node.names, cst.ImportStar):
            self.s.imports.append(Import("*", mod or "", "*", level, line))
            return
        for alias in node.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else dotted(alias.name)
            local = alias.asname.name.value if alias.asname is not None else name
            self.s.imports.append(Import(local, mod or "", name, level, line))
            if level == 0:
                # first binding wins: ``try: import torch / except ImportError: import stub as torch``
                self.import_map.setdefault(local, f"{mod}.{name}" if mod else name)
            else:
                self.import_map.setdefault(local, f"{'.' * level}{mod}.{name}" if mod else f"{'.' * level}{name}")

    def _module_level(self) -> bool:
        return not self.class_stack and not self.func_stack

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._mark_store(t.target)
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            name = node.targets[0].target.value
            if self._module_level():
                self.s.constants[name] = to_expr(node.value, None)
            if not self.func_stack:
                self._env_default(name, node.value)
            elif isinstance(node.value, cst.Call):
                self._local_type(name, node.value)
        self._attr_type_from_assign(node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._mark_store(node.target)
        if self.class_stack and self.func_stack and self.func_stack[-1].method is not None:
            ctx = self.func_stack[-1]
            t = node.target
            if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == ctx.self_name:
                types = annotation_types(node.annotation.annotation)
                cls = self.class_stack[-1]
                if types is None:
                    cls.attr_unknown.add(t.attr.value)
                else:
                    cls.attr_declared.setdefault(t.attr.value, []).extend(types)
        elif self.class_stack and not self.func_stack and isinstance(node.target, cst.Name):
            types = annotation_types(node.annotation.annotation)
            cls = self.class_stack[-1]
            cls.class_attrs.setdefault(node.target.value, self.pos(node).start.line)
            if types is not None:
                cls.attr_declared.setdefault(node.target.value, []).extend(types)
        if isinstance(node.target, cst.Name) and node.value is not None:
            if self._module_level():
                self.s.constants[node.target.value] = to_expr(node.value, None)
            if not self.func_stack:
                self._env_default(node.target.value, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        ctx = self.func_stack[-1] if self.func_stack else None
        t = node.target
        if (
            ctx
            and ctx.method
            and isinstance(t, cst.Attribute)
            and isinstance(t.value, cst.Name)
            and t.value.value == ctx.self_name
        ):
            p = self.pos(t).start
            ctx.method.reads.append((t.attr.value, p.line, p.column))
            ctx.method.writes.append((t.attr.value, p.line, p.column))
            self.store_ids.add(id(t))

    def _env_default(self, name: str, value) -> None:
        if isinstance(value, cst.Call):
            fn = dotted(value.func) or ""
            if fn.split(".")[-1].startswith("Env") and value.args:
                first = value.args[0]
                if first.keyword is None or first.keyword.value == "default":
                    self.s.env_defaults[name] = to_expr(first.value, None)

    def _mark_store(self, t) -> None:
        if isinstance(t, (cst.Tuple, cst.List)):
            for el in t.elements:
                self._mark_store(el.value)
        elif isinstance(t, cst.StarredElement):
            self._mark_store(t.value)
        elif isinstance(t, cst.Attribute):
            self.store_ids.add(id(t))
            ctx = self.func_stack[-1] if self.func_stack else None
            if ctx and ctx.method and isinstance(t.value, cst.Name) and t.value.value == ctx.self_name:
                p = self.pos(t).start
                ctx.method.writes.append((t.attr.value, p.line, p.column))
        elif isinstance(t, cst.Name) and self.class_stack and not self.func_stack:
            self.class_stack[-1].class_attrs.setdefault(t.value, self.pos(t).start.line)

    def _local_type(self, name: str, call: cst.Call) -> None:
        ctx = self.func_stack[-1]
        fn = dotted(call.func)
        if fn and fn.split(".")[-1][:1].isupper():
            ctx.types[name] = (TypeRef(fn, True),)
        else:
            ctx.types[name] = None

    def _attr_type_from_assign(self, node: cst.Assign) -> None:
        if not (self.class_stack and self.func_stack and self.func_stack[-1].method is not None):
            return
        ctx = self.func_stack[-1]
        cls = self.class_stack[-1]
        for t in node.targets:
            t = t.target
            if not (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == ctx.self_name):
                continue
            attr = t.attr.value
            v = node.value
            if isinstance(v, cst.Name) and v.value == "None":
                continue
            if isinstance(v, cst.Call):
                fn = dotted(v.func)
                if fn and fn.split(".")[-1][:1].isupper():
                    cls.attr_types.setdefault(attr, []).append(TypeRef(fn, True))
                    continue
            if isinstance(v, cst.Name) and v.value in ctx.types and ctx.types[v.value] is not None:
                cls.attr_types.setdefault(attr, []).extend(ctx.types[v.value])
                continue
            cls.attr_unknown.add(attr)

    # -- classes and functions ------------------------------------------------
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        prefix = self.class_stack[-1].qualname if self.class_stack else self.s.module
        if self.func_stack:
            prefix = f"{prefix}.<locals>"
        rng = self.pos(node)
        bases, texts, kws = [], [], []
        for a in node.bases:
            texts.append(cst.Module([]).code_for_node(a.value))
            bases.append(dotted(a.value) if not isinstance(a.value, cst.Subscript) else None)
        for k in node.keywords:
            kws.append(cst.Module([]).code_for_node(k))
        decos = tuple(
            filter(
                None,
                (
                    dotted(d.decorator) or dotted(getattr(d.decorator, "func", None) or d.decorator)
                    for d in node.decorators
                ),
            )
        )
        cls = ClassSummary(
            node.name.value,
            f"{prefix}.{node.name.value}",
            rng.start.line,
            rng.start.column,
            rng.end.line,
            bases,
            texts,
            kws,
            decos,
        )
        self.s.classes.append(cls)
        self.class_stack.append(cls)
        self.kinds.append("c")

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.class_stack.pop()
        self.kinds.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        in_class_body = bool(self.kinds) and self.kinds[-1] == "c"
        self.kinds.append("f")
        method = None
        self_name = self.func_stack[-1].self_name if self.func_stack else None
        rng = self.pos(node)
        decos = tuple(
            filter(
                None,
                (
                    dotted(d.decorator) or dotted(getattr(d.decorator, "func", None) or d.decorator)
                    for d in node.decorators
                ),
            )
        )
        params = node.params
        plist = list(params.posonly_params) + list(params.params)
        if in_class_body:
            static = "staticmethod" in decos
            self_name = None if static or not plist else plist[0].name.value
            method = MethodSummary(
                node.name.value, rng.start.line, rng.start.column, rng.end.line, decos, self_name=self_name
            )
            rest = plist if static or not plist else plist[1:]
            for p in rest:
                method.params.append(Param(p.name.value, to_expr(p.default, None) if p.default is not None else None))
            if isinstance(params.star_arg, cst.Param):
                method.params.append(Param(params.star_arg.name.value, None, "star"))
            for p in params.kwonly_params:
                method.params.append(
                    Param(p.name.value, to_expr(p.default, None) if p.default is not None else None, "kwonly")
                )
            if params.star_kwarg is not None:
                method.params.append(Param(params.star_kwarg.name.value, None, "dstar"))
            self.class_stack[-1].methods.setdefault(node.name.value, method)
            if node.name.value == "__init__" and self_name:
                method.init_flow = InitFlattener(node, self_name, self.classifier, self.pos).run(node.body)
        elif self.func_stack and self.func_stack[-1].method is not None:
            method = self.func_stack[-1].method  # nested function: reads count for the method
        ctx = _FuncCtx(node.name.value, self_name, method)
        rest = plist[1:] if (in_class_body and self_name and plist) else plist
        ctx.params = {p.name.value: i for i, p in enumerate(rest)}
        for p in plist + list(params.kwonly_params):
            if p.annotation is not None:
                ctx.types[p.name.value] = annotation_types(p.annotation.annotation)
        self.func_stack.append(ctx)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        ctx = self.func_stack.pop()
        self.kinds.pop()
        cls = self.class_stack[-1].qualname if self.class_stack else None
        outer_types = self.func_stack[-1].types if self.func_stack else {}
        for attr, line, col, text, name, self_attr in ctx.pending:
            types = None
            if name is not None:
                types = ctx.types.get(name, outer_types.get(name))
                if name in ctx.isinst:
                    types = ctx.isinst[name]
            param = (ctx.params[name], name) if name is not None and name in ctx.params else None
            self.s.accesses.append(Access(attr, line, col, text, types, cls, ctx.name, self_attr, param))

    def visit_Lambda(self, node: cst.Lambda) -> None:
        pass

    # -- expressions ----------------------------------------------------------
    def visit_Attribute(self, node: cst.Attribute) -> None:
        ctx = self.func_stack[-1] if self.func_stack else None
        value = node.value
        attr = node.attr.value
        p = None
        if ctx and ctx.self_name and isinstance(value, cst.Name) and value.value == ctx.self_name:
            if ctx.method is not None and id(node) not in self.store_ids:
                p = self.pos(node).start
                ctx.method.reads.append((attr, p.line, p.column))
                if attr in ("__dict__", "__class__") and attr == "__dict__":
                    ctx.method.dynamic.append(("self.__dict__", p.line))
            return
        if isinstance(value, cst.Call) and dotted(value.func) == "super":
            if ctx and ctx.method is not None:
                ctx.method.super_calls.append(attr)
            return
        if id(node) in self.store_ids:
            return
        p = self.pos(node).start
        name = value.value if isinstance(value, cst.Name) else None
        self_attr = None
        if (
            ctx
            and ctx.self_name
            and isinstance(value, cst.Attribute)
            and isinstance(value.value, cst.Name)
            and value.value.value == ctx.self_name
        ):
            self_attr = value.attr.value
        text = _short(value)
        if ctx is not None:
            ctx.pending.append((attr, p.line, p.column, text, name, self_attr))
        else:
            types = None
            self.s.accesses.append(
                Access(
                    attr,
                    p.line,
                    p.column,
                    text,
                    types,
                    self.class_stack[-1].qualname if self.class_stack else None,
                    None,
                    None,
                )
            )

    def visit_Call(self, node: cst.Call) -> None:
        fn = dotted(node.func)
        ctx = self.func_stack[-1] if self.func_stack else None
        if fn is None:
            return
        last = fn.split(".")[-1]
        if last[:1].isupper():
            self_args = ()
            if ctx and ctx.self_name:
                self_args = tuple(
                    (a.keyword.value if a.keyword is not None else i)
                    for i, a in enumerate(node.args)
                    if isinstance(a.value, cst.Name) and a.value.value == ctx.self_name
                )
            self.s.constructs.append(
                Construct(
                    fn,
                    self.pos(node).start.line,
                    self.class_stack[-1].qualname if self.class_stack else None,
                    ctx.name if ctx else None,
                    self_args,
                )
            )
        if fn in ("isinstance", "issubclass") and len(node.args) == 2:
            line = self.pos(node).start.line
            second = node.args[1].value
            classes = [e.value for e in second.elements] if isinstance(second, cst.Tuple) else [second]
            refs = []
            for c in classes:
                d = dotted(c)
                if d:
                    self.s.isinstance_checks.append((d, line))
                    refs.append(TypeRef(d, False))
            first = node.args[0].value
            if ctx and isinstance(first, cst.Name) and refs:
                ctx.isinst[first.value] = ctx.isinst.get(first.value, ()) + tuple(refs)
        if ctx is None or ctx.method is None or not ctx.self_name:
            return
        m = ctx.method
        args = node.args
        is_self = bool(args) and isinstance(args[0].value, cst.Name) and args[0].value.value == ctx.self_name
        if fn in ("getattr", "hasattr") and is_self and len(args) >= 2:
            second = args[1].value
            line = self.pos(node).start.line
            if isinstance(second, cst.SimpleString):
                m.reads.append((second.evaluated_value, line, self.pos(node).start.column))
            else:
                m.dynamic.append((f"{fn}(self, <computed>)", line))
        elif fn in ("setattr", "delattr") and is_self:
            second = args[1].value if len(args) > 1 else None
            line = self.pos(node).start.line
            if not isinstance(second, cst.SimpleString):
                m.dynamic.append((f"{fn}(self, <computed>)", line))
        elif fn == "vars" and is_self:
            m.dynamic.append(("vars(self)", self.pos(node).start.line))
        elif isinstance(node.func, cst.Attribute) and node.func.attr.value != "__init__" and is_self:
            base = dotted(node.func.value)
            if base and base != ctx.self_name and base[:1].isupper():
                m.parent_calls.append((base, node.func.attr.value))


def _short(node) -> str:
    d = dotted(node)
    if d:
        return d if len(d) < 60 else d[:57] + "..."
    return "<expr>"


def suppressions(source: bytes) -> dict[int, frozenset | None]:
    out: dict[int, frozenset | None] = {}
    if b"deadinit" not in source:
        return out
    for i, line in enumerate(source.splitlines(), 1):
        m = _SUPPRESS.search(line)
        if m:
            codes = m.group(1)
            out[i] = frozenset(c.strip() for c in codes.decode().split(",") if c.strip()) if codes else None
    return out


def summarize_module(
    module: cst.Module, path: str, modname: str, is_package: bool, settings: Settings, source: bytes = b""
) -> FileSummary:
    summary = FileSummary(path=path, module=modname, is_package=is_package)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    wrapper.visit(SummaryVisitor(summary, settings))
    summary.suppressions = suppressions(source)
    summary.lines = source.count(b"\n") + (1 if source and not source.endswith(b"\n") else 0)
    return summary
