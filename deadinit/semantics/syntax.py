"""The small node interface the semantic model reads: one tree shape for both parsers.

``deadinit.frontends.ast_adapter`` (CPython's ``ast``) and
``deadinit.frontends.cst_adapter`` (libcst) turn a module into these nodes; the
semantic model and the summary builder read nothing else, so both parsers give the
same facts by construction (a property test and a corpus test check the adapters).

Positions are libcst's: 1-based lines, 0-based *character* columns, the start of
the node's own text (an attribute ``a.b`` starts at ``a``; a decorated function at
``def``).  Children keep source order, which is the order facts are recorded in.
Only what the model reads is kept: operators as short strings, identifiers as
``str``, literals as Python values; anything the model has no rule for is an
``Other`` (expression) or ``OtherStmt`` (statement) that still holds its children.
"""

from __future__ import annotations

import re
from typing import Any

_IDENTIFIER_TEXT = re.compile(r"\w*")


class Node:
    __slots__ = ("col", "end_line", "line")
    kind = "node"

    def __init__(self, line: int, col: int, end_line: int) -> None:
        self.line = line
        self.col = col
        self.end_line = end_line

    def children(self) -> tuple[Node, ...]:
        return ()

    def __repr__(self) -> str:
        fields = ", ".join(f"{s}={getattr(self, s)!r}" for s in type(self).__slots__)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return NotImplemented
        return all(getattr(self, s) == getattr(other, s) for s in _all_slots(type(self)))

    __hash__ = None  # type: ignore[assignment]


def _all_slots(t: type) -> tuple[str, ...]:
    out: list[str] = []
    for k in reversed(t.__mro__):
        out.extend(getattr(k, "__slots__", ()))
    return tuple(out)


# -- expressions -----------------------------------------------------------------


class Expr(Node):
    __slots__ = ()


class Name(Expr):
    __slots__ = ("id",)
    kind = "name"

    def __init__(self, line: int, col: int, end_line: int, id: str) -> None:
        super().__init__(line, col, end_line)
        self.id = id


class Const(Expr):
    """A literal.  ``True``/``False``/``None`` are ``Name`` nodes, as libcst reads them;
    ``text`` is the literal as written for numbers (``0x10``), the value for strings."""

    __slots__ = ("value",)
    kind = "const"

    def __init__(self, line: int, col: int, end_line: int, value: Any) -> None:
        super().__init__(line, col, end_line)
        self.value = value


class Attribute(Expr):
    __slots__ = ("attr", "value")
    kind = "attribute"

    def __init__(self, line: int, col: int, end_line: int, value: Expr, attr: str) -> None:
        super().__init__(line, col, end_line)
        self.value = value
        self.attr = attr

    def children(self) -> tuple[Node, ...]:
        return (self.value,)


class Arg(Node):
    """A call or class-header argument: ``star`` is ``""``, ``"*"`` or ``"**"``."""

    __slots__ = ("keyword", "star", "value")
    kind = "arg"

    def __init__(
        self, line: int, col: int, end_line: int, value: Expr, keyword: str | None = None, star: str = ""
    ) -> None:
        super().__init__(line, col, end_line)
        self.value = value
        self.keyword = keyword
        self.star = star

    def children(self) -> tuple[Node, ...]:
        return (self.value,)


class Call(Expr):
    __slots__ = ("args", "func")
    kind = "call"

    def __init__(self, line: int, col: int, end_line: int, func: Expr, args: tuple[Arg, ...]) -> None:
        super().__init__(line, col, end_line)
        self.func = func
        self.args = args

    def children(self) -> tuple[Node, ...]:
        return (self.func, *self.args)


class Subscript(Expr):
    __slots__ = ("items", "value")
    kind = "subscript"

    def __init__(self, line: int, col: int, end_line: int, value: Expr, items: tuple[Expr, ...]) -> None:
        super().__init__(line, col, end_line)
        self.value = value
        self.items = items

    def children(self) -> tuple[Node, ...]:
        return (self.value, *self.items)


class Sequence(Expr):
    """``(a, b)``, ``[a, b]``, ``{a, b}``: ``shape`` is tuple, list or set."""

    __slots__ = ("elts", "shape")
    kind = "sequence"

    def __init__(self, line: int, col: int, end_line: int, shape: str, elts: tuple[Expr, ...]) -> None:
        super().__init__(line, col, end_line)
        self.shape = shape
        self.elts = elts

    def children(self) -> tuple[Node, ...]:
        return self.elts


