"""Assemble the direct-base rewrite of one class: inline, copy, edit the class, fix imports."""

from __future__ import annotations

import libcst as cst

from deadinit.analysis.analyzer import ClassAnalysis
from deadinit.analysis.reuse import Reuse
from deadinit.fixes.cst_semantics import dotted
from deadinit.fixes.direct_base.checks import (
    class_blockers,
    explicit_super,
    global_blockers,
    isinstance_blockers,
    mangled_names,
    super_blockers,
)
from deadinit.fixes.direct_base.class_edit import ClassEdit, apply, find_super_line
from deadinit.fixes.direct_base.class_plan import ClassPlan, Outcome, cst_lines
from deadinit.fixes.direct_base.copy import class_attrs_to_copy, element_appends, method_self_reads, methods_to_copy
from deadinit.fixes.direct_base.imports import ImportSpec, add_imports, bindings, plan_imports, remove_unused
from deadinit.fixes.direct_base.inline import Arguments, Inliner
from deadinit.fixes.direct_base.live import StayReads
from deadinit.fixes.direct_base.names import free_after, identifiers, name_loads
from deadinit.fixes.direct_base.source import MODULE_LEVEL, ModuleSource
from deadinit.fixes.init_units import InitBody, walk_units
from deadinit.model.qualnames import short_name


def build_rewrite(p: ClassPlan, an: ClassAnalysis, out: Outcome, max_copy_lines: int) -> None:
    """Fill ``out`` with the class's rewrite, or leave the reasons it cannot be made in ``p.blockers``."""
    child = p.sources.of_class(p.cls)
    out.path, out.old = child.path, child.text
    cnode = child.class_node(p.cls)
    if cnode is None:
        p.block(f"cannot find class {short_name(p.cls)} in {child.path}")
        return
    base_arg = _parent_base(p, cnode)
    if base_arg is not None:
        _Rewrite(p, an, out, child, cnode, base_arg).build(max_copy_lines)


def _parent_base(p: ClassPlan, cnode: cst.ClassDef) -> cst.Arg | None:
    """The base expression naming the parent the rewrite drops (None: blocked), after the blockers
    the class and its bases raise."""
    index, r = p.index, p.reuse
    for caller, call, owner in r.super_into_dropped:
        p.block(f"{caller} calls {call}, which runs {short_name(owner)}'s version: after the rewrite it would not")
    for b in sorted(set(r.external_bases)):
        p.block(f"{short_name(r.parent)} (or an ancestor that would be dropped) derives from {b}, outside the project")
    isinstance_blockers(p)
    class_blockers(p)
    cmod = index.class_module[p.cls]
    base_arg = next(
        (a for a in cnode.bases if (name := dotted(a.value)) and index.resolve(cmod, name) == r.parent), None
    )
    if base_arg is None:
        p.block(f"cannot find the base expression naming {short_name(r.parent)}")
    return base_arg


def _global_loads(src: ModuleSource, node: cst.CSTNode) -> list[tuple[ModuleSource, str]]:
    """(source, name) for each name ``node`` loads from its module's globals (or cannot resolve)."""
    return [(src, x.value) for x in name_loads(node) if src.resolution(x) in MODULE_LEVEL]


