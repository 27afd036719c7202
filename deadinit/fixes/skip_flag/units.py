"""The statements of one ``__init__`` body as a tree of ``Unit``s with what each reads and writes.

A unit is a simple statement line, or a compound statement (``if``/``for``/``while``/
``try``/``with``, a nested ``def``) whose blocks hold more units.  ``skip_flag_live``
decides from these facts which units only build attributes a subclass never uses.
Name reads are over-approximated (every ``Name`` an expression mentions), which can
only keep more statements unguarded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

OPAQUE = "opaque"  # something we do not model: never guarded as a whole
SIMPLE = "simple"
COMPOUND = "compound"


@dataclass
class Unit:
    node: cst.CSTNode
    kind: str
    start: int
    end: int
    lead: int = 0  # lines of comments / blank lines owned by the statement, above ``start``
    self_assigns: list = field(default_factory=list)  # ``self.X = ...`` targets, in order
    self_fills: set = field(default_factory=set)  # ``self.X[...] = ...``, ``self.X.m(...)``, ``self.X += ...``
    self_items: set = field(default_factory=set)  # ``self.X[...] = ...`` only (element-wise writes)
    appends: list = field(default_factory=list)  # X of every ``self.X.append(...)``
    names_written: set = field(default_factory=set)
    globals_declared: set = field(default_factory=set)
    reads_self: dict = field(default_factory=dict)  # attr -> first line read
    reads_names: set = field(default_factory=set)
    other_writes: bool = False  # writes something we do not track (obj.x = ..., del, ...)
    weight: int = 1  # 0 for ``pass``, bare annotations and ``global``: never guarded alone
    blocks: list = field(default_factory=list)  # list[list[Unit]] for compound statements
    can_wrap: bool = True  # False for an ``elif`` (its branch cannot take a guard of its own)


class _Reads(cst.CSTVisitor):
    def __init__(self, self_name: str, line: int):
        self.self_name = self_name
        self.line = line
        self.attrs: dict = {}
        self.names: set = set()

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if isinstance(node.value, cst.Name) and node.value.value == self.self_name:
            self.attrs.setdefault(node.attr.value, self.line)
            self.names.add(self.self_name)
            return False
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def _scoped(self, node, bound: set) -> bool:
        """Comprehensions and lambdas: names they bind are not reads of the function's locals."""
        inner = _Reads(self.self_name, self.line)
        for child in node.children:
            child.visit(inner)
        for a, ln in inner.attrs.items():
            self.attrs.setdefault(a, ln)
        self.names |= inner.names - bound
        return False

    def _comp(self, node) -> bool:
        bound: set = set()
        f = node.for_in
        while f is not None:
            bound |= _bound_names(f.target)
            f = f.inner_for_in
        return self._scoped(node, bound)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comp

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        p = node.params
        bound = {x.name.value for x in list(p.params) + list(p.kwonly_params) + list(p.posonly_params)}
        bound |= {x.name.value for x in (p.star_arg, p.star_kwarg) if isinstance(x, cst.Param)}
        return self._scoped(node, bound)


def _bound_names(t) -> set:
    if isinstance(t, cst.Name):
        return {t.value}
    if isinstance(t, (cst.Tuple, cst.List)):
        return set().union(*(_bound_names(e.value) for e in t.elements)) if t.elements else set()
    if isinstance(t, cst.StarredElement):
        return _bound_names(t.value)
    return set()


def _self_attr(node, self_name: str) -> str | None:
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == self_name:
        return node.attr.value
    return None


