"""The statements of one ``__init__`` body as units, with what each reads, writes and calls.

A unit is one line of simple statements (libcst's ``SimpleStatementLine``: ``a = 1; b =
2`` is one unit of two statements) or one compound statement, whose blocks hold more
units.  Each unit keeps the libcst node it came from (what a rewrite replaces) and the
facts of its statements, which come from ``deadinit.semantics`` applied to the syntax
tree ``deadinit.frontends.cst_adapter`` builds: nothing here decides on its own what a
read, a write, a fill or an ``__init__`` call is.  Both fix strategies read these units:
skip-flag guards the ones that only build dead attributes, direct-base keeps the ones a
re-based class still needs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import CodeRange

from deadinit.fixes.positions import Positions
from deadinit.frontends.cst_adapter import CstAdapter
from deadinit.model.kinds import InitStmtKind, StrEnum
from deadinit.model.summary import InitStmt
from deadinit.semantics import syntax as sx
from deadinit.semantics.effects import InitCall, filled_attr, init_call
from deadinit.semantics.exprs import self_attr
from deadinit.semantics.statements import Loads, bound_names, called_method_attr, header_loads


class UnitKind(StrEnum):
    """``InitUnit.kind``: what the libcst statement is."""

    LINE = "line"  # simple statements on one line
    IF = "if"
    LOOP = "loop"  # for / while
    TRY = "try"
    WITH = "with"
    DEF = "def"  # a nested def or class: one statement, its body is not split
    OTHER = "other"  # match and anything newer: facts over all it holds


@dataclass
class StatementFacts:
    """One simple statement, or the header of a compound statement (its blocks are units)."""

    stmt: sx.Stmt
    node: cst.CSTNode  # the libcst small statement or compound statement
    self_assigns: list[str] = field(default_factory=list)  # ``self.X = ...`` (tuple and loop targets too)
    self_fills: set[str] = field(default_factory=set)  # ``self.X[...] = ``, ``self.X op= ``, ``self.X.append(...)``...
    self_items: set[str] = field(default_factory=set)  # ``self.X[...] = ...`` only (element writes)
    appends: list[str] = field(default_factory=list)  # X of each ``self.X.append(...)``
    methods_called_on: set[str] = field(default_factory=set)  # X of ``self.X.m(...)``, ``m`` not a filling method
    self_reads: list[str] = field(default_factory=list)
    names_read: list[str] = field(default_factory=list)
    names_bound: set[str] = field(default_factory=set)
    globals_declared: set[str] = field(default_factory=set)
    untracked_writes: bool = False  # does something besides building self attributes and binding locals
    weight: int = 1  # 0 for ``pass``, bare annotations and ``global``: nothing to guard on its own
    init_call: InitCall | None = None  # ``super().__init__(...)`` / ``Base.__init__(self, ...)`` as a statement
    calls_self_method: bool = False  # ``self.m(...)`` as a statement

    @property
    def line(self) -> int:
        return self.stmt.line

    @property
    def col(self) -> int:
        return self.stmt.col

    @property
    def end_line(self) -> int:
        return self.stmt.end_line


@dataclass
class InitUnit:
    node: cst.CSTNode  # SimpleStatementLine / SimpleStatementSuite, or the compound statement
    kind: UnitKind
    start: int
    end: int
    lead: int = 0  # lines of comments / blank lines owned by the statement, above ``start``
    statements: list[StatementFacts] = field(default_factory=list)  # the line's, or the compound's header
    blocks: list[list[InitUnit]] = field(default_factory=list)
    can_wrap: bool = True  # False for an ``elif`` (its branch cannot take a guard of its own)
    # the facts of ``statements`` together, gathered on creation; ``self_reads``: attribute -> the unit's first line
    self_assigns: list[str] = field(default_factory=list)
    self_fills: set[str] = field(default_factory=set)
    self_items: set[str] = field(default_factory=set)
    appends: list[str] = field(default_factory=list)
    methods_called_on: set[str] = field(default_factory=set)
    self_reads: dict[str, int] = field(default_factory=dict)
    names_read: set[str] = field(default_factory=set)
    names_bound: set[str] = field(default_factory=set)
    globals_declared: set[str] = field(default_factory=set)
    untracked_writes: bool = False
    weight: int = 1

    def __post_init__(self) -> None:
        self.gather()

    def gather(self) -> None:
        """The facts of ``statements`` together (again, after one of them changed)."""
        self.self_assigns, self.self_fills, self.self_items, self.appends = [], set(), set(), []
        self.methods_called_on, self.self_reads, self.names_read = set(), {}, set()
        self.names_bound, self.globals_declared, self.untracked_writes = set(), set(), False
        for f in self.statements:
            self.self_assigns += f.self_assigns
            self.self_fills |= f.self_fills
            self.self_items |= f.self_items
            self.appends += f.appends
            self.methods_called_on |= f.methods_called_on
            for a in f.self_reads:
                self.self_reads.setdefault(a, self.start)
            self.names_read.update(f.names_read)
            self.names_bound |= f.names_bound
            self.globals_declared |= f.globals_declared
            self.untracked_writes = self.untracked_writes or f.untracked_writes
        if self.kind == UnitKind.LINE:
            self.weight = max((f.weight for f in self.statements), default=0)


@dataclass
class InitBody:
    """One ``__init__``: its libcst and syntax nodes, the name of ``self`` and its units."""

    func: cst.FunctionDef
    syntax: sx.FunctionDef
    self_name: str
    units: list[InitUnit]
    by_node: dict[int, InitUnit] = field(default_factory=dict)  # id(libcst node) -> unit

    def walk(self) -> Iterator[InitUnit]:
        return walk_units(self.units)

    def params(self) -> list[str]:
        """Every parameter name, ``*args`` and ``**kwargs`` last."""
        plain = [p.name for p in self.syntax.params if not p.star]
        return plain + [p.name for p in self.syntax.params if p.star]

    def has_star(self) -> bool:
        return any(p.star for p in self.syntax.params)

    def init_call_at(self, line: int) -> cst.Call | None:
        """The libcst call of the ``super().__init__(...)`` / ``Base.__init__(self, ...)`` statement on ``line``."""
        for u in self.walk():
            for f in u.statements:
                if f.init_call is not None and f.line == line and isinstance(f.node, cst.Expr):
                    assert isinstance(f.node.value, cst.Call)  # an __init__ call is a call
                    return f.node.value
        return None


def take_named_writes(body: InitBody, flow: list[InitStmt] | None) -> None:
    """Each call statement the analysis' flattened ``__init__`` (``flow``) reads as an assignment
    (``self.register_buffer("x", t)``, ``self.add_module(self.norm1_name, m)``, ``setattr(self, "x", v)``)
    assigns that attribute in its unit too, instead of being work of unknown effect."""
    named = {(st.line, st.col): st.attr for st in flow or () if st.kind == InitStmtKind.ASSIGN and st.attr}
    if not named:
        return
    for u in body.walk():
        changed = False
        for f in u.statements:
            attr = named.get((f.line, f.col))
            if attr is None or not f.untracked_writes or not isinstance(f.stmt, sx.ExprStmt):
                continue
            f.self_assigns, f.untracked_writes = [attr], False
            f.methods_called_on, f.calls_self_method = set(), False
            changed = True
        if changed:
            u.gather()


def walk_units(units: list[InitUnit]) -> Iterator[InitUnit]:
    for u in units:
        yield u
        for b in u.blocks:
            yield from walk_units(b)


def init_body(func: cst.FunctionDef, syntax: sx.FunctionDef, adapter: CstAdapter, positions: Positions) -> InitBody:
    """The units of ``func``; ``syntax`` is what ``adapter`` made of it (``origins`` lead back), its
    positions are ``positions``'."""
    positional = [p for p in syntax.params if p.group in (sx.ParamGroup.POSONLY, sx.ParamGroup.NORMAL) and not p.star]
    self_name = positional[0].name if positional else "self"
    builder = _UnitBuilder(self_name, adapter, positions)
    units = builder.suite(func.body, syntax.body)
    body = InitBody(func, syntax, self_name, units)
    body.by_node = {id(u.node): u for u in walk_units(units)}
    return body


