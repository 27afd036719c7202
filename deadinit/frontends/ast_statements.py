"""The statements half of the ``ast`` adapter (``deadinit.frontends.ast_adapter``, which adds the expressions).

``StatementAdapter.stmt`` converts a statement by the converter its node type maps to in
``_STATEMENTS`` (a statement without one is an ``OtherStmt`` of its children); the other
methods convert the parts statements share: bodies, ``elif`` chains, handlers, ``with`` items,
imports and parameters.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from deadinit.frontends.ast_operators import BINOPS
from deadinit.frontends.ast_source import SourceText
from deadinit.semantics import syntax as sx

_BYTE_POSITION = attrgetter("lineno", "col_offset", "end_lineno")


class StatementAdapter:
    """Statements and their parts; the subclass converts expressions (``expr``, ``arg``,
    ``keyword``) and the children of nodes without a rule of their own (``generic``)."""

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

    def expr(self, n: ast.expr) -> sx.Expr:
        raise NotImplementedError

    def arg(self, a: ast.expr) -> sx.Arg:
        raise NotImplementedError

    def keyword(self, k: ast.keyword) -> sx.Arg:
        raise NotImplementedError

    def generic(self, n: ast.AST) -> tuple[sx.Node, ...]:
        raise NotImplementedError

    def _opt(self, n: ast.expr | None) -> sx.Expr | None:
        return self.expr(n) if n is not None else None

    # -- statements --------------------------------------------------------------
    def module(self, tree: ast.Module) -> sx.Module:
        return sx.Module(self.body(tree.body))

    def body(self, stmts: list[ast.stmt]) -> sx.Body:
        return tuple([self.stmt(s) for s in stmts])

    def stmt(self, s: ast.stmt) -> sx.Stmt:
        at = self._at(s)
        t = type(s)
        if t is ast.Assign:  # the commonest, converted here (no call through the mapping)
            return sx.Assign(*at, tuple([self.expr(x) for x in s.targets]), self.expr(s.value))
        convert = _STATEMENTS.get(t)
        if convert is None:
            return sx.OtherStmt(*at, what(s), self.generic(s))
        return convert(self, s, at)

    def _expr_stmt(self, s: ast.Expr, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.ExprStmt(*at, self.expr(s.value))

    def _ann_assign(self, s: ast.AnnAssign, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.AnnAssign(*at, self.expr(s.target), self.expr(s.annotation), self._opt(s.value))

    def _aug_assign(self, s: ast.AugAssign, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.AugAssign(*at, self.expr(s.target), BINOPS[type(s.op)], self.expr(s.value))

    def _return(self, s: ast.Return, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.Return(*at, self._opt(s.value))

    def _if(self, s: ast.If, at: tuple[int, int, int]) -> sx.Stmt:
        return self.if_(s)

    def _function(self, s: ast.FunctionDef | ast.AsyncFunctionDef, at: tuple[int, int, int]) -> sx.Stmt:
        decorators = tuple([self.expr(d) for d in s.decorator_list])
        return sx.FunctionDef(*at, s.name, decorators, self.params(s.args), self._opt(s.returns), self.body(s.body))

    def _class(self, s: ast.ClassDef, at: tuple[int, int, int]) -> sx.Stmt:
        args = sorted([*(self.arg(b) for b in s.bases), *(self.keyword(k) for k in s.keywords)], key=position)
        texts = tuple(
            self.src.segment(n.value if type(n) is ast.Starred else n)  # ``*bases``: the text after the star
            for n in sorted([*s.bases, *(k.value for k in s.keywords)], key=lambda x: (x.lineno, x.col_offset))
        )
        decorators = tuple([self.expr(d) for d in s.decorator_list])
        return sx.ClassDef(*at, s.name, decorators, tuple(args), texts, self.body(s.body))

    def _for(self, s: ast.For | ast.AsyncFor, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.For(*at, self.expr(s.target), self.expr(s.iter), self.body(s.body), self.body(s.orelse))

    def _while(self, s: ast.While, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.While(*at, self.expr(s.test), self.body(s.body), self.body(s.orelse))

    def _try(self, s: Any, at: tuple[int, int, int]) -> sx.Stmt:  # ``ast.Try`` or ``ast.TryStar``
        handlers = tuple(
            sx.Handler(*self._at(h), self._opt(h.type), self.handler_name(h), self.body(h.body)) for h in s.handlers
        )
        return sx.Try(*at, self.body(s.body), handlers, self.body(s.orelse), self.body(s.finalbody))

    def _with(self, s: ast.With | ast.AsyncWith, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.With(*at, tuple([self.with_item(i) for i in s.items]), self.body(s.body))

    def _raise(self, s: ast.Raise, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.Raise(*at, self._opt(s.exc), self._opt(s.cause))

    def _names(self, s: ast.Global | ast.Nonlocal, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.Names(*at, sx.NameScope.GLOBAL if type(s) is ast.Global else sx.NameScope.NONLOCAL, tuple(s.names))

    def _delete(self, s: ast.Delete, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.Delete(*at, tuple([self.expr(x) for x in s.targets]))

    def _simple(self, s: ast.Pass | ast.Break | ast.Continue, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.Simple(*at, sx.Jump(type(s).__name__.lower()))

    def _assert(self, s: ast.Assert, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.Assert(*at, self.expr(s.test), self._opt(s.msg))

    def _import(self, s: ast.Import, at: tuple[int, int, int]) -> sx.Stmt:
        return sx.Import(*at, None, 0, tuple([self.alias(a) for a in s.names]))

    # -- the parts statements share ----------------------------------------------
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
            self.param(p, d, "", sx.ParamGroup.POSONLY if i < len(a.posonlyargs) else sx.ParamGroup.NORMAL)
            for i, (p, d) in enumerate(zip(pos, defaults, strict=True))
        ]
        if a.vararg is not None:
            out.append(self.param(a.vararg, None, "*", sx.ParamGroup.NORMAL))
        out += [self.param(p, d, "", sx.ParamGroup.KWONLY) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)]
        if a.kwarg is not None:
            out.append(self.param(a.kwarg, None, "**", sx.ParamGroup.NORMAL))
        return tuple(out)

    def param(self, p: ast.arg, default: ast.expr | None, star: str, group: sx.ParamGroup) -> sx.Param:
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


def position(a: sx.Arg) -> tuple[int, int]:
    return a.line, a.col


def what(n: ast.AST) -> str:
    return type(n).__name__.lower()


_A = StatementAdapter
_STATEMENTS: dict[type, Callable[[Any, Any, tuple[int, int, int]], sx.Stmt]] = {
    ast.Expr: _A._expr_stmt,
    ast.AnnAssign: _A._ann_assign,
    ast.AugAssign: _A._aug_assign,
    ast.Return: _A._return,
    ast.If: _A._if,
    ast.FunctionDef: _A._function,
    ast.AsyncFunctionDef: _A._function,
    ast.ClassDef: _A._class,
    ast.For: _A._for,
    ast.AsyncFor: _A._for,
    ast.While: _A._while,
    ast.Try: _A._try,
    **({ast.TryStar: _A._try} if hasattr(ast, "TryStar") else {}),  # Python 3.11
    ast.With: _A._with,
    ast.AsyncWith: _A._with,
    ast.Raise: _A._raise,
    ast.Global: _A._names,
    ast.Nonlocal: _A._names,
    ast.Delete: _A._delete,
    ast.Pass: _A._simple,
    ast.Break: _A._simple,
    ast.Continue: _A._simple,
    ast.Assert: _A._assert,
    ast.Import: _A._import,
    ast.ImportFrom: _A.import_from,
}
