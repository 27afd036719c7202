"""What a function body adds to a summary, read with CPython's ``ast`` parser.

The prefilter (``deadinit.frontends.prefilter``) leaves top-level functions, and the
methods of classes outside every project hierarchy, out of the text that libcst
parses.  What ``deadinit.frontends.cst_visitor.SummaryVisitor`` records inside them and
later stages read (``obj.x`` accesses with receiver types, constructor calls,
``isinstance`` checks, the self attribute types of a class) is rebuilt here,
following the visitor rule by rule and in its visiting order; annotations go
through the visitor's own ``annotation_types``.  Where this module could differ
from the visitor it raises ``Unsure`` and the function is left to libcst.  The
equality is tested on the fixtures and on real code (tests/project/test_prefilter.py).
"""

from __future__ import annotations

import ast
import bisect
import re

from deadinit.frontends.astsource import Source, Unsure, arg_value, children, dotted, name_of, params, position, short
from deadinit.model.summary import Access, Construct, TypeRef

_FROM = re.compile(rb"from(?:[ \t\f.]|\\\r?\n)*")


class _Ctx:
    __slots__ = ("isinst", "method", "name", "params", "pending", "self_name", "types")

    def __init__(self, name: str, self_name: str | None, method: bool) -> None:
        self.name, self.self_name, self.method = name, self_name, method
        self.types: dict = {}
        self.isinst: dict = {}
        self.pending: list = []
        self.params: dict = {}


class ClassFacts:
    """Self attribute types a class collects from its methods (and class-level annotations)."""

    def __init__(self, qualname: str) -> None:
        self.qualname = qualname
        self.attr_types: dict[str, list] = {}
        self.attr_declared: dict[str, list] = {}
        self.attr_unknown: set[str] = set()


