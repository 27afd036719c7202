"""CPython ``ast`` -> ``deadinit.semantics.syntax``: the fast adapter ``check`` uses.

It gives the same tree as ``deadinit.frontends.cst_adapter`` (tests/frontends check
it on generated code and on real code): positions in characters, not UTF-8 bytes;
a node's own parentheses outside its extent, as libcst counts them; children in
source order; module names of imports as ``Attribute`` chains with positions.
"""

from __future__ import annotations

import ast
from operator import attrgetter

from deadinit.frontends.ast_operators import BINOPS, CMPOPS, COMPREHENSIONS, KEYWORDS, SEQUENCES, UNARY
from deadinit.frontends.ast_source import SourceText
from deadinit.semantics import syntax as sx

_BYTE_POSITION = attrgetter("lineno", "col_offset", "end_lineno")
_NAME, _ATTRIBUTE, _CONSTANT, _CALL = ast.Name, ast.Attribute, ast.Constant, ast.Call
_SX_NAME, _SX_ATTRIBUTE, _SX_CONST, _SX_ARG = sx.Name, sx.Attribute, sx.Const, sx.Arg


class AstAdapter:
    def __init__(self, text: str) -> None:
        self.src = SourceText(text)
        if text.isascii():  # byte columns are character columns
            self._at = _BYTE_POSITION  # type: ignore[method-assign]
            self._wide: frozenset[int] = frozenset()
        else:
            self._wide = self.src.wide_lines

    def _at(self, n: ast.AST) -> tuple[int, int, int]:
        line = n.lineno  # type: ignore[attr-defined]
        if line in self._wide:
            return line, self.src.col(line, n.col_offset), n.end_lineno  # type: ignore[attr-defined]
        return line, n.col_offset, n.end_lineno  # type: ignore[attr-defined]

    # -- statements --------------------------------------------------------------
    def module(self, tree: ast.Module) -> sx.Module:
        return sx.Module(self.body(tree.body))

    def body(self, stmts: list[ast.stmt]) -> sx.Body:
        return tuple([self.stmt(s) for s in stmts])

    def stmt(self, s: ast.stmt) -> sx.Stmt:
        at = self._at(s)
        e = self.expr
        t = type(s)
        if t is ast.Assign:
            return sx.Assign(*at, tuple([e(x) for x in s.targets]), e(s.value))
        if t is ast.Expr:
            return sx.ExprStmt(*at, e(s.value))
        if t is ast.AnnAssign:
            return sx.AnnAssign(*at, e(s.target), e(s.annotation), e(s.value) if s.value is not None else None)
        if t is ast.AugAssign:
            return sx.AugAssign(*at, e(s.target), BINOPS[type(s.op)], e(s.value))
        if t is ast.Return:
            return sx.Return(*at, e(s.value) if s.value is not None else None)
        if t is ast.If:
            return self.if_(s)
        if t is ast.FunctionDef or t is ast.AsyncFunctionDef:
            returns = e(s.returns) if s.returns is not None else None
            return sx.FunctionDef(
                *at, s.name, tuple([e(d) for d in s.decorator_list]), self.params(s.args), returns, self.body(s.body)
            )
        if t is ast.ClassDef:
            args = sorted([*(self.arg(b) for b in s.bases), *(self.keyword(k) for k in s.keywords)], key=_position)
            texts = tuple(
                self.src.segment(n.value if type(n) is ast.Starred else n)  # ``*bases``: the text after the star
                for n in sorted([*s.bases, *(k.value for k in s.keywords)], key=lambda x: (x.lineno, x.col_offset))
            )
            return sx.ClassDef(
                *at, s.name, tuple([e(d) for d in s.decorator_list]), tuple(args), texts, self.body(s.body)
            )
        if t is ast.For or t is ast.AsyncFor:
            return sx.For(*at, e(s.target), e(s.iter), self.body(s.body), self.body(s.orelse))
        if t is ast.While:
            return sx.While(*at, e(s.test), self.body(s.body), self.body(s.orelse))
        if t is ast.Try or t.__name__ == "TryStar":
            handlers = tuple(
                sx.Handler(
                    *self._at(h), e(h.type) if h.type is not None else None, self.handler_name(h), self.body(h.body)
                )
                for h in s.handlers
            )
            return sx.Try(*at, self.body(s.body), handlers, self.body(s.orelse), self.body(s.finalbody))
        if t is ast.With or t is ast.AsyncWith:
            items = tuple([self.with_item(i) for i in s.items])
            return sx.With(*at, items, self.body(s.body))
        if t is ast.Raise:
            return sx.Raise(*at, e(s.exc) if s.exc is not None else None, e(s.cause) if s.cause is not None else None)
        if t is ast.Global or t is ast.Nonlocal:
            return sx.Names(*at, "global" if t is ast.Global else "nonlocal", tuple(s.names))
        if t is ast.Delete:
            return sx.Delete(*at, tuple([e(x) for x in s.targets]))
        if t is ast.Pass or t is ast.Break or t is ast.Continue:
            return sx.Simple(*at, t.__name__.lower())
        if t is ast.Assert:
            return sx.Assert(*at, e(s.test), e(s.msg) if s.msg is not None else None)
        if t is ast.Import:
            return sx.Import(*at, None, 0, tuple([self.alias(a) for a in s.names]))
        if t is ast.ImportFrom:
            return self.import_from(s, at)
        return sx.OtherStmt(*at, _what(s), self.generic(s))

    def if_(self, s: ast.If) -> sx.If:
        orelse: sx.Body = ()
        if s.orelse:
            first = s.orelse[0]
            if len(s.orelse) == 1 and type(first) is ast.If and self._is_elif(first):
                orelse = (self.if_(first),)
            else:
                orelse = self.body(s.orelse)
        at = self._at(s)
        return sx.If(*at, self.expr(s.test), self.body(s.body), orelse, self._is_elif(s))

    def _is_elif(self, s: ast.If) -> bool:
        line = self.src.lines[s.lineno - 1]
        col = self.src.col(s.lineno, s.col_offset)
        return line.startswith("elif", col)

    def handler_name(self, h: ast.ExceptHandler) -> sx.Expr | None:
        if h.name is None:
            return None
        return self.src.name_after(h.lineno, h.col_offset, h.name, r"\bas\b")

    def with_item(self, i: ast.withitem) -> sx.WithItem:
        expr = self.expr(i.context_expr)
        asname = self.expr(i.optional_vars) if i.optional_vars is not None else None
        end = i.optional_vars.end_lineno if i.optional_vars is not None else expr.end_line
        return sx.WithItem(expr.line, expr.col, end, expr, asname)

    def alias(self, a: ast.alias) -> sx.ImportName:
        at = self._at(a)
        dotted = self.src.dotted_at(a.name, a.lineno, a.col_offset)
        return sx.ImportName(*at, a.name, dotted, a.asname)

    def import_from(self, s: ast.ImportFrom, at: tuple[int, int, int]) -> sx.Import:
        module_node = None
        if s.module is not None:
            line, col = self.src.after(s.lineno, s.col_offset, r"from(?:[ \t\f.]|\\\r?\n)*")
            module_node = self.src.dotted_at(s.module, line, col, chars=True)
        star = len(s.names) == 1 and s.names[0].name == "*"
        names = () if star else tuple([self.alias(a) for a in s.names])
        return sx.Import(*at, s.module or "", s.level, names, star, module_node)

    def params(self, a: ast.arguments) -> tuple[sx.Param, ...]:
        pos = [*a.posonlyargs, *a.args]
        defaults: list[ast.expr | None] = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
        out = [
            self.param(p, d, "", "posonly" if i < len(a.posonlyargs) else "normal")
            for i, (p, d) in enumerate(zip(pos, defaults, strict=True))
        ]
        if a.vararg is not None:
            out.append(self.param(a.vararg, None, "*", "normal"))
        out += [self.param(p, d, "", "kwonly") for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)]
        if a.kwarg is not None:
            out.append(self.param(a.kwarg, None, "**", "normal"))
        return tuple(out)

    def param(self, p: ast.arg, default: ast.expr | None, star: str, group: str) -> sx.Param:
        ann = self.expr(p.annotation) if p.annotation is not None else None
        d = self.expr(default) if default is not None else None
        line, col, end = self._at(p)
        if star:  # libcst's Param starts at the star
            col -= len(star) + self._space_before(line, col, star)
        if d is not None:
            end = d.end_line
        return sx.Param(line, col, end, p.arg, ann, d, star, group)

    def _space_before(self, line: int, col: int, star: str) -> int:
        s = self.src.lines[line - 1][:col]
        stripped = s.rstrip(" \t")
        return len(s) - len(stripped) if stripped.endswith(star) else 0

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
        t = type(n)
        at = self._at(n)
        e = self.expr
        if t is _CALL:
            args = [self.arg(a) for a in n.args]
            if n.keywords:  # each list is in source order: merge them only when both have items
                args += [self.keyword(k) for k in n.keywords]
                if n.args:
                    args.sort(key=_position)
            return sx.Call(*at, e(n.func), tuple(args))
        if t is ast.Subscript:
            return sx.Subscript(*at, e(n.value), self.slice_items(n.slice))
        if t in SEQUENCES:
            return self.sequence(n, at)
        if t is ast.Dict:
            items = []
            for k, v in zip(n.keys, n.values, strict=True):
                val = e(v)
                if k is None:
                    line, col = self.src.before(v.lineno, v.col_offset, "**")
                    items.append(sx.DictItem(line, col, val.end_line, None, val))
                else:
                    key = e(k)
                    items.append(sx.DictItem(key.line, key.col, val.end_line, key, val))
            return sx.Dict(*at, tuple(items))
        if t in COMPREHENSIONS:
            line, col, end = self._unparen(n, at)
            return sx.Comprehension(line, col, end, COMPREHENSIONS[t], None, e(n.elt), self.generators(n.generators))
        if t is ast.DictComp:
            return sx.Comprehension(*at, "dict", e(n.key), e(n.value), self.generators(n.generators))
        if t is ast.Lambda:
            return sx.Lambda(*at, self.params(n.args), e(n.body))
        if t is ast.IfExp:
            return sx.IfExp(*at, e(n.test), e(n.body), e(n.orelse))
        if t is ast.BoolOp:
            op = "and" if type(n.op) is ast.And else "or"
            values = [e(v) for v in n.values]
            left = values[0]
            for right in values[1:-1]:  # ``a and b and c`` is ``(a and b) and c``: each starts where ``a`` does
                left = sx.BoolOp(at[0], at[1], right.end_line, op, left, right)
            return sx.BoolOp(*at, op, left, values[-1])
        if t is ast.UnaryOp:
            return sx.UnaryOp(*at, UNARY[type(n.op)], e(n.operand))
        if t is ast.BinOp:
            return sx.BinOp(*at, BINOPS[type(n.op)], e(n.left), e(n.right))
        if t is ast.Compare:
            return sx.Compare(
                *at, e(n.left), tuple(CMPOPS[type(o)] for o in n.ops), tuple([e(c) for c in n.comparators])
            )
        if t is ast.Starred:
            return sx.Starred(*at, e(n.value))
        if t is ast.NamedExpr:
            target = e(n.target)
            return sx.Other(*at, "walrus", (target, e(n.value)), stores=(e(n.target),))
        if t is ast.JoinedStr:
            return self.fstring(n, at)
        if t is ast.Slice:
            return sx.Other(*at, "slice", tuple(e(x) for x in (n.lower, n.upper, n.step) if x is not None))
        return sx.Other(*at, _what(n), self.generic(n))

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


def _position(a: sx.Arg) -> tuple[int, int]:
    return a.line, a.col


def _what(n: ast.AST) -> str:
    return type(n).__name__.lower()


def _fstring_exprs(n: ast.JoinedStr) -> list[ast.expr]:
    out: list[ast.expr] = []
    for v in n.values:
        if type(v) is ast.FormattedValue:
            out.append(v.value)
            if v.format_spec is not None:
                out.extend(_fstring_exprs(v.format_spec))  # type: ignore[arg-type]
    return out


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