class _Rewrite:
    """The steps of one class's rewrite: the new ``__init__`` body, the copied helpers and class
    attributes, the checks on the moved code, the edited source with its imports."""

    def __init__(
        self, p: ClassPlan, an: ClassAnalysis, out: Outcome, child: ModuleSource, cnode: cst.ClassDef, base_arg: cst.Arg
    ) -> None:
        self.p, self.an, self.out, self.child, self.cnode = p, an, out, child, cnode
        parent_local = dotted(base_arg.value)
        assert parent_local is not None  # ``_parent_base`` found it by its dotted name
        self.parent_local = parent_local
        self.specs: list[ImportSpec] = []
        new_base = None
        if p.reuse.suggestion != "object":
            new_base, spec = _base_name(p, child, p.reuse.suggestion)
            if spec is not None:
                self.specs.append(spec)
        self.edit = ClassEdit(cnode, base_arg, new_base, None)
        inits = child.methods(cnode, "__init__")
        self.init = inits[0] if inits else None
        self.inl: Inliner | None = None

    def build(self, max_copy_lines: int) -> None:
        p, edit = self.p, self.edit
        self._init_body()
        if p.blockers:
            return
        used = list(self.inl.out.globals_used) if self.inl is not None else []
        methods, labels = self._copy(used)
        if explicit_super([*edit.init_body, *edit.methods]):
            p.block("moved code calls super(Class, self) with explicit arguments")
        for what in mangled_names([*edit.init_body, *edit.methods, *edit.class_attrs]):
            p.block(f"moved code uses the class-private name {what} (name mangling would change)")
        super_blockers(p, methods)
        global_blockers(p, edit.methods, labels)
        self._limit_copy(max_copy_lines)
        if self.inl is not None:
            self._note_attrs(self.inl)
        add, blockers = plan_imports(self.child, used)
        for b in blockers:
            p.block(b)
        if not p.blockers:
            self._write(add)

    def _init_body(self) -> None:
        """The class's ``__init__`` with the dropped parent's inlined at its ``super().__init__``, or a
        new one inlining the parent's (``p.blockers``: it cannot be made)."""
        p, cls = self.p, self.p.cls
        own_init = self.child.init_body(self.init) if self.init is not None else None
        p.self_name = own_init.self_name if own_init is not None else "self"
        dropped_names = {self.parent_local} | {d for a in self.cnode.bases if (d := dotted(a.value))}
        line = parent_call = None
        if own_init is not None:
            line, parent_call, problem = find_super_line(own_init, dropped_names)
            if problem:
                p.block(f"{short_name(cls)}: {problem}")
                return
        # what the class's own code still reads (side effects on these block the rewrite)
        retained = _retained(p, self.cnode, self.init, p.reuse, line)
        if own_init is not None:
            assert line is not None and parent_call is not None  # found, or a problem above
            self._inline_at_super(own_init, line, parent_call.target, retained)
        else:
            self._new_init(retained)

    def _inline_at_super(
        self, own_init: InitBody, line: cst.SimpleStatementLine, target: str, retained: set[str]
    ) -> None:
        p = self.p
        owner = p.init_target(p.cls, target)
        self.edit.super_line = line
        clash = _init_names(own_init) - free_after(own_init.func, line)  # rename only what would clash
        pre_attrs = _attrs_before(own_init, line)
        if owner not in p.dropped:
            self.edit.init_body = [line]
            return
        call = line.body[0]
        assert isinstance(call, cst.Expr) and isinstance(call.value, cst.Call)  # ``find_super_line``'s
        args = _map_args(p, owner, call.value, target)
        if args is None:
            return
        self.inl = Inliner(p, self.an, clash, retained, pre_attrs | _class_attr_names(p), StayReads(p, self.an))
        self.edit.init_body = self.inl.inline(owner, args)

    def _new_init(self, retained: set[str]) -> None:
        p = self.p
        owner = p.init_target(p.cls, "super")
        if owner not in p.dropped:
            return
        psrc = p.sources.of_class(owner)
        pfn = psrc.methods(_class_node(psrc, owner), "__init__")[0]
        params = pfn.params
        names = [
            q.name.value for q in list(params.posonly_params) + list(params.params)[1:] + list(params.kwonly_params)
        ]
        inl = self.inl = Inliner(
            p, self.an, set(names) | {"self"}, retained, _class_attr_names(p), StayReads(p, self.an)
        )
        body = inl.inline(owner, {n: cst.Name(n) for n in names})
        for q in list(params.params) + list(params.kwonly_params):
            if q.default is not None:
                inl.out.globals_used += _global_loads(psrc, q.default)
        self.edit.new_init = pfn.with_changes(
            body=pfn.body.with_changes(body=body or [cst.SimpleStatementLine([cst.Pass()])])
        )

    def _copy(self, used: list[tuple[ModuleSource, str]]) -> tuple[list[tuple[str, str]], list[str]]:
        """Copy the helpers and class attributes the moved code needs; ((owner, name) of the helpers, a label
        per node)."""
        p, edit, out = self.p, self.edit, self.out
        methods = methods_to_copy(p, self.inl)
        labels: list[str] = []
        methods_read: set[str] = set()
        for owner_q, name in methods:
            src = p.sources.of_class(owner_q)
            nodes = src.methods(_class_node(src, owner_q), name)
            edit.methods += nodes
            for n in nodes:
                methods_read |= method_self_reads(src, n)
            labels += [f"{short_name(owner_q)}.{name}"] * len(nodes)
            for n in nodes:
                used += _global_loads(src, n)
            out.copied_methods.append((f"{short_name(owner_q)}.{name}", sum(cst_lines(n) for n in nodes)))
        for owner_q, name, stmt, src in class_attrs_to_copy(p, self.inl, methods_read):
            edit.class_attrs.append(stmt)
            used += _global_loads(src, stmt)
            out.copied_class_attrs.append(f"{short_name(owner_q)}.{name}")
        return methods, labels

    def _limit_copy(self, max_copy_lines: int) -> None:
        edit, out = self.edit, self.out
        inlined = sum(cst_lines(s) for s in edit.init_body) if self.inl is not None else 0
        out.copied_lines = inlined + sum(n for _, n in out.copied_methods) + sum(cst_lines(s) for s in edit.class_attrs)
        if out.copied_lines > max_copy_lines:
            listing = ", ".join(f"{m} ({n} lines)" for m, n in out.copied_methods) or "no helpers"
            self.p.block(
                f"would copy {out.copied_lines} lines (limit {max_copy_lines}): __init__ {inlined} lines, {listing}"
            )

    def _note_attrs(self, inl: Inliner) -> None:
        element_appends(self.p, self.an, self.child, self.init, inl, self.edit)
        self.out.kept_attrs = sorted(inl.out.attrs)
        self.out.dropped_attrs = sorted(inl.out.dropped_attrs - inl.out.attrs)
        self.out.dropped_effects = list(inl.out.dropped_effects)

    def _write(self, add: list[ImportSpec]) -> None:
        p, r, out = self.p, self.p.reuse, self.out
        text = apply(self.child.module, self.edit).code
        text = add_imports(text, self.specs + add)
        out.new = remove_unused(text, {self.parent_local.split(".")[0]} | {short_name(q) for q in p.dropped})
        out.new_bases = [r.suggestion] if r.suggestion != "object" else []
        out.removed_bases = [r.parent]
        out.regions = _regions(self.child, self.cnode)


