"""CPython ``ast`` -> ``deadinit.semantics.syntax``: the fast adapter ``check`` uses.

It gives the same tree as ``deadinit.frontends.cst_adapter`` (tests/frontends check
it on generated code and on real code): positions in characters, not UTF-8 bytes;
a node's own parentheses outside its extent, as libcst counts them; children in
source order; module names of imports as ``Attribute`` chains with positions.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from deadinit.frontends.ast_operators import BINOPS, CMPOPS, COMPREHENSIONS, KEYWORDS, SEQUENCES, UNARY
from deadinit.frontends.ast_statements import StatementAdapter, position, what
from deadinit.semantics import syntax as sx

_NAME, _ATTRIBUTE, _CONSTANT, _CALL = ast.Name, ast.Attribute, ast.Constant, ast.Call
_SX_NAME, _SX_ATTRIBUTE, _SX_CONST, _SX_ARG = sx.Name, sx.Attribute, sx.Const, sx.Arg


class AstAdapter(StatementAdapter):
    """Statements (``deadinit.frontends.ast_statements``) and expressions: ``compound`` converts an
    expression by the converter its node type maps to in ``_COMPOUNDS``."""

    # -- expressions -------------------------------------------------------------
    def expr(self, n: ast.expr) -> sx.Expr:
        """Names, attributes and constants off the lines with wide characters take CPython's positions as they are."""
        t = type(n)
        if t is not _NAME and t is not _ATTRIBUTE and t is not _CONSTANT:
            return self.compound(n)
        line = n.lineno
        at = self._at(n) if line in self._wide else (line, n.col_offset, n.end_lineno)  # type: ignore[attr-defined]
        if t is _NAME:
            return _SX_NAME(*at, n.id)  # type: ignore[attr-defined]
        v = n.value  # type: ignore[attr-defined]
        if t is _CONSTANT:
            return _SX_NAME(*at, KEYWORDS[v]) if v is None or v is True or v is False else _SX_CONST(*at, v)
        return _SX_ATTRIBUTE(*at, self.expr(v), n.attr)  # type: ignore[attr-defined]

    def compound(self, n: ast.expr) -> sx.Expr:
        """Any expression but a name, an attribute or a constant."""
        at = self._at(n)
        t = type(n)
        if t is _CALL:  # the commonest, converted here (no call through the mapping)
            args = [self.arg(a) for a in n.args]
            if n.keywords:  # each list is in source order: merge them only when both have items
                args += [self.keyword(k) for k in n.keywords]
                if n.args:
                    args.sort(key=position)
            return sx.Call(*at, self.expr(n.func), tuple(args))
        convert = _COMPOUNDS.get(t)
        if convert is None:
            return sx.Other(*at, what(n), self.generic(n))
        return convert(self, n, at)

    def _subscript(self, n: ast.Subscript, at: tuple[int, int, int]) -> sx.Expr:
        return sx.Subscript(*at, self.expr(n.value), self.slice_items(n.slice))

    def _dict(self, n: ast.Dict, at: tuple[int, int, int]) -> sx.Expr:
        items = []
        for k, v in zip(n.keys, n.values, strict=True):
            val = self.expr(v)
            if k is None:
                line, col = self.src.before(v.lineno, v.col_offset, "**")
                items.append(sx.DictItem(line, col, val.end_line, None, val))
            else:
                key = self.expr(k)
                items.append(sx.DictItem(key.line, key.col, val.end_line, key, val))
        return sx.Dict(*at, tuple(items))

    def _comprehension(self, n: Any, at: tuple[int, int, int]) -> sx.Expr:  # list, set, generator
        line, col, end = self._unparen(n, at)
        shape = COMPREHENSIONS[type(n)]
        return sx.Comprehension(line, col, end, shape, None, self.expr(n.elt), self.generators(n.generators))

    def _dict_comprehension(self, n: ast.DictComp, at: tuple[int, int, int]) -> sx.Expr:
        e = self.expr
        return sx.Comprehension(*at, "dict", e(n.key), e(n.value), self.generators(n.generators))

    def _lambda(self, n: ast.Lambda, at: tuple[int, int, int]) -> sx.Expr:
        return sx.Lambda(*at, self.params(n.args), self.expr(n.body))

    def _if_exp(self, n: ast.IfExp, at: tuple[int, int, int]) -> sx.Expr:
        return sx.IfExp(*at, self.expr(n.test), self.expr(n.body), self.expr(n.orelse))

    def _bool_op(self, n: ast.BoolOp, at: tuple[int, int, int]) -> sx.Expr:
        op = "and" if type(n.op) is ast.And else "or"
        values = [self.expr(v) for v in n.values]
        left = values[0]
        for right in values[1:-1]:  # ``a and b and c`` is ``(a and b) and c``: each starts where ``a`` does
            left = sx.BoolOp(at[0], at[1], right.end_line, op, left, right)
        return sx.BoolOp(*at, op, left, values[-1])

    def _unary_op(self, n: ast.UnaryOp, at: tuple[int, int, int]) -> sx.Expr:
        return sx.UnaryOp(*at, UNARY[type(n.op)], self.expr(n.operand))

    def _bin_op(self, n: ast.BinOp, at: tuple[int, int, int]) -> sx.Expr:
        return sx.BinOp(*at, BINOPS[type(n.op)], self.expr(n.left), self.expr(n.right))

    def _compare(self, n: ast.Compare, at: tuple[int, int, int]) -> sx.Expr:
        e = self.expr
        return sx.Compare(*at, e(n.left), tuple(CMPOPS[type(o)] for o in n.ops), tuple([e(c) for c in n.comparators]))

    def _starred(self, n: ast.Starred, at: tuple[int, int, int]) -> sx.Expr:
        return sx.Starred(*at, self.expr(n.value))

    def _walrus(self, n: ast.NamedExpr, at: tuple[int, int, int]) -> sx.Expr:
        target = self.expr(n.target)
        return sx.Other(*at, sx.OtherWhat.WALRUS, (target, self.expr(n.value)), stores=(self.expr(n.target),))

    def _slice(self, n: ast.Slice, at: tuple[int, int, int]) -> sx.Expr:
        return sx.Other(
            *at, sx.OtherWhat.SLICE, tuple(self.expr(x) for x in (n.lower, n.upper, n.step) if x is not None)
        )

    def fstring(self, n: ast.JoinedStr, at: tuple[int, int, int]) -> sx.FString:
        parts: list = []
        for v in n.values:
            if type(v) is ast.Constant:
                parts.append(v.value if isinstance(v.value, str) else "")
            elif type(v) is ast.FormattedValue:
                parts.append(self.expr(v.value))
                if v.format_spec is not None:
                    parts.extend(self.expr(x) for x in _fstring_exprs(v.format_spec))  # type: ignore[arg-type]
        return sx.FString.of_parts(*at, parts, escapes="\\" in self.src.segment(n))

    def arg(self, a: ast.expr) -> sx.Arg:
        if type(a) is ast.Starred:
            v = self.expr(a.value)
            return sx.Arg(*self._at(a), v, None, "*")
        v = self.expr(a)
        return _SX_ARG(v.line, v.col, v.end_line, v)

    def keyword(self, k: ast.keyword) -> sx.Arg:
        v = self.expr(k.value)
        return sx.Arg(*self._at(k), v, k.arg, "**" if k.arg is None else "")

    def sequence(self, n, at: tuple[int, int, int]) -> sx.Expr:
        elts = tuple([self.expr(x) for x in n.elts])
        if type(n) is ast.Tuple:
            at = self._unparen(n, at, elts)
        return sx.Sequence(*at, SEQUENCES[type(n)], elts)

    def _unparen(self, n: ast.expr, at: tuple[int, int, int], elts: tuple = ()) -> tuple[int, int, int]:
        """libcst leaves a tuple's or generator's own parentheses out of its extent; CPython keeps them."""
        line, col, _ = at
        if self.src.char(line, col) != "(":
            return at
        if type(n) is ast.Tuple and elts:
            first = elts[0]
            if first.line == line and first.col == col:  # ``(a), b``: the parenthesis is the element's
                return at
        # the first element's extent, its own parentheses included (``((a, b), c)``: at the inner one)
        line2, col2 = self.src.after(n.lineno, n.col_offset, r"\((?:\s|\\\r?\n)*")
        return line2, col2, self._close_line(n)

    def _close_line(self, n: ast.expr) -> int:
        """The line of the last character before the node's closing parenthesis."""
        end = n.end_lineno  # type: ignore[attr-defined]
        col = self.src.col(end, n.end_col_offset) - 1  # type: ignore[attr-defined]
        line = self.src.lines[end - 1][:col]
        while not line.strip() and end > n.lineno:
            end -= 1
            line = self.src.lines[end - 1]
        return end

    def slice_items(self, s: ast.expr) -> tuple[sx.Expr, ...]:
        if type(s) is ast.Tuple and self.src.char(s.lineno, self.src.col(s.lineno, s.col_offset)) != "(":
            return tuple([self.expr(x) for x in s.elts])
        return (self.expr(s),)

    def generators(self, gens: list[ast.comprehension]) -> tuple[sx.Generator, ...]:
        out = []
        for g in gens:
            target = self.expr(g.target)
            line, col = self.src.before(g.target.lineno, g.target.col_offset, "for", async_=bool(g.is_async))
            out.append(
                sx.Generator(
                    line,
                    col,
                    (g.ifs[-1] if g.ifs else g.iter).end_lineno,
                    target,
                    self.expr(g.iter),
                    tuple([self.expr(i) for i in g.ifs]),
                )
            )
        return tuple(out)

    def generic(self, n: ast.AST) -> tuple[sx.Node, ...]:
        out: list[sx.Node] = []
        for c in ast.iter_child_nodes(n):
            if isinstance(c, ast.expr):
                out.append(self.expr(c))
            elif isinstance(c, ast.stmt):
                out.append(self.stmt(c))
            elif isinstance(c, (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)):
                continue
            else:
                out.extend(self.generic(c))
        return tuple(out)


