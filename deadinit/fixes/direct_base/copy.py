"""What the direct-base rewrite copies into the class: helpers, class attributes, element-wise appends."""

from __future__ import annotations

from typing import NamedTuple

import libcst as cst

from deadinit.analysis.analyzer import ClassAnalysis
from deadinit.analysis.reads.reach import method_reads
from deadinit.fixes.direct_base.class_edit import ClassEdit
from deadinit.fixes.direct_base.class_plan import ClassPlan
from deadinit.fixes.direct_base.inline import Inliner
from deadinit.fixes.direct_base.source import ModuleSource
from deadinit.model.kinds import ExprTag, FillKind, InitStmtKind
from deadinit.model.summary import MethodSummary
from deadinit.semantics import syntax as sx
from deadinit.semantics.statements import loads


class CopiedAttr(NamedTuple):
    """A class attribute of a dropped class that the rewrite copies into the class."""

    owner: str  # the dropped class
    name: str
    statement: cst.SimpleStatementLine
    source: ModuleSource  # the owner's module


def methods_to_copy(p: ClassPlan, inl: Inliner | None) -> list[tuple[str, str]]:
    """(owner, name) of each method of a dropped class that the rewrite copies, in MRO order."""
    index, mro = p.index, p.mro
    reach = {(m.owner, m.name) for m in p.reuse.move_methods}
    start: list[tuple[str, MethodSummary]] = []
    names = set(inl.out.self_reads) if inl is not None else set()
    for name in sorted(names):
        res = index.resolve_method(mro, name)
        if res is not None and res[0] in p.dropped and (res[0], name) not in reach:
            start.append(res)
    if start:
        extra = method_reads(index, mro, start, "called by inlined __init__ code")
        reach |= {k for k in extra.methods if k[0] in p.dropped}
    for sub in sorted(index.all_subclasses(p.cls)):  # what subclasses still reach moves too
        reach |= {k for k in p.analyzer.reach_of(sub).methods if k[0] in p.dropped}
    order: list[tuple[str, str]] = []
    for qn in p.dropped:
        for name in index.classes[qn].methods:
            if (qn, name) in reach and (found := index.resolve_method(mro, name)) is not None and found[0] == qn:
                order.append((qn, name))
    return order


def method_self_reads(src: ModuleSource, fn: cst.FunctionDef) -> set[str]:
    """The attributes of its first parameter (``self``, ``cls``) a method reads."""
    syntax = src.syntax_of(fn)
    if not isinstance(syntax, sx.FunctionDef):
        return set()
    first = next((q.name for q in syntax.params if q.group != sx.ParamGroup.KWONLY and not q.star), None)
    return {a for st in syntax.body for a in loads(st, first).attrs}


def class_attrs_to_copy(p: ClassPlan, inl: Inliner | None, methods_read: set[str]) -> list[CopiedAttr]:
    """Class attributes of dropped classes that kept code or copied methods (``methods_read``) read."""
    index = p.index
    wanted = {c.name for c in p.reuse.move_class_attrs}
    reads = set(inl.out.self_reads) if inl is not None else set()
    reads |= methods_read
    for qn in p.dropped:
        for name in index.classes[qn].class_attrs:
            if name in reads and name not in index.classes[qn].methods:
                owner = next((c for c in p.mro if name in index.classes[c].class_attrs), qn)
                if owner == qn:
                    wanted.add(name)
    out: list[CopiedAttr] = []
    for qn in p.dropped:
        src = p.sources.of_class(qn)
        cnode = src.class_node(qn)
        for st in cnode.body.body if cnode is not None else []:
            if not isinstance(st, cst.SimpleStatementLine):
                continue
            for s in st.body:
                targets = (
                    [t.target for t in s.targets]
                    if isinstance(s, cst.Assign)
                    else [s.target]
                    if isinstance(s, cst.AnnAssign)
                    else []
                )
                hit = [t.value for t in targets if isinstance(t, cst.Name) and t.value in wanted]
                if hit:
                    out.append(CopiedAttr(qn, hit[0], st, src))
                    wanted -= set(hit)
                    break
    return out


def element_appends(
    p: ClassPlan,
    an: ClassAnalysis,
    child: ModuleSource,
    init: cst.FunctionDef | None,
    inl: Inliner,
    edit: ClassEdit,
) -> None:
    """``self.X[i] = v`` over the range the dropped parent appended X's elements on: make it ``append``."""
    if init is None or edit.super_line is None:
        return
    events = an.chain.stmts
    appends = {
        (c.stmt.attr, c.stmt.loop_iter)
        for c in events
        if c.owner in p.dropped and c.stmt.kind == InitStmtKind.FILL and c.stmt.fill_kind == FillKind.APPEND
    }
    for c in events:
        st = c.stmt
        if c.owner != p.cls or st.kind != InitStmtKind.FILL or st.fill_kind != FillKind.SETITEM:
            continue
        if (
            (st.attr, st.loop_iter) not in appends
            or st.attr not in inl.out.attrs
            or st.attr not in inl.out.dropped_attrs
        ):
            continue
        if not (
            st.loop_iter
            and st.loop_iter[0] == ExprTag.CALL
            and st.loop_iter[1] == "range"
            and len(st.loop_iter[2]) == 1
        ):
            continue
        for node in _assigns_at(child, init, st.line, st.col):
            edit.to_append.add(id(node))


def _assigns_at(child: ModuleSource, init: cst.FunctionDef, line: int, col: int) -> list[cst.Assign]:
    found: list[cst.Assign] = []

    class V(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            t = node.targets[0].target if len(node.targets) == 1 else None
            if (
                child.pos(node) == (line, col)
                and isinstance(t, cst.Subscript)
                and len(t.slice) == 1
                and isinstance(t.slice[0].slice, cst.Index)
                and isinstance(t.slice[0].slice.value, cst.Name)
            ):
                found.append(node)

    init.visit(V())
    return found
