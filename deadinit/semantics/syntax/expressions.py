"""The expression nodes of the syntax tree (``deadinit.semantics.syntax``)."""

from __future__ import annotations

import re
from typing import Any

from deadinit.model.kinds import StrEnum
from deadinit.semantics.syntax.node import Node

_IDENTIFIER_TEXT = re.compile(r"\w*")


class Expr(Node):
    __slots__ = ()


class Name(Expr):
    __slots__ = ("id",)
    kind = "name"

    def __init__(self, line: int, col: int, end_line: int, id: str) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.id = id


class Const(Expr):
    """A literal.  ``True``/``False``/``None`` are ``Name`` nodes, as libcst reads them;
    ``value`` is the literal's Python value (``0x10`` is 16)."""

    __slots__ = ("value",)
    kind = "const"

    def __init__(self, line: int, col: int, end_line: int, value: Any) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.value = value


class Attribute(Expr):
    __slots__ = ("attr", "value")
    kind = "attribute"

    def __init__(self, line: int, col: int, end_line: int, value: Expr, attr: str) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.value = value
        self.keyword = keyword
        self.star = star

    def children(self) -> tuple[Node, ...]:
        return (self.value,)


class Call(Expr):
    __slots__ = ("args", "func")
    kind = "call"

    def __init__(self, line: int, col: int, end_line: int, func: Expr, args: tuple[Arg, ...]) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.func = func
        self.args = args

    def children(self) -> tuple[Node, ...]:
        return (self.func, *self.args)


class Subscript(Expr):
    __slots__ = ("items", "value")
    kind = "subscript"

    def __init__(self, line: int, col: int, end_line: int, value: Expr, items: tuple[Expr, ...]) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.value = value
        self.items = items

    def children(self) -> tuple[Node, ...]:
        return (self.value, *self.items)


class Sequence(Expr):
    """``(a, b)``, ``[a, b]``, ``{a, b}``: ``shape`` is tuple, list or set."""

    __slots__ = ("elts", "shape")
    kind = "sequence"

    def __init__(self, line: int, col: int, end_line: int, shape: str, elts: tuple[Expr, ...]) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.shape = shape
        self.elts = elts

    def children(self) -> tuple[Node, ...]:
        return self.elts


class Starred(Expr):
    """``*x`` in a sequence or target (``**x`` in a dict is a ``DictItem`` without key)."""

    __slots__ = ("value",)
    kind = "starred"

    def __init__(self, line: int, col: int, end_line: int, value: Expr) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.value,)


class DictItem(Node):
    __slots__ = ("key", "value")
    kind = "dict-item"

    def __init__(self, line: int, col: int, end_line: int, key: Expr | None, value: Expr) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.key = key
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.value,) if self.key is None else (self.key, self.value)


class Dict(Expr):
    __slots__ = ("items",)
    kind = "dict"

    def __init__(self, line: int, col: int, end_line: int, items: tuple[DictItem, ...]) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.items = items

    def children(self) -> tuple[Node, ...]:
        return self.items


class Generator(Node):
    """One ``for target in iter if cond...`` of a comprehension."""

    __slots__ = ("ifs", "iter", "target")
    kind = "generator"

    def __init__(self, line: int, col: int, end_line: int, target: Expr, iter: Expr, ifs: tuple[Expr, ...]) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.shape = shape
        self.key = key
        self.elt = elt
        self.generators = generators

    def children(self) -> tuple[Node, ...]:
        head: tuple[Node, ...] = (self.elt,) if self.key is None else (self.key, self.elt)
        return (*head, *self.generators)


class ParamGroup(StrEnum):
    """``Param.group``: where a parameter is in the signature (``*args`` and ``**kwargs`` are NORMAL)."""

    POSONLY = "posonly"  # before ``/``
    NORMAL = "normal"
    KWONLY = "kwonly"  # after ``*`` or ``*args``


class Param(Node):
    """A parameter: ``star`` is ``""``, ``"*"`` or ``"**"``; ``group`` where it is in the signature."""

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
        group: ParamGroup = ParamGroup.NORMAL,
    ) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.params = params
        self.body = body

    def children(self) -> tuple[Node, ...]:
        return (*self.params, self.body)


class IfExp(Expr):
    __slots__ = ("body", "orelse", "test")
    kind = "ifexp"

    def __init__(self, line: int, col: int, end_line: int, test: Expr, body: Expr, orelse: Expr) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.op = op
        self.operand = operand

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)


class BinOp(Expr):
    """``op`` as written: + - * / // % ** << >> & | ^ @."""

    __slots__ = ("left", "op", "right")
    kind = "binop"

    def __init__(self, line: int, col: int, end_line: int, op: str, left: Expr, right: Expr) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.what = what
        self.items = items
        self.notnone = notnone
        self.stores = stores

    def children(self) -> tuple[Node, ...]:
        return self.items