def _fstring_exprs(n: ast.JoinedStr) -> list[ast.expr]:
    out: list[ast.expr] = []
    for v in n.values:
        if type(v) is ast.FormattedValue:
            out.append(v.value)
            if v.format_spec is not None:
                out.extend(_fstring_exprs(v.format_spec))  # type: ignore[arg-type]
    return out


_A = AstAdapter
_COMPOUNDS: dict[type, Callable[[Any, Any, tuple[int, int, int]], sx.Expr]] = {
    ast.Subscript: _A._subscript,
    **dict.fromkeys(SEQUENCES, _A.sequence),
    ast.Dict: _A._dict,
    **dict.fromkeys(COMPREHENSIONS, _A._comprehension),
    ast.DictComp: _A._dict_comprehension,
    ast.Lambda: _A._lambda,
    ast.IfExp: _A._if_exp,
    ast.BoolOp: _A._bool_op,
    ast.UnaryOp: _A._unary_op,
    ast.BinOp: _A._bin_op,
    ast.Compare: _A._compare,
    ast.Starred: _A._starred,
    ast.NamedExpr: _A._walrus,
    ast.JoinedStr: _A.fstring,
    ast.Slice: _A._slice,
}


class _AsciiAdapter(AstAdapter):
    """For a text without a non-ASCII character: CPython's byte columns are the character columns, so the
    commonest expressions take their positions as they are (no position tuple to build and unpack)."""

    def expr(self, n: ast.expr) -> sx.Expr:
        t = type(n)
        if t is _NAME:
            return _SX_NAME(n.lineno, n.col_offset, n.end_lineno, n.id)  # type: ignore[attr-defined]
        if t is _ATTRIBUTE:
            v = n.value  # type: ignore[attr-defined]
            value = _SX_NAME(v.lineno, v.col_offset, v.end_lineno, v.id) if type(v) is _NAME else self.expr(v)
            return _SX_ATTRIBUTE(n.lineno, n.col_offset, n.end_lineno, value, n.attr)  # type: ignore[attr-defined]
        if t is _CONSTANT:
            v = n.value  # type: ignore[attr-defined]
            if v is None or v is True or v is False:
                return _SX_NAME(n.lineno, n.col_offset, n.end_lineno, KEYWORDS[v])
            return _SX_CONST(n.lineno, n.col_offset, n.end_lineno, v)
        return self.compound(n)


def to_syntax(tree: ast.Module, text: str) -> sx.Module:
    return (_AsciiAdapter if text.isascii() else AstAdapter)(text).module(tree)


def parse_expression(text: str) -> sx.Expr | None:
    """A string annotation read as an expression (None when it is not one)."""
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError):
        return None
    return AstAdapter(text).expr(tree.body)