class FunctionFacts:
    """Runs over one top-level function or one method, like the visitor would."""

    def __init__(self, src: Source, cls: ClassFacts | None = None) -> None:
        self.src = src
        self.cls = cls
        self.stack: list[_Ctx] = []
        self.store: set[int] = set()
        self.accesses: list[Access] = []
        self.constructs: list[Construct] = []
        self.isinstance_checks: list[tuple[str, int]] = []
        self.imports: list[ast.stmt] = []

    # -- traversal -------------------------------------------------------
    def run(self, fn) -> FunctionFacts:
        self._function(fn, in_class_body=self.cls is not None)
        return self

    def _visit(self, node) -> None:
        t = type(node)
        if t is ast.Attribute:
            self._attribute(node)
        elif t is ast.Call:
            self._call(node)
        elif t is ast.Assign:
            self._assign(node)
        elif t is ast.AnnAssign:
            self._ann_assign(node)
        elif t is ast.FunctionDef or t is ast.AsyncFunctionDef:
            self._function(node, in_class_body=False)
            return
        elif t is ast.ClassDef:
            raise Unsure("class inside a function")
        elif t is ast.Import or t is ast.ImportFrom:
            self._import(node)
            return
        elif t is ast.FormattedValue and node.value.lineno != node.value.end_lineno:
            raise Unsure("multi-line expression in an f-string")  # positions there differ between CPythons
        for c in children(node):
            self._visit(c)

    def _function(self, node, in_class_body: bool) -> None:
        decos = tuple(filter(None, (dotted(d) or dotted(getattr(d, "func", None) or d) for d in node.decorator_list)))
        self_name = self.stack[-1].self_name if self.stack else None
        plist = node.args.posonlyargs + node.args.args
        method = bool(self.stack) and self.stack[-1].method
        if in_class_body:
            static = "staticmethod" in decos
            self_name = None if static or not plist else plist[0].arg
            method = True
        ctx = _Ctx(node.name, self_name, method)
        rest = plist[1:] if (in_class_body and self_name and plist) else plist
        ctx.params = {p.arg: i for i, p in enumerate(rest)}
        for p in plist + node.args.kwonlyargs:
            if p.annotation is not None:
                ctx.types[p.arg] = self.src.annotation(p.annotation)
        self.stack.append(ctx)
        for d in node.decorator_list:
            self._visit(d)
        for p, default in params(node.args):
            if p.annotation is not None:
                self._visit(p.annotation)
            if default is not None:
                self._visit(default)
        if node.returns is not None:
            self._visit(node.returns)
        for st in node.body:
            self._visit(st)
        self.stack.pop()
        cls = self.cls.qualname if self.cls else None
        outer = self.stack[-1].types if self.stack else {}
        for attr, line, col, text, name, self_attr in ctx.pending:
            types = None
            if name is not None:
                types = ctx.types.get(name, outer.get(name))
                if name in ctx.isinst:
                    types = ctx.isinst[name]
            param = (ctx.params[name], name) if name is not None and name in ctx.params else None
            self.accesses.append(Access(attr, line, col, text, types, cls, ctx.name, self_attr, param))

    # -- statements ------------------------------------------------------
    def _mark_store(self, t) -> None:
        if isinstance(t, (ast.Tuple, ast.List)):
            for el in t.elts:
                self._mark_store(el)
        elif isinstance(t, ast.Starred):
            self._mark_store(t.value)
        elif isinstance(t, ast.Attribute):
            self.store.add(id(t))

    def _assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            self._mark_store(t)
        ctx = self.stack[-1]
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            fn = dotted(node.value.func)
            name = node.targets[0].id
            ctx.types[name] = (TypeRef(fn, True),) if fn and fn.split(".")[-1][:1].isupper() else None
        if self.cls is None or not ctx.method:
            return
        for t in node.targets:
            if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == ctx.self_name):
                continue
            attr, v = t.attr, node.value
            if isinstance(v, ast.Constant) and v.value is None:
                continue
            if isinstance(v, ast.Call):
                fn = dotted(v.func)
                if fn and fn.split(".")[-1][:1].isupper():
                    self.cls.attr_types.setdefault(attr, []).append(TypeRef(fn, True))
                    continue
            if isinstance(v, ast.Name) and v.id in ctx.types and ctx.types[v.id] is not None:
                self.cls.attr_types.setdefault(attr, []).extend(ctx.types[v.id])
                continue
            self.cls.attr_unknown.add(attr)

    def _ann_assign(self, node: ast.AnnAssign) -> None:
        self._mark_store(node.target)
        ctx = self.stack[-1]
        t = node.target
        if (
            self.cls is not None
            and ctx.method
            and isinstance(t, ast.Attribute)
            and isinstance(t.value, ast.Name)
            and t.value.id == ctx.self_name
        ):
            types = self.src.annotation(node.annotation)
            if types is None:
                self.cls.attr_unknown.add(t.attr)
            else:
                self.cls.attr_declared.setdefault(t.attr, []).extend(types)

    def _import(self, node) -> None:
        """Dotted module names in imports are Attribute nodes to libcst: the visitor records them."""
        self.imports.append(node)
        if isinstance(node, ast.Import):
            for a in node.names:
                if "." in a.name:
                    self._dotted_name(a.name, a.lineno, a.col_offset)
        elif node.module and "." in node.module:
            start = self.src.starts[node.lineno - 1] + node.col_offset
            m = _FROM.match(self.src.data, start)
            if m is None:
                raise Unsure("from-import layout")
            off = m.end()
            line = bisect.bisect_right(self.src.starts, off)
            self._dotted_name(node.module, line, off - self.src.starts[line - 1])

    def _dotted_name(self, name: str, line: int, col: int) -> None:
        parts = name.split(".")
        ctx = self.stack[-1]
        col = self.src.col(line, col)
        for k in range(len(parts) - 1, 0, -1):  # outermost Attribute first, as libcst visits them
            if k == 1 and ctx.self_name and parts[0] == ctx.self_name:
                continue
            value = ".".join(parts[:k])
            self_attr = parts[1] if k == 2 and ctx.self_name and parts[0] == ctx.self_name else None
            text = value if len(value) < 60 else value[:57] + "..."
            ctx.pending.append((parts[k], line, col, text, parts[0] if k == 1 else None, self_attr))

    # -- expressions -----------------------------------------------------
    def _attribute(self, node: ast.Attribute) -> None:
        ctx = self.stack[-1]
        value = node.value
        if ctx.self_name and isinstance(value, ast.Name) and value.id == ctx.self_name:
            return
        if isinstance(value, ast.Call) and dotted(value.func) == "super":
            return
        if id(node) in self.store:
            return
        self_attr = None
        if (
            ctx.self_name
            and isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Name)
            and value.value.id == ctx.self_name
        ):
            self_attr = value.attr
        col = self.src.col(node.lineno, node.col_offset)
        ctx.pending.append((node.attr, node.lineno, col, short(value), name_of(value), self_attr))

    def _call(self, node: ast.Call) -> None:
        fn = dotted(node.func)
        if fn is None:
            return
        ctx = self.stack[-1]
        args = sorted(node.args + node.keywords, key=position)
        if fn.split(".")[-1][:1].isupper():
            self_args = ()
            if ctx.self_name:
                self_args = tuple(
                    (a.arg if a.arg is not None else i) if isinstance(a, ast.keyword) else i
                    for i, a in enumerate(args)
                    if name_of(arg_value(a)) == ctx.self_name
                )
            cls = self.cls.qualname if self.cls else None
            self.constructs.append(Construct(fn, node.lineno, cls, ctx.name, self_args))
        if fn in ("isinstance", "issubclass") and len(args) == 2:
            second = arg_value(args[1])
            classes = [arg_value(e) for e in second.elts] if isinstance(second, ast.Tuple) else [second]
            refs = []
            for c in classes:
                d = dotted(c)
                if d:
                    self.isinstance_checks.append((d, node.lineno))
                    refs.append(TypeRef(d, False))
            first = name_of(arg_value(args[0]))
            if first is not None and refs:
                ctx.isinst[first] = ctx.isinst.get(first, ()) + tuple(refs)


def class_annotations(src: Source, cls: ClassFacts, stmt) -> None:
    """Class-level ``name: T`` annotations in one class-body statement (not in methods or nested classes)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
        return
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        types = src.annotation(stmt.annotation)
        if types is not None:
            cls.attr_declared.setdefault(stmt.target.id, []).extend(types)
    for c in ast.iter_child_nodes(stmt):
        if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case)):
            class_annotations(src, cls, c)