def _base_name(p: ClassPlan, child: ModuleSource, qn: str) -> tuple[str, ImportSpec | None]:
    """(local name for class ``qn`` in the child's module, import to add or None)."""
    cmod = p.index.class_module[p.cls]
    short = short_name(qn)
    if p.index.resolve(cmod, short) == qn:
        return short, None
    if bindings(child, short):
        p.block(f"`{short}` already means something else in {child.module_name}")
        return short, None
    return short, ImportSpec(p.index.class_module[qn], short, None)


def _init_names(init: InitBody) -> set[str]:
    """Names the class's ``__init__`` uses: inlined locals must not take them over."""
    return identifiers(init.func) | set(init.params())


def _attrs_before(init: InitBody, line: cst.SimpleStatementLine) -> set[str]:
    """Attributes the class's ``__init__`` sets before it calls the parent's."""
    out: set[str] = set()
    for u in init.units:
        if u.node is line:
            break
        for v in walk_units([u]):
            out |= set(v.self_assigns) | v.self_fills
    return out


def _class_attr_names(p: ClassPlan) -> set[str]:
    out: set[str] = set()
    for qn in p.new_mro:
        out |= set(p.index.classes[qn].class_attrs)
    out |= {c.name for c in p.reuse.move_class_attrs}
    return out


def _class_node(src: ModuleSource, qualname: str) -> cst.ClassDef:
    """The ClassDef of a class of the project, in its module's source."""
    node = src.class_node(qualname)
    assert node is not None, qualname
    return node


def _map_args(p: ClassPlan, owner: str, call: cst.Call, target: str) -> Arguments | None:
    src = p.sources.of_class(owner)
    fn = src.methods(_class_node(src, owner), "__init__")[0]
    names = [q.name.value for q in list(fn.params.posonly_params) + list(fn.params.params)][1:]
    args: Arguments = {}
    nodes = list(call.args) if target == "super" else list(call.args)[1:]
    for i, a in enumerate(nodes):
        if a.star:
            p.block(
                f"{short_name(p.cls)}.__init__ forwards *args/**kwargs to {short_name(owner)}.__init__: "
                "arguments cannot be mapped"
            )
            return None
        if a.keyword is not None:
            args[a.keyword.value] = a.value
        elif i < len(names):
            args[names[i]] = a.value
        else:
            p.block(f"{short_name(p.cls)} passes more arguments than {short_name(owner)}.__init__ takes")
            return None
    return args


def _retained(
    p: ClassPlan, cnode: cst.ClassDef, init: cst.FunctionDef | None, r: Reuse, line: cst.SimpleStatementLine | None
) -> set[str]:
    out: set[str] = set()
    body = cnode.body.body
    nodes = [st for st in body if not (isinstance(st, cst.FunctionDef) and st.name.value == "__init__")]
    if init is not None:
        seen = False
        for st in init.body.body:
            if seen:
                nodes.append(st)
            seen = seen or st is line
    for m in r.move_methods:
        src = p.sources.of_class(m.owner)
        nodes += src.methods(_class_node(src, m.owner), m.name)

    class V(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            d = dotted(node)
            if d:
                out.add(d)

        def visit_Name(self, node: cst.Name) -> None:
            out.add(node.value)

    for n in nodes:
        n.visit(V())
    return out


def _regions(child: ModuleSource, cnode: cst.ClassDef) -> list[tuple[int, int]]:
    header = 0
    for st in child.module.body:
        if isinstance(st, (cst.FunctionDef, cst.ClassDef)):
            break
        header = child.end(st) or header
    start, end = child.pos(cnode)[0], child.end(cnode)
    return [(1, max(header, 1)), (start, end)]