class Starred(Expr):
    """``*x`` in a sequence or target (``**x`` in a dict is a ``DictItem`` without key)."""

    __slots__ = ("value",)
    kind = "starred"

    def __init__(self, line: int, col: int, end_line: int, value: Expr) -> None:
        super().__init__(line, col, end_line)
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.value,)


class DictItem(Node):
    __slots__ = ("key", "value")
    kind = "dict-item"

    def __init__(self, line: int, col: int, end_line: int, key: Expr | None, value: Expr) -> None:
        super().__init__(line, col, end_line)
        self.key = key
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.value,) if self.key is None else (self.key, self.value)


class Dict(Expr):
    __slots__ = ("items",)
    kind = "dict"

    def __init__(self, line: int, col: int, end_line: int, items: tuple[DictItem, ...]) -> None:
        super().__init__(line, col, end_line)
        self.items = items

    def children(self) -> tuple[Node, ...]:
        return self.items


class Generator(Node):
    """One ``for target in iter if cond...`` of a comprehension."""

    __slots__ = ("ifs", "iter", "target")
    kind = "generator"

    def __init__(self, line: int, col: int, end_line: int, target: Expr, iter: Expr, ifs: tuple[Expr, ...]) -> None:
        super().__init__(line, col, end_line)
        self.target = target
        self.iter = iter
        self.ifs = ifs

    def children(self) -> tuple[Node, ...]:
        return (self.target, self.iter, *self.ifs)


class Comprehension(Expr):
    """``shape`` is list, set, generator or dict (``key`` only for dict)."""

    __slots__ = ("elt", "generators", "key", "shape")
    kind = "comprehension"

    def __init__(
        self,
        line: int,
        col: int,
        end_line: int,
        shape: str,
        key: Expr | None,
        elt: Expr,
        generators: tuple[Generator, ...],
    ) -> None:
        super().__init__(line, col, end_line)
        self.shape = shape
        self.key = key
        self.elt = elt
        self.generators = generators

    def children(self) -> tuple[Node, ...]:
        head: tuple[Node, ...] = (self.elt,) if self.key is None else (self.key, self.elt)
        return (*head, *self.generators)


class Param(Node):
    """A parameter: ``star`` is ``""``, ``"*"`` or ``"**"``; ``group`` posonly, normal or kwonly."""

    __slots__ = ("annotation", "default", "group", "name", "star")
    kind = "param"

    def __init__(
        self,
        line: int,
        col: int,
        end_line: int,
        name: str,
        annotation: Expr | None,
        default: Expr | None,
        star: str = "",
        group: str = "normal",
    ) -> None:
        super().__init__(line, col, end_line)
        self.name = name
        self.annotation = annotation
        self.default = default
        self.star = star
        self.group = group

    def children(self) -> tuple[Node, ...]:
        return tuple(x for x in (self.annotation, self.default) if x is not None)


class Lambda(Expr):
    __slots__ = ("body", "params")
    kind = "lambda"

    def __init__(self, line: int, col: int, end_line: int, params: tuple[Param, ...], body: Expr) -> None:
        super().__init__(line, col, end_line)
        self.params = params
        self.body = body

    def children(self) -> tuple[Node, ...]:
        return (*self.params, self.body)


class IfExp(Expr):
    __slots__ = ("body", "orelse", "test")
    kind = "ifexp"

    def __init__(self, line: int, col: int, end_line: int, test: Expr, body: Expr, orelse: Expr) -> None:
        super().__init__(line, col, end_line)
        self.test = test
        self.body = body
        self.orelse = orelse

    def children(self) -> tuple[Node, ...]:
        return (self.body, self.test, self.orelse)


class BoolOp(Expr):
    """``a and b`` / ``a or b``, binary and left-nested (``a and b and c`` is ``(a and b) and c``)."""

    __slots__ = ("left", "op", "right")
    kind = "boolop"

    def __init__(self, line: int, col: int, end_line: int, op: str, left: Expr, right: Expr) -> None:
        super().__init__(line, col, end_line)
        self.op = op
        self.left = left
        self.right = right

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


class UnaryOp(Expr):
    """``op``: not, -, +, ~."""

    __slots__ = ("op", "operand")
    kind = "unaryop"

    def __init__(self, line: int, col: int, end_line: int, op: str, operand: Expr) -> None:
        super().__init__(line, col, end_line)
        self.op = op
        self.operand = operand

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)


