"""Name facts of libcst nodes for the direct-base rewrite: loads, stores, ``self.x`` reads and writes."""

from __future__ import annotations

import libcst as cst


class _Names(cst.CSTVisitor):
    """Loaded names, ``self.x`` reads, stored locals and ``self.x`` stores of a node."""

    def __init__(self, self_name: str):
        self.self_name = self_name
        self.loads: set = set()
        self.self_reads: set = set()
        self.stores: set = set()
        self.self_stores: set = set()
        self._store_ids: set = set()

    def _mark(self, t) -> None:
        if isinstance(t, cst.Name):
            self.stores.add(t.value)
            self._store_ids.add(id(t))
        elif isinstance(t, (cst.Tuple, cst.List)):
            for el in t.elements:
                self._mark(el.value)
        elif isinstance(t, cst.StarredElement):
            self._mark(t.value)
        elif isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self.self_name:
            self.self_stores.add(t.attr.value)
            self._store_ids.add(id(t))
        elif isinstance(t, cst.Subscript):
            base = t.value
            if (
                isinstance(base, cst.Attribute)
                and isinstance(base.value, cst.Name)
                and base.value.value == self.self_name
            ):
                self.self_stores.add(base.attr.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._mark(t.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._mark(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._mark(node.target)
        if isinstance(node.target, cst.Name):
            self.loads.add(node.target.value)

    def visit_For(self, node: cst.For) -> None:
        self._mark(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._mark(node.target)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._mark(node.asname.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._mark(node.target)

    def visit_Attribute(self, node: cst.Attribute) -> bool | None:
        if isinstance(node.value, cst.Name) and node.value.value == self.self_name:
            if id(node) not in self._store_ids:
                self.self_reads.add(node.attr.value)
            return False
        node.value.visit(self)  # ``a.b``: ``b`` is not a name load
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if id(node) not in self._store_ids:
            self.loads.add(node.value)

    def visit_Arg(self, node: cst.Arg) -> bool | None:
        node.value.visit(self)
        return False  # the keyword is not a name load

    def visit_Param(self, node: cst.Param) -> bool | None:
        self.stores.add(node.name.value)
        if node.default is not None:
            node.default.visit(self)
        return False


def names_of(node: cst.CSTNode, self_name: str) -> _Names:
    v = _Names(self_name)
    node.visit(v)
    return v


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
