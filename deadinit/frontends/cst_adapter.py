"""libcst -> ``deadinit.semantics.syntax``: the reference adapter (and the one ``fix`` uses).

Positions come from libcst's public ``PositionProvider``.  ``origins`` maps each
statement node made here back to the libcst node it came from, so that a fix can
find the code a fact was read from.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, Protocol

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from deadinit.frontends.cst_operators import AUGOPS, BINOPS, CMPOPS, COMPREHENSIONS, SEQUENCES, UNARY
from deadinit.semantics import syntax as sx

_At = tuple[int, int, int]


class NodeRanges(Protocol):
    """node -> its ``CodeRange``: libcst's ``PositionProvider`` mapping, or ``fixes.positions.Positions``."""

    def __getitem__(self, node: cst.CSTNode, /) -> CodeRange: ...


class CstAdapter:
    """Converts one parsed module; ``origins``: id(syntax statement) -> libcst node."""

    def __init__(self, module: cst.Module | None) -> None:
        """``module`` None: nodes without positions (for questions about a single expression)."""
        self.module = module if module is not None else cst.Module([])
        self.pos: NodeRanges | None = (
            MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider) if module else None
        )
        self.origins: dict[int, cst.CSTNode] = {}

    def convert(self) -> sx.Module:
        return sx.Module(self.body(self.module.body))

    # -- positions ---------------------------------------------------------------
    def _at(self, node: cst.CSTNode) -> tuple[int, int, int]:
        if self.pos is None:
            return 0, 0, 0
        r = self.pos[node]
        return r.start.line, r.start.column, r.end.line

    # -- statements --------------------------------------------------------------
    def body(self, stmts) -> sx.Body:
        out: list[sx.Stmt] = []
        for st in stmts:
            if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                for small in st.body:
                    s = self.small(small)
                    self.origins[id(s)] = small
                    out.append(s)
            else:
                s = self.compound(st)
                self.origins[id(s)] = st
                out.append(s)
        return tuple(out)

    def suite(self, suite: cst.BaseSuite | None) -> sx.Body:
        if suite is None:
            return ()
        if isinstance(suite, cst.IndentedBlock):
            return self.body(suite.body)
        return self.body([suite])

    def small(self, s: cst.BaseSmallStatement) -> sx.Stmt:
        at = self._at(s)
        e = self.expr
        if isinstance(s, cst.Assign):
            return sx.Assign(*at, tuple(e(t.target) for t in s.targets), e(s.value))
        if isinstance(s, cst.AnnAssign):
            value = e(s.value) if s.value is not None else None
            return sx.AnnAssign(*at, e(s.target), e(s.annotation.annotation), value)
        if isinstance(s, cst.AugAssign):
            return sx.AugAssign(*at, e(s.target), AUGOPS[type(s.operator)], e(s.value))
        if isinstance(s, cst.Expr):
            return sx.ExprStmt(*at, e(s.value))
        if isinstance(s, cst.Return):
            return sx.Return(*at, e(s.value) if s.value is not None else None)
        if isinstance(s, cst.Raise):
            cause = e(s.cause.item) if s.cause is not None else None
            return sx.Raise(*at, e(s.exc) if s.exc is not None else None, cause)
        if isinstance(s, (cst.Global, cst.Nonlocal)):
            scope = sx.NameScope.GLOBAL if isinstance(s, cst.Global) else sx.NameScope.NONLOCAL
            return sx.Names(*at, scope, tuple(n.name.value for n in s.names))
        if isinstance(s, cst.Del):
            t = s.target
            targets = tuple(e(el.value) for el in t.elements) if isinstance(t, cst.Tuple) and not t.lpar else (e(t),)
            return sx.Delete(*at, targets)
        if isinstance(s, (cst.Pass, cst.Break, cst.Continue)):
            return sx.Simple(*at, sx.Jump(type(s).__name__.lower()))
        if isinstance(s, cst.Assert):
            return sx.Assert(*at, e(s.test), e(s.msg) if s.msg is not None else None)
        if isinstance(s, cst.Import):
            return sx.Import(*at, None, 0, tuple(self.alias(a) for a in s.names))
        if isinstance(s, cst.ImportFrom):
            module_node = e(s.module) if s.module is not None else None
            module = _dotted_text(s.module) if s.module is not None else ""
            if isinstance(s.names, cst.ImportStar):
                return sx.Import(*at, module, len(s.relative), (), True, module_node)
            return sx.Import(*at, module, len(s.relative), tuple(self.alias(a) for a in s.names), False, module_node)
        return sx.OtherStmt(*at, type(s).__name__, self.generic_children(s))

    def alias(self, a: cst.ImportAlias) -> sx.ImportName:
        asname = a.asname.name.value if a.asname is not None else None  # type: ignore[union-attr]
        return sx.ImportName(*self._at(a), _dotted_text(a.name), self.expr(a.name), asname)

    def compound(self, st: cst.BaseCompoundStatement) -> sx.Stmt:
        at = self._at(st)
        e = self.expr
        if isinstance(st, cst.If):
            return self.if_(st, False)
        if isinstance(st, cst.For):
            orelse = self.suite(st.orelse.body) if st.orelse is not None else ()
            return sx.For(*at, e(st.target), e(st.iter), self.suite(st.body), orelse)
        if isinstance(st, cst.While):
            orelse = self.suite(st.orelse.body) if st.orelse is not None else ()
            return sx.While(*at, e(st.test), self.suite(st.body), orelse)
        if isinstance(st, (cst.Try, cst.TryStar)):
            handlers = tuple(
                sx.Handler(
                    *self._at(h),
                    e(h.type) if h.type is not None else None,
                    e(h.name.name) if h.name is not None else None,
                    self.suite(h.body),
                )
                for h in st.handlers
            )
            orelse = self.suite(st.orelse.body) if st.orelse is not None else ()
            final = self.suite(st.finalbody.body) if st.finalbody is not None else ()
            return sx.Try(*at, self.suite(st.body), handlers, orelse, final)
        if isinstance(st, cst.With):
            items = tuple(
                sx.WithItem(*self._at(i), e(i.item), e(i.asname.name) if i.asname is not None else None)
                for i in st.items
            )
            return sx.With(*at, items, self.suite(st.body))
        if isinstance(st, cst.FunctionDef):
            returns = e(st.returns.annotation) if st.returns is not None else None
            return sx.FunctionDef(
                *at, st.name.value, self.decorators(st.decorators), self.params(st.params), returns, self.suite(st.body)
            )
        if isinstance(st, cst.ClassDef):
            args = (*st.bases, *st.keywords)
            texts = tuple(self.module.code_for_node(a.value) for a in args)
            return sx.ClassDef(
                *at,
                st.name.value,
                self.decorators(st.decorators),
                tuple(self.arg(a) for a in args),
                texts,
                self.suite(st.body),
            )
        return sx.OtherStmt(*at, type(st).__name__, self.generic_children(st))

    def if_(self, st: cst.If, is_elif: bool) -> sx.If:
        orelse: sx.Body = ()
        if isinstance(st.orelse, cst.If):
            inner = self.if_(st.orelse, True)
            self.origins[id(inner)] = st.orelse
            orelse = (inner,)
        elif st.orelse is not None:
            orelse = self.suite(st.orelse.body)
        return sx.If(*self._at(st), self.expr(st.test), self.suite(st.body), orelse, is_elif)

    def decorators(self, decos) -> tuple[sx.Expr, ...]:
        return tuple(self.expr(d.decorator) for d in decos)

    def params(self, p: cst.Parameters) -> tuple[sx.Param, ...]:
        out = [self.param(x, "", sx.ParamGroup.POSONLY) for x in p.posonly_params]
        out += [self.param(x, "", sx.ParamGroup.NORMAL) for x in p.params]
        if isinstance(p.star_arg, cst.Param):
            out.append(self.param(p.star_arg, "*", sx.ParamGroup.NORMAL))
        out += [self.param(x, "", sx.ParamGroup.KWONLY) for x in p.kwonly_params]
        if p.star_kwarg is not None:
            out.append(self.param(p.star_kwarg, "**", sx.ParamGroup.NORMAL))
        return tuple(out)

    def param(self, x: cst.Param, star: str, group: sx.ParamGroup) -> sx.Param:
        ann = self.expr(x.annotation.annotation) if x.annotation is not None else None
        default = self.expr(x.default) if x.default is not None else None
        return sx.Param(*self._at(x), x.name.value, ann, default, star, group)

    def arg(self, a: cst.Arg) -> sx.Arg:
        star = a.star if isinstance(a.star, str) else ""
        return sx.Arg(*self._at(a), self.expr(a.value), a.keyword.value if a.keyword is not None else None, star)

    # -- expressions -------------------------------------------------------------
    def expr(self, n: cst.CSTNode) -> sx.Expr:
        """A name, an attribute or a call here (the commonest); any other node by the converter its
        type maps to in ``_EXPRESSIONS``."""
        at = self._at(n)
        t = type(n)
        if t is cst.Name:
            return sx.Name(*at, n.value)
        if t is cst.Attribute:
            return sx.Attribute(*at, self.expr(n.value), n.attr.value)
        if t is cst.Call:
            return sx.Call(*at, self.expr(n.func), tuple(self.arg(a) for a in n.args))
        convert = _EXPRESSIONS.get(t)
        if convert is None:
            return sx.Other(*at, t.__name__, self.generic_children(n))
        return convert(self, n, at)

    def _const(self, n: cst.Integer | cst.Float | cst.Imaginary | cst.SimpleString, at: _At) -> sx.Expr:
        return sx.Const(*at, _literal(n.value))

    def _concatenated(self, n: cst.ConcatenatedString, at: _At) -> sx.Expr:
        value = n.evaluated_value
        if value is None:  # an f-string among the parts
            return self.fstring(n, at)
        return sx.Const(*at, value)

    def _ellipsis(self, n: cst.Ellipsis, at: _At) -> sx.Expr:
        return sx.Const(*at, ...)

    def _subscript(self, n: cst.Subscript, at: _At) -> sx.Expr:
        return sx.Subscript(*at, self.expr(n.value), tuple(self.slice(el.slice) for el in n.slice))

    def _sequence(self, n: cst.Tuple | cst.List | cst.Set, at: _At) -> sx.Expr:
        return sx.Sequence(*at, SEQUENCES[type(n)], tuple(self.element(el) for el in n.elements))

    def _dict(self, n: cst.Dict, at: _At) -> sx.Expr:
        return sx.Dict(*at, tuple(self.dict_item(el) for el in n.elements))

    def _comprehension(self, n: cst.ListComp | cst.SetComp | cst.GeneratorExp, at: _At) -> sx.Expr:
        return sx.Comprehension(*at, COMPREHENSIONS[type(n)], None, self.expr(n.elt), self.generators(n.for_in))

    def _dict_comprehension(self, n: cst.DictComp, at: _At) -> sx.Expr:
        return sx.Comprehension(*at, "dict", self.expr(n.key), self.expr(n.value), self.generators(n.for_in))

    def _lambda(self, n: cst.Lambda, at: _At) -> sx.Expr:
        return sx.Lambda(*at, self.params(n.params), self.expr(n.body))

    def _if_exp(self, n: cst.IfExp, at: _At) -> sx.Expr:
        return sx.IfExp(*at, self.expr(n.test), self.expr(n.body), self.expr(n.orelse))

    def _bool_op(self, n: cst.BooleanOperation, at: _At) -> sx.Expr:
        op = "and" if isinstance(n.operator, cst.And) else "or"
        return sx.BoolOp(*at, op, self.expr(n.left), self.expr(n.right))

    def _unary_op(self, n: cst.UnaryOperation, at: _At) -> sx.Expr:
        return sx.UnaryOp(*at, UNARY[type(n.operator)], self.expr(n.expression))

    def _bin_op(self, n: cst.BinaryOperation, at: _At) -> sx.Expr:
        return sx.BinOp(*at, BINOPS[type(n.operator)], self.expr(n.left), self.expr(n.right))

    def _compare(self, n: cst.Comparison, at: _At) -> sx.Expr:
        ops = tuple(CMPOPS[type(c.operator)] for c in n.comparisons)
        return sx.Compare(*at, self.expr(n.left), ops, tuple(self.expr(c.comparator) for c in n.comparisons))

    def _starred(self, n: cst.StarredElement, at: _At) -> sx.Expr:
        return sx.Starred(*at, self.expr(n.value))

    def _walrus(self, n: cst.NamedExpr, at: _At) -> sx.Expr:
        return sx.Other(
            *at, sx.OtherWhat.WALRUS, (self.expr(n.target), self.expr(n.value)), stores=(self.expr(n.target),)
        )

    def fstring(self, n: cst.BaseExpression, at: tuple[int, int, int]) -> sx.FString:
        parts: list[str | sx.Expr] = []
        self._fstring_parts(n, parts)
        return sx.FString.of_parts(*at, parts, escapes="\\" in self.module.code_for_node(n))

    def _fstring_parts(self, n: cst.CSTNode, parts: list) -> None:
        if isinstance(n, cst.ConcatenatedString):
            self._fstring_parts(n.left, parts)
            self._fstring_parts(n.right, parts)
        elif isinstance(n, cst.SimpleString):
            parts.append(n.evaluated_value if isinstance(n.evaluated_value, str) else "")
        elif isinstance(n, cst.FormattedString):
            for p in n.parts:
                if isinstance(p, cst.FormattedStringText):
                    parts.append(p.value)
                else:
                    parts.append(self.expr(p.expression))
                    for spec in p.format_spec or ():
                        if isinstance(spec, cst.FormattedStringExpression):
                            parts.append(self.expr(spec.expression))

    def slice(self, s: cst.CSTNode) -> sx.Expr:
        if isinstance(s, cst.Index):
            return self.expr(s.value)
        return sx.Other(*self._at(s), sx.OtherWhat.SLICE, self.generic_children(s))

    def element(self, el: cst.BaseElement) -> sx.Expr:
        if isinstance(el, cst.StarredElement):
            return sx.Starred(*self._at(el), self.expr(el.value))
        return self.expr(el.value)

    def dict_item(self, el: cst.BaseDictElement) -> sx.DictItem:
        if isinstance(el, cst.DictElement):
            return sx.DictItem(*self._at(el), self.expr(el.key), self.expr(el.value))
        return sx.DictItem(*self._at(el), None, self.expr(el.value))

    def generators(self, f: cst.CompFor | None) -> tuple[sx.Generator, ...]:
        out = []
        while f is not None:
            ifs = tuple(self.expr(i.test) for i in f.ifs)
            out.append(sx.Generator(*self._at(f), self.expr(f.target), self.expr(f.iter), ifs))
            f = f.inner_for_in
        return tuple(out)

    def generic_children(self, n: cst.CSTNode) -> tuple[sx.Node, ...]:
        """Expressions and statements under a node without a rule of its own, in source order."""
        out: list[sx.Node] = []
        for c in n.children:
            if isinstance(c, cst.Name) and isinstance(n, _PATTERN_NAMES):
                continue  # a capture or a keyword of a class pattern: it binds or names, it loads nothing
            if isinstance(c, (cst.BaseExpression, cst.Name)):
                out.append(self.expr(c))
            elif isinstance(c, (cst.BaseCompoundStatement, cst.SimpleStatementLine)):
                out.extend(self.body([c]))
            elif isinstance(c, cst.BaseSmallStatement):
                out.append(self.small(c))
            elif isinstance(c, cst.BaseSuite):
                out.extend(self.suite(c))
            else:
                out.extend(self.generic_children(c))
        return tuple(out)