class BinOp(Expr):
    """``op`` as written: + - * / // % ** << >> & | ^ @."""

    __slots__ = ("left", "op", "right")
    kind = "binop"

    def __init__(self, line: int, col: int, end_line: int, op: str, left: Expr, right: Expr) -> None:
        super().__init__(line, col, end_line)
        self.op = op
        self.left = left
        self.right = right

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


class Compare(Expr):
    """``left op1 c1 op2 c2``; ops as written: == != < <= > >= is, is not, in, not in."""

    __slots__ = ("comparators", "left", "ops")
    kind = "compare"

    def __init__(
        self, line: int, col: int, end_line: int, left: Expr, ops: tuple[str, ...], comparators: tuple[Expr, ...]
    ) -> None:
        super().__init__(line, col, end_line)
        self.left = left
        self.ops = ops
        self.comparators = comparators

    def children(self) -> tuple[Node, ...]:
        return (self.left, *self.comparators)


class FString(Expr):
    """An f-string (implicit concatenations included): the expressions of its replacement fields,
    and the literal text before the first and after the last one when that text could be part of
    an identifier (``f"{k}_buffer"``: suffix ``_buffer``), else ``""``."""

    __slots__ = ("exprs", "prefix", "suffix")
    kind = "fstring"

    def __init__(self, line: int, col: int, end_line: int, prefix: str, exprs: tuple[Expr, ...], suffix: str) -> None:
        super().__init__(line, col, end_line)
        self.prefix = prefix
        self.exprs = exprs
        self.suffix = suffix

    def children(self) -> tuple[Node, ...]:
        return self.exprs

    @classmethod
    def of_parts(cls, line: int, col: int, end_line: int, parts: list[str | Expr], escapes: bool) -> FString:
        """From its parts in order: literal text (``str``) and replacement-field expressions;
        ``escapes``: its source has a backslash (the text is then not taken for a name's part)."""
        exprs = tuple(p for p in parts if not isinstance(p, str))
        if not exprs or escapes:
            return cls(line, col, end_line, "", exprs, "")
        first = next(i for i, p in enumerate(parts) if not isinstance(p, str))
        last = max(i for i, p in enumerate(parts) if not isinstance(p, str))
        prefix = "".join(p for p in parts[:first] if isinstance(p, str))  # all text, before the first field
        suffix = "".join(p for p in parts[last + 1 :] if isinstance(p, str))
        return cls(
            line,
            col,
            end_line,
            prefix if _IDENTIFIER_TEXT.fullmatch(prefix) else "",
            exprs,
            suffix if _IDENTIFIER_TEXT.fullmatch(suffix) else "",
        )


class Other(Expr):
    """An expression the model has no rule for (await, yield, slices, walrus...).

    ``what`` names it; ``notnone`` is True when its value can never be ``None``
    (strings, containers literals are other nodes); ``stores`` are the names it binds."""

    __slots__ = ("items", "notnone", "stores", "what")
    kind = "other"

    def __init__(
        self,
        line: int,
        col: int,
        end_line: int,
        what: str,
        items: tuple[Node, ...],
        notnone: bool = False,
        stores: tuple[Expr, ...] = (),
    ) -> None:
        super().__init__(line, col, end_line)
        self.what = what
        self.items = items
        self.notnone = notnone
        self.stores = stores

    def children(self) -> tuple[Node, ...]:
        return self.items


# -- statements ------------------------------------------------------------------


class Stmt(Node):
    __slots__ = ()


Body = tuple[Stmt, ...]


class Assign(Stmt):
    __slots__ = ("targets", "value")
    kind = "assign"

    def __init__(self, line: int, col: int, end_line: int, targets: tuple[Expr, ...], value: Expr) -> None:
        super().__init__(line, col, end_line)
        self.targets = targets
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (*self.targets, self.value)


class AnnAssign(Stmt):
    __slots__ = ("annotation", "target", "value")
    kind = "annassign"

    def __init__(self, line: int, col: int, end_line: int, target: Expr, annotation: Expr, value: Expr | None) -> None:
        super().__init__(line, col, end_line)
        self.target = target
        self.annotation = annotation
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.target, self.annotation) + ((self.value,) if self.value is not None else ())


class AugAssign(Stmt):
    __slots__ = ("op", "target", "value")
    kind = "augassign"

    def __init__(self, line: int, col: int, end_line: int, target: Expr, op: str, value: Expr) -> None:
        super().__init__(line, col, end_line)
        self.target = target
        self.op = op
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.target, self.value)