class UnitBuilder:
    def __init__(self, self_name: str, pos: Callable):
        self.self_name = self_name
        self.pos = pos

    def read(self, u: Unit, node: cst.CSTNode | None) -> None:
        if node is None:
            return
        r = _Reads(self.self_name, u.start)
        node.visit(r)
        for a, ln in r.attrs.items():
            u.reads_self.setdefault(a, ln)
        u.reads_names |= r.names

    def block(self, suite) -> list[Unit]:
        if isinstance(suite, cst.IndentedBlock):
            return [self.unit(s) for s in suite.body]
        return [self.unit(suite)]  # SimpleStatementSuite: one simple unit

    def unit(self, st) -> Unit:
        rng = self.pos(st)
        u = Unit(st, SIMPLE, rng.start.line, rng.end.line, len(getattr(st, "leading_lines", ()) or ()))
        if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            weights = [self.small(u, s) for s in st.body]
            u.weight = max(weights) if weights else 0
            return u
        u.kind = COMPOUND
        if isinstance(st, cst.If):
            self.read(u, st.test)
            u.blocks.append(self.block(st.body))
            if isinstance(st.orelse, cst.If):
                elif_unit = self.unit(st.orelse)
                elif_unit.can_wrap = False
                u.blocks.append([elif_unit])
            elif st.orelse is not None:
                u.blocks.append(self.block(st.orelse.body))
        elif isinstance(st, (cst.For, cst.While)):
            if isinstance(st, cst.For):
                self.read(u, st.iter)
                self._targets(u, st.target, st.iter)
            else:
                self.read(u, st.test)
            u.blocks.append(self.block(st.body))
            if st.orelse is not None:
                u.blocks.append(self.block(st.orelse.body))
        elif isinstance(st, cst.Try) or type(st).__name__ == "TryStar":
            u.blocks.append(self.block(st.body))
            for h in st.handlers:
                self.read(u, h.type)
                if h.name is not None:
                    self._targets(u, h.name.name, None)
                u.blocks.append(self.block(h.body))
            for part in (st.orelse, st.finalbody):
                if part is not None:
                    u.blocks.append(self.block(part.body))
        elif isinstance(st, cst.With):
            u.kind = OPAQUE  # context managers have effects: only their body can be guarded
            for item in st.items:
                self.read(u, item.item)
                if item.asname is not None:
                    self._targets(u, item.asname.name, None)
            u.blocks.append(self.block(st.body))
        elif isinstance(st, (cst.FunctionDef, cst.ClassDef)):
            u.kind = SIMPLE
            u.names_written.add(st.name.value)
            self.read(u, st)
        else:  # match and anything newer: modelled as an opaque effect that reads everything
            u.kind = OPAQUE
            self.read(u, st)
        return u

    def _targets(self, u: Unit, t, value) -> None:
        attr = _self_attr(t, self.self_name)
        if attr is not None:
            if value is not None:
                u.self_assigns.append(attr)
            else:
                u.other_writes = True
            return
        if isinstance(t, cst.Name):
            u.names_written.add(t.value)
        elif isinstance(t, (cst.Tuple, cst.List)):
            for el in t.elements:
                self._targets(u, el.value, value)
        elif isinstance(t, cst.StarredElement):
            self._targets(u, t.value, value)
        elif isinstance(t, cst.Subscript) and _self_attr(t.value, self.self_name) is not None:
            u.self_fills.add(_self_attr(t.value, self.self_name))
            u.self_items.add(_self_attr(t.value, self.self_name))
            self.read(u, t.slice[0] if t.slice else None)
            for s in t.slice[1:]:
                self.read(u, s)
        else:  # obj.x = ..., local[i] = ...: a write we do not track
            u.other_writes = True
            self.read(u, t)

    def small(self, u: Unit, s) -> int:
        if isinstance(s, cst.Pass):
            return 0
        if isinstance(s, cst.Global):
            u.globals_declared |= {n.name.value for n in s.names}
            return 0
        if isinstance(s, cst.AnnAssign) and s.value is None:
            return 0
        if isinstance(s, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            self.read(u, s.value)
            targets = [t.target for t in s.targets] if isinstance(s, cst.Assign) else [s.target]
            for t in targets:
                if isinstance(s, cst.AugAssign):
                    attr = _self_attr(t, self.self_name)
                    if attr is not None:
                        u.self_fills.add(attr)
                        u.reads_self.setdefault(attr, u.start)
                        continue
                    self.read(u, t)
                self._targets(u, t, s.value)
            return 1
        if isinstance(s, cst.Expr) and isinstance(s.value, cst.Call):
            func = s.value.func
            if isinstance(func, cst.Attribute) and _self_attr(func.value, self.self_name) is not None:
                # ``self.X.append(...)``: a fill of X (any method: the object is X's own)
                u.self_fills.add(_self_attr(func.value, self.self_name))
                if func.attr.value == "append":
                    u.appends.append(_self_attr(func.value, self.self_name))
                for a in s.value.args:
                    self.read(u, a.value)
                return 1
        u.other_writes = True  # calls, del, assert, raise, return, imports...
        self.read(u, s)
        return 1


def function_units(func: cst.FunctionDef, pos: Callable) -> tuple[str, list[Unit]]:
    params = list(func.params.posonly_params) + list(func.params.params)
    self_name = params[0].name.value if params else "self"
    return self_name, UnitBuilder(self_name, pos).block(func.body)


def walk_units(units: list[Unit]):
    for u in units:
        yield u
        for b in u.blocks:
            yield from walk_units(b)
