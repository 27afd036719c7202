"""Names in libcst nodes, for moving code: which names it uses (renames, imports to carry along)."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

Compound = cst.If | cst.For | cst.While | cst.With | cst.Try  # the statements whose blocks ``_Flow`` follows


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


def name_loads(node: cst.CSTNode) -> list[cst.Name]:
    """Every ``Name`` of ``node`` that is not an attribute or keyword name."""
    out: list[cst.Name] = []

    class V(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> bool:
            n.value.visit(self)
            return False

        def visit_Arg(self, n: cst.Arg) -> bool:
            n.value.visit(self)
            return False

        def visit_Name(self, n: cst.Name) -> None:
            out.append(n)

    node.visit(V())
    return out


def free_after(func: cst.FunctionDef, call: cst.CSTNode) -> set[str]:
    """Names of ``func`` that code put in place of the statement ``call`` may bind as its own locals
    without a rename: ``func`` binds each one again before every read of it after ``call``, never
    reads it before binding it (a global it reads would become a local), never passes it to
    ``call``, and does not take it as a parameter, declare it global or use it in a nested scope."""
    params = {p.name.value for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)}
    for star in (func.params.star_arg, func.params.star_kwarg):
        if isinstance(star, cst.Param):
            params.add(star.name.value)
    body: Sequence[cst.CSTNode] = func.body.body if isinstance(func.body, cst.IndentedBlock) else [func.body]
    names = identifiers(func) - params - identifiers(call) - {func.name.value}
    return {n for n in names if _Flow(n, call).block(body, False)}


class _Flow:
    """Whether every read of ``name`` follows a binding of it made after the statement ``call``."""

    def __init__(self, name: str, call: cst.CSTNode) -> None:
        self.name = name
        self.call = call
        self.seen = False

    def block(self, stmts: Sequence[cst.CSTNode], bound: bool) -> bool:
        ok = True
        for st in stmts:
            ok, bound = self.statement(st, bound)
            if not ok:
                break
        return ok

    def reads(self, *nodes: cst.CSTNode | None) -> bool:
        return any(n is not None and self.name in identifiers(n) for n in nodes)

    def statement(self, st: cst.CSTNode, bound: bool) -> tuple[bool, bool]:
        if st is self.call:
            self.seen = True
            return True, False
        if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in st.body:
                ok, bound = self.small(small, bound)
                if not ok:
                    return False, bound
            return True, bound
        if isinstance(st, (cst.If, cst.For, cst.While, cst.With, cst.Try)):
            return self.compound(st, bound)
        return not self.reads(st), bound  # a nested def or class, match...: any mention is a read

    def small(self, s: cst.BaseSmallStatement, bound: bool) -> tuple[bool, bool]:
        if isinstance(s, (cst.Global, cst.Nonlocal)):
            return self.name not in {n.name.value for n in s.names}, bound
        stores: list[cst.BaseAssignTargetExpression | cst.BaseExpression]
        if isinstance(s, cst.Assign):
            stores = [t.target for t in s.targets]
        elif isinstance(s, cst.AnnAssign) and s.value is not None:
            stores = [s.target]
        else:  # an augmented assignment reads its target; every other statement counts as a read
            return bound or not self.reads(s), bound
        plain = [t for t in stores if isinstance(t, cst.Name)]
        others = [t for t in stores if not isinstance(t, cst.Name)]
        if self.reads(s.value, *others) and not bound:
            return False, bound
        return True, bound or any(t.value == self.name for t in plain)

    def compound(self, st: Compound, bound: bool) -> tuple[bool, bool]:
        if not bound and self.reads(*_headers(st)):
            return False, bound
        had = self.seen
        if not all(self.block(b, bound) for b in _blocks(st)):
            return False, bound
        return True, bound and not (self.seen and not had)  # ``call`` inside: what follows sees the inlined code


def _suite(s: cst.BaseSuite) -> list[cst.CSTNode]:
    return list(s.body) if isinstance(s, cst.IndentedBlock) else [s]


def _headers(st: Compound) -> list[cst.CSTNode | None]:
    if isinstance(st, cst.If):
        out: list[cst.CSTNode | None] = []
        part: cst.If | cst.Else | None = st
        while isinstance(part, cst.If):
            out.append(part.test)
            part = part.orelse
        return out
    if isinstance(st, cst.While):
        return [st.test]
    if isinstance(st, cst.For):
        return [st.iter, st.target]
    if isinstance(st, cst.With):
        return list(st.items)
    return [x for h in st.handlers for x in (h.type, h.name)]


def _blocks(st: Compound) -> list[list[cst.CSTNode]]:
    out = [_suite(st.body)]
    orelse = getattr(st, "orelse", None)
    while isinstance(orelse, cst.If):
        out.append(_suite(orelse.body))
        orelse = orelse.orelse
    if orelse is not None:
        out.append(_suite(orelse.body))
    out += [_suite(h.body) for h in getattr(st, "handlers", ())]
    final = getattr(st, "finalbody", None)
    if final is not None:
        out.append(_suite(final.body))
    return out