_A = CstAdapter
_EXPRESSIONS: dict[type, Callable[[Any, Any, _At], sx.Expr]] = {
    **dict.fromkeys((cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString), _A._const),
    cst.ConcatenatedString: _A._concatenated,
    cst.Ellipsis: _A._ellipsis,
    cst.Subscript: _A._subscript,
    **dict.fromkeys(SEQUENCES, _A._sequence),
    cst.Dict: _A._dict,
    **dict.fromkeys(COMPREHENSIONS, _A._comprehension),
    cst.DictComp: _A._dict_comprehension,
    cst.Lambda: _A._lambda,
    cst.IfExp: _A._if_exp,
    cst.BooleanOperation: _A._bool_op,
    cst.UnaryOperation: _A._unary_op,
    cst.BinaryOperation: _A._bin_op,
    cst.Comparison: _A._compare,
    cst.StarredElement: _A._starred,
    cst.NamedExpr: _A._walrus,
    cst.FormattedString: _A.fstring,
}

# the match-pattern nodes whose names are not loads (CPython's ast keeps them as plain strings)
_PATTERN_NAMES = (cst.MatchKeywordElement, cst.MatchAs, cst.MatchStar, cst.MatchMapping)


def _literal(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None


def _dotted_text(node: cst.CSTNode) -> str:
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
    return ".".join(reversed(parts))


def to_syntax(module: cst.Module) -> tuple[sx.Module, CstAdapter]:
    adapter = CstAdapter(module)
    return adapter.convert(), adapter


_UNPLACED = CstAdapter(None)


def expression(node: cst.BaseExpression) -> sx.Expr:
    """One libcst expression in the semantic model's terms (positions left at 0)."""
    return _UNPLACED.expr(node)


def parse_expression(text: str) -> sx.Expr | None:
    """A string annotation read as an expression (None when it is not one)."""
    try:
        expr = cst.parse_expression(text)
    except Exception:
        return None
    return CstAdapter(cst.Module([cst.SimpleStatementLine([cst.Expr(expr)])])).expr(expr)