class _UnitBuilder:
    def __init__(self, self_name: str, adapter: CstAdapter, positions: Positions) -> None:
        self.self_name = self_name
        self.adapter = adapter
        self.positions = positions

    def _range(self, node: cst.CSTNode) -> CodeRange:
        return self.positions[node]

    def suite(self, suite: cst.BaseSuite, body: sx.Body) -> list[InitUnit]:
        if isinstance(suite, cst.IndentedBlock):
            return self.block(list(suite.body), body)
        assert isinstance(suite, cst.SimpleStatementSuite)  # libcst's other suite
        return self.block([suite], body)  # ``if x: a = 1``: the suite is one line

    def block(self, nodes: Sequence[cst.BaseStatement | cst.SimpleStatementSuite], body: sx.Body) -> list[InitUnit]:
        out: list[InitUnit] = []
        stmts = iter(body)
        for node in nodes:
            if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                out.append(self.line(node, [next(stmts) for _ in node.body]))
            else:
                assert isinstance(node, cst.BaseCompoundStatement)  # libcst's other statement
                out.append(self.compound(node, next(stmts)))
        return out

    def _unit(self, node: cst.CSTNode, kind: UnitKind, statements: list[StatementFacts]) -> InitUnit:
        rng = self._range(node)
        lead = len(getattr(node, "leading_lines", ()) or ())
        return InitUnit(node, kind, rng.start.line, rng.end.line, lead, statements)

    def line(self, node: cst.SimpleStatementLine | cst.SimpleStatementSuite, stmts: list[sx.Stmt]) -> InitUnit:
        facts = []
        for small, st in zip(node.body, stmts, strict=True):
            assert self.adapter.origins.get(id(st)) is small
            facts.append(statement_facts(st, small, self.self_name))
        return self._unit(node, UnitKind.LINE, facts)

    def compound(self, node: cst.BaseCompoundStatement, st: sx.Stmt) -> InitUnit:
        header = header_facts(st, node, self.self_name)
        if isinstance(node, cst.If) and isinstance(st, sx.If):
            u = self._unit(node, UnitKind.IF, [header])
            u.blocks.append(self.suite(node.body, st.body))
            if isinstance(node.orelse, cst.If):
                elif_unit = self.compound(node.orelse, st.orelse[0])
                elif_unit.can_wrap = False
                u.blocks.append([elif_unit])
            elif node.orelse is not None:
                u.blocks.append(self.suite(node.orelse.body, st.orelse))
        elif isinstance(node, (cst.For, cst.While)) and isinstance(st, (sx.For, sx.While)):
            u = self._unit(node, UnitKind.LOOP, [header])
            u.blocks.append(self.suite(node.body, st.body))
            if node.orelse is not None:
                u.blocks.append(self.suite(node.orelse.body, st.orelse))
        elif isinstance(node, (cst.Try, cst.TryStar)) and isinstance(st, sx.Try):
            u = self._unit(node, UnitKind.TRY, [header])
            u.blocks.append(self.suite(node.body, st.body))
            handlers: Sequence[cst.ExceptHandler | cst.ExceptStarHandler] = node.handlers
            for h, sh in zip(handlers, st.handlers, strict=True):
                u.blocks.append(self.suite(h.body, sh.body))
            for part, body in ((node.orelse, st.orelse), (node.finalbody, st.finalbody)):
                if part is not None:
                    u.blocks.append(self.suite(part.body, body))
        elif isinstance(node, cst.With) and isinstance(st, sx.With):
            u = self._unit(node, UnitKind.WITH, [header])
            u.blocks.append(self.suite(node.body, st.body))
        elif isinstance(st, (sx.FunctionDef, sx.ClassDef)):
            u = self._unit(node, UnitKind.DEF, [header])
        else:
            u = self._unit(node, UnitKind.OTHER, [header])
        return u


