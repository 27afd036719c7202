"""Names in libcst nodes, for moving code: which names it uses (renames, imports to carry along)."""

from __future__ import annotations

import libcst as cst


class _Identifiers(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)  # ``a.b``: ``b`` is no name of the scope
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)  # the keyword is no name of the scope
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        self.found.add(node.name.value)
        if node.default is not None:
            node.default.visit(self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.found.add(node.value)


def identifiers(node: cst.CSTNode) -> set[str]:
    """Every name ``node`` loads or binds, nested scopes included: the names inlined code
    must not take over."""
    v = _Identifiers()
    node.visit(v)
    return v.found


def name_loads(node) -> list:
    """Every ``Name`` of ``node`` that is not an attribute or keyword name."""
    out = []

    class V(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute):
            n.value.visit(self)
            return False

        def visit_Arg(self, n: cst.Arg):
            n.value.visit(self)
            return False

        def visit_Name(self, n: cst.Name):
            out.append(n)

    node.visit(V())
    return out