class ExprStmt(Stmt):
    __slots__ = ("value",)
    kind = "expr"

    def __init__(self, line: int, col: int, end_line: int, value: Expr) -> None:
        super().__init__(line, col, end_line)
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.value,)


class Return(Stmt):
    __slots__ = ("value",)
    kind = "return"

    def __init__(self, line: int, col: int, end_line: int, value: Expr | None) -> None:
        super().__init__(line, col, end_line)
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.value,) if self.value is not None else ()


class Raise(Stmt):
    __slots__ = ("cause", "exc")
    kind = "raise"

    def __init__(self, line: int, col: int, end_line: int, exc: Expr | None, cause: Expr | None) -> None:
        super().__init__(line, col, end_line)
        self.exc = exc
        self.cause = cause

    def children(self) -> tuple[Node, ...]:
        return tuple(x for x in (self.exc, self.cause) if x is not None)


class Names(Stmt):
    """``global a, b`` / ``nonlocal a`` (``scope`` says which)."""

    __slots__ = ("names", "scope")
    kind = "names"

    def __init__(self, line: int, col: int, end_line: int, scope: str, names: tuple[str, ...]) -> None:
        super().__init__(line, col, end_line)
        self.scope = scope
        self.names = names


class Delete(Stmt):
    __slots__ = ("targets",)
    kind = "delete"

    def __init__(self, line: int, col: int, end_line: int, targets: tuple[Expr, ...]) -> None:
        super().__init__(line, col, end_line)
        self.targets = targets

    def children(self) -> tuple[Node, ...]:
        return self.targets


class ImportName(Node):
    """One ``dotted as asname`` of an import; ``dotted`` is an ``Attribute``/``Name`` chain,
    as libcst reads module names."""

    __slots__ = ("asname", "dotted", "name")
    kind = "import-name"

    def __init__(self, line: int, col: int, end_line: int, name: str, dotted: Expr, asname: str | None) -> None:
        super().__init__(line, col, end_line)
        self.name = name
        self.dotted = dotted
        self.asname = asname

    def children(self) -> tuple[Node, ...]:
        return (self.dotted,)


class Import(Stmt):
    """``import a.b as c`` (``module`` None) or ``from ..module import names`` (``names``
    empty for ``*``); ``module_node`` is the module name's node when it is dotted."""

    __slots__ = ("level", "module", "module_node", "names", "star")
    kind = "import"

    def __init__(
        self,
        line: int,
        col: int,
        end_line: int,
        module: str | None,
        level: int,
        names: tuple[ImportName, ...],
        star: bool = False,
        module_node: Expr | None = None,
    ) -> None:
        super().__init__(line, col, end_line)
        self.module = module
        self.level = level
        self.names = names
        self.star = star
        self.module_node = module_node

    def children(self) -> tuple[Node, ...]:
        head: tuple[Node, ...] = (self.module_node,) if self.module_node is not None else ()
        return (*head, *self.names)


class Assert(Stmt):
    __slots__ = ("msg", "test")
    kind = "assert"

    def __init__(self, line: int, col: int, end_line: int, test: Expr, msg: Expr | None) -> None:
        super().__init__(line, col, end_line)
        self.test = test
        self.msg = msg

    def children(self) -> tuple[Node, ...]:
        return (self.test,) + ((self.msg,) if self.msg is not None else ())


class Simple(Stmt):
    """``pass``, ``break``, ``continue`` (``what``)."""

    __slots__ = ("what",)
    kind = "simple"

    def __init__(self, line: int, col: int, end_line: int, what: str) -> None:
        super().__init__(line, col, end_line)
        self.what = what


class If(Stmt):
    """``orelse`` is an ``elif`` (a one-statement body holding an ``If`` with ``is_elif``), a block, or empty."""

    __slots__ = ("body", "is_elif", "orelse", "test")
    kind = "if"

    def __init__(
        self, line: int, col: int, end_line: int, test: Expr, body: Body, orelse: Body, is_elif: bool = False
    ) -> None:
        super().__init__(line, col, end_line)
        self.test = test
        self.body = body
        self.orelse = orelse
        self.is_elif = is_elif

    def children(self) -> tuple[Node, ...]:
        return (self.test, *self.body, *self.orelse)


class For(Stmt):
    __slots__ = ("body", "iter", "orelse", "target")
    kind = "for"

    def __init__(self, line: int, col: int, end_line: int, target: Expr, iter: Expr, body: Body, orelse: Body) -> None:
        super().__init__(line, col, end_line)
        self.target = target
        self.iter = iter
        self.body = body
        self.orelse = orelse

    def children(self) -> tuple[Node, ...]:
        return (self.target, self.iter, *self.body, *self.orelse)