def statement_facts(st: sx.Stmt, node: cst.CSTNode, self_name: str) -> StatementFacts:
    """The facts of one simple statement."""
    f = StatementFacts(st, node)
    _read(f, header_loads(st, self_name))
    f.names_bound = set(bound_names(st))
    if isinstance(st, sx.Simple) and st.what == sx.Jump.PASS:
        f.weight = 0
    elif isinstance(st, sx.Names) and st.scope == sx.NameScope.GLOBAL:
        f.globals_declared = set(st.names)
        f.weight = 0
    elif isinstance(st, sx.AnnAssign) and st.value is None:
        f.weight = 0
    elif isinstance(st, (sx.Assign, sx.AnnAssign)):
        for t in st.targets if isinstance(st, sx.Assign) else (st.target,):
            _store(f, t, self_name, assigned=True)
    elif isinstance(st, sx.AugAssign):
        attr = self_attr(st.target, self_name)
        if attr is not None:
            f.self_fills.add(attr)
        elif not isinstance(st.target, sx.Name):
            _store(f, st.target, self_name, assigned=True)
    elif isinstance(st, sx.ExprStmt) and isinstance(st.value, sx.Call):
        _call(f, st.value, self_name)
    else:  # calls in other forms, del, assert, raise, return, imports...
        f.untracked_writes = True
    return f


