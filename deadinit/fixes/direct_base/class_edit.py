"""The class-level edit of the direct-base rewrite.

* the base that named the old parent becomes the suggested base (or is removed
  for ``object``); other bases and keywords stay;
* the ``super().__init__(...)`` line becomes the inlined statements (or, when the
  class had no ``__init__``, one is added with the parent's signature);
* ``self.X[i] = value`` in a loop over the same ``range`` the parent used to
  append X's elements becomes ``self.X.append(value)`` (the parent's appends are
  gone, the list starts empty);
* copied class attributes go after the class's own, copied methods at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

import libcst as cst

from deadinit.fixes.init_units import InitBody, UnitKind
from deadinit.semantics import syntax as sx
from deadinit.semantics.effects import InitCall
from deadinit.semantics.statements import init_calls_within

_Node = TypeVar("_Node", bound=cst.CSTNode)


@dataclass
class ClassEdit:
    target: cst.ClassDef
    base_arg: cst.Arg | None  # the base naming the old parent
    new_base: str | None  # source text of the new base; None: ``object``
    super_line: cst.SimpleStatementLine | None  # the child's super().__init__ line
    init_body: list[cst.BaseStatement] = field(default_factory=list)  # statements replacing it
    new_init: cst.FunctionDef | None = None  # when the class had no __init__
    to_append: set[int] = field(default_factory=set)  # id(Assign) of element-wise assignments to rewrite
    class_attrs: list[cst.SimpleStatementLine] = field(default_factory=list)
    methods: list[cst.FunctionDef] = field(default_factory=list)


def find_super_line(
    init: InitBody, parent_names: set[str]
) -> tuple[cst.SimpleStatementLine | None, InitCall | None, str]:
    """The top-level line of ``init`` that only calls the parent ``__init__``; (line, the call, problem)."""
    found = [
        call
        for st in init.syntax.body
        for call, ic in init_calls_within(st, init.self_name)
        if ic.target == "super" or ic.target in parent_names
    ]
    if not found:
        return None, None, "its __init__ does not call the parent __init__"
    if len(found) > 1:
        return None, None, "its __init__ calls the parent __init__ more than once"
    for u in init.units:
        facts = u.statements
        if u.kind == UnitKind.LINE and isinstance(u.node, cst.SimpleStatementLine) and len(facts) == 1:
            st = facts[0].stmt
            if isinstance(st, sx.ExprStmt) and st.value is found[0]:
                return u.node, facts[0].init_call, ""
    return None, None, "the parent __init__ call is not a statement of its own at the top of __init__"


def append_rewrite(value_assign: cst.Assign) -> cst.Expr:
    sub = value_assign.targets[0].target
    assert isinstance(sub, cst.Subscript)  # ``self.X[i] = v`` (``copy.element_appends``)
    call = cst.Call(func=cst.Attribute(value=sub.value, attr=cst.Name("append")), args=[cst.Arg(value_assign.value)])
    return cst.Expr(call)


class _Edit(cst.CSTTransformer):
    def __init__(self, e: ClassEdit) -> None:
        self.e = e

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        if original_node is self.e.super_line:
            stmts = list(self.e.init_body)
            if not stmts:
                return cst.RemoveFromParent()
            first = stmts[0]
            stmts[0] = first.with_changes(
                leading_lines=list(original_node.leading_lines) + list(getattr(first, "leading_lines", []))
            )
            return cst.FlattenSentinel(stmts)
        return updated_node

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.BaseSmallStatement:
        if id(original_node) in self.e.to_append:
            return append_rewrite(updated_node)
        return updated_node

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        if original_node is not self.e.target:
            return updated_node
        return _class(self.e, original_node, updated_node)


def _class(e: ClassEdit, original: cst.ClassDef, node: cst.ClassDef) -> cst.ClassDef:
    bases: list[cst.Arg] = []
    for orig, arg in zip(original.bases, node.bases, strict=True):
        if orig is e.base_arg:
            if e.new_base is None:
                continue
            arg = arg.with_changes(value=cst.parse_expression(e.new_base))
        bases.append(arg)
    if bases:
        bases[-1] = bases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT) if not node.keywords else bases[-1]
    changes: dict[str, object] = {"bases": bases}
    if not bases and not node.keywords:
        changes.update(lpar=cst.MaybeSentinel.DEFAULT, rpar=cst.MaybeSentinel.DEFAULT)
    body: list[cst.CSTNode] = list(node.body.body)
    first_def = next((i for i, st in enumerate(body) if not isinstance(st, cst.SimpleStatementLine)), len(body))
    attrs = [_spaced(a, blank=False) for a in e.class_attrs]
    body[first_def:first_def] = attrs
    if e.new_init is not None:
        at = first_def + len(attrs)
        body.insert(at, _spaced(e.new_init, blank=True))
    body += [_spaced(m, blank=True) for m in e.methods]
    if attrs and first_def + len(attrs) < len(body):
        nxt = body[first_def + len(attrs)]
        if isinstance(nxt, cst.FunctionDef) and not any(line.comment is None for line in nxt.leading_lines):
            body[first_def + len(attrs)] = nxt.with_changes(
                leading_lines=[cst.EmptyLine(indent=False), *nxt.leading_lines]
            )
    changes["body"] = node.body.with_changes(body=body)
    return node.with_changes(**changes)


def _spaced(node: _Node, blank: bool) -> _Node:
    comments = [line for line in getattr(node, "leading_lines", []) if line.comment is not None]
    return node.with_changes(leading_lines=([cst.EmptyLine(indent=False)] if blank else []) + comments)


def apply(module: cst.Module, e: ClassEdit) -> cst.Module:
    return module.visit(_Edit(e))