class While(Stmt):
    __slots__ = ("body", "orelse", "test")
    kind = "while"

    def __init__(self, line: int, col: int, end_line: int, test: Expr, body: Body, orelse: Body) -> None:
        super().__init__(line, col, end_line)
        self.test = test
        self.body = body
        self.orelse = orelse

    def children(self) -> tuple[Node, ...]:
        return (self.test, *self.body, *self.orelse)


class Handler(Node):
    __slots__ = ("body", "name", "type")
    kind = "handler"

    def __init__(self, line: int, col: int, end_line: int, type: Expr | None, name: Expr | None, body: Body) -> None:
        super().__init__(line, col, end_line)
        self.type = type
        self.name = name
        self.body = body

    def children(self) -> tuple[Node, ...]:
        head = tuple(x for x in (self.type, self.name) if x is not None)
        return (*head, *self.body)


class Try(Stmt):
    __slots__ = ("body", "finalbody", "handlers", "orelse")
    kind = "try"

    def __init__(
        self,
        line: int,
        col: int,
        end_line: int,
        body: Body,
        handlers: tuple[Handler, ...],
        orelse: Body,
        finalbody: Body,
    ) -> None:
        super().__init__(line, col, end_line)
        self.body = body
        self.handlers = handlers
        self.orelse = orelse
        self.finalbody = finalbody

    def children(self) -> tuple[Node, ...]:
        return (*self.body, *self.handlers, *self.orelse, *self.finalbody)


class WithItem(Node):
    __slots__ = ("asname", "expr")
    kind = "with-item"

    def __init__(self, line: int, col: int, end_line: int, expr: Expr, asname: Expr | None) -> None:
        super().__init__(line, col, end_line)
        self.expr = expr
        self.asname = asname

    def children(self) -> tuple[Node, ...]:
        return (self.expr,) + ((self.asname,) if self.asname is not None else ())


class With(Stmt):
    __slots__ = ("body", "items")
    kind = "with"

    def __init__(self, line: int, col: int, end_line: int, items: tuple[WithItem, ...], body: Body) -> None:
        super().__init__(line, col, end_line)
        self.items = items
        self.body = body

    def children(self) -> tuple[Node, ...]:
        return (*self.items, *self.body)


class FunctionDef(Stmt):
    __slots__ = ("body", "decorators", "name", "params", "returns")
    kind = "def"

    def __init__(
        self,
        line: int,
        col: int,
        end_line: int,
        name: str,
        decorators: tuple[Expr, ...],
        params: tuple[Param, ...],
        returns: Expr | None,
        body: Body,
    ) -> None:
        super().__init__(line, col, end_line)
        self.name = name
        self.decorators = decorators
        self.params = params
        self.returns = returns
        self.body = body

    def children(self) -> tuple[Node, ...]:
        tail: tuple[Node, ...] = (self.returns,) if self.returns is not None else ()
        return (*self.decorators, *self.params, *tail, *self.body)


class ClassDef(Stmt):
    """``bases`` are the header's arguments (keywords included); ``texts`` each one's source."""

    __slots__ = ("bases", "body", "decorators", "name", "texts")
    kind = "class"

    def __init__(
        self,
        line: int,
        col: int,
        end_line: int,
        name: str,
        decorators: tuple[Expr, ...],
        bases: tuple[Arg, ...],
        texts: tuple[str, ...],
        body: Body,
    ) -> None:
        super().__init__(line, col, end_line)
        self.name = name
        self.decorators = decorators
        self.bases = bases
        self.texts = texts
        self.body = body

    def children(self) -> tuple[Node, ...]:
        return (*self.decorators, *self.bases, *self.body)


class OtherStmt(Stmt):
    """A statement the model has no rule for (``match``, ``type X = ...``): its children still count."""

    __slots__ = ("items", "what")
    kind = "other-stmt"

    def __init__(self, line: int, col: int, end_line: int, what: str, items: tuple[Node, ...]) -> None:
        super().__init__(line, col, end_line)
        self.what = what
        self.items = items

    def children(self) -> tuple[Node, ...]:
        return self.items


class Module(Node):
    __slots__ = ("body",)
    kind = "module"

    def __init__(self, body: Body) -> None:
        super().__init__(1, 0, 1)
        self.body = body

    def children(self) -> tuple[Node, ...]:
        return self.body


Target = Name | Attribute | Subscript | Sequence | Starred