def header_facts(st: sx.Stmt, node: cst.CSTNode, self_name: str) -> StatementFacts:
    """The facts of a compound statement outside its blocks (all of it for a nested def or class)."""
    f = StatementFacts(st, node)
    _read(f, header_loads(st, self_name))
    f.names_bound = set(bound_names(st))
    if isinstance(st, sx.For):
        _store(f, st.target, self_name, assigned=True)
    elif isinstance(st, sx.With):
        for item in st.items:
            if item.asname is not None:
                _store(f, item.asname, self_name, assigned=False)
    return f


def _read(f: StatementFacts, loaded: Loads) -> None:
    f.self_reads = loaded.attrs
    f.names_read = loaded.names


def _store(f: StatementFacts, target: sx.Node, self_name: str, assigned: bool) -> None:
    """Classify what storing into ``target`` writes; ``assigned``: a value is stored (not ``with ... as``)."""
    attr = self_attr(target, self_name)
    if attr is not None:
        if assigned:
            f.self_assigns.append(attr)
        else:
            f.untracked_writes = True
    elif isinstance(target, (sx.Sequence, sx.Starred)):
        for el in target.children():
            _store(f, el, self_name, assigned)
    elif isinstance(target, sx.Subscript) and (base := self_attr(target.value, self_name)) is not None:
        f.self_fills.add(base)
        f.self_items.add(base)
    elif not isinstance(target, sx.Name):  # obj.x = ..., local[i] = ...
        f.untracked_writes = True


def _call(f: StatementFacts, call: sx.Call, self_name: str) -> None:
    f.init_call = init_call(call, self_name)
    filled = filled_attr(call, self_name)
    if filled is not None:
        f.self_fills.add(filled)
        if isinstance(call.func, sx.Attribute) and call.func.attr == "append":
            f.appends.append(filled)
        return
    f.untracked_writes = True
    called_on = called_method_attr(call, self_name)
    if called_on is not None:
        f.methods_called_on.add(called_on)
    elif self_attr(call.func, self_name) is not None:
        f.calls_self_method = True
