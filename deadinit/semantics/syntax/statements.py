"""The statement nodes of the syntax tree (``deadinit.semantics.syntax``)."""

from __future__ import annotations

from deadinit.semantics.syntax.expressions import Arg, Expr, Param
from deadinit.semantics.syntax.node import Node
from deadinit.semantics.syntax.words import Jump, NameScope


class Stmt(Node):
    __slots__ = ()


Body = tuple[Stmt, ...]


class Assign(Stmt):
    __slots__ = ("targets", "value")
    kind = "assign"

    def __init__(self, line: int, col: int, end_line: int, targets: tuple[Expr, ...], value: Expr) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.targets = targets
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (*self.targets, self.value)


class AnnAssign(Stmt):
    __slots__ = ("annotation", "target", "value")
    kind = "annassign"

    def __init__(self, line: int, col: int, end_line: int, target: Expr, annotation: Expr, value: Expr | None) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.target = target
        self.annotation = annotation
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.target, self.annotation) + ((self.value,) if self.value is not None else ())


class AugAssign(Stmt):
    __slots__ = ("op", "target", "value")
    kind = "augassign"

    def __init__(self, line: int, col: int, end_line: int, target: Expr, op: str, value: Expr) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.target = target
        self.op = op
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.target, self.value)


class ExprStmt(Stmt):
    __slots__ = ("value",)
    kind = "expr"

    def __init__(self, line: int, col: int, end_line: int, value: Expr) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.value,)


class Return(Stmt):
    __slots__ = ("value",)
    kind = "return"

    def __init__(self, line: int, col: int, end_line: int, value: Expr | None) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.value = value

    def children(self) -> tuple[Node, ...]:
        return (self.value,) if self.value is not None else ()


class Raise(Stmt):
    __slots__ = ("cause", "exc")
    kind = "raise"

    def __init__(self, line: int, col: int, end_line: int, exc: Expr | None, cause: Expr | None) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.exc = exc
        self.cause = cause

    def children(self) -> tuple[Node, ...]:
        return tuple(x for x in (self.exc, self.cause) if x is not None)


class Names(Stmt):
    """``global a, b`` / ``nonlocal a`` (``scope`` says which)."""

    __slots__ = ("names", "scope")
    kind = "names"

    def __init__(self, line: int, col: int, end_line: int, scope: NameScope, names: tuple[str, ...]) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.scope = scope
        self.names = names


class Delete(Stmt):
    __slots__ = ("targets",)
    kind = "delete"

    def __init__(self, line: int, col: int, end_line: int, targets: tuple[Expr, ...]) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.targets = targets

    def children(self) -> tuple[Node, ...]:
        return self.targets


class ImportName(Node):
    """One ``dotted as asname`` of an import; ``dotted`` is an ``Attribute``/``Name`` chain,
    as libcst reads module names."""

    __slots__ = ("asname", "dotted", "name")
    kind = "import-name"

    def __init__(self, line: int, col: int, end_line: int, name: str, dotted: Expr, asname: str | None) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.test = test
        self.msg = msg

    def children(self) -> tuple[Node, ...]:
        return (self.test,) + ((self.msg,) if self.msg is not None else ())


class Simple(Stmt):
    """``pass``, ``break``, ``continue`` (``what``)."""

    __slots__ = ("what",)
    kind = "simple"

    def __init__(self, line: int, col: int, end_line: int, what: Jump) -> None:
        self.line, self.col, self.end_line = line, col, end_line
        self.what = what


class If(Stmt):
    """``orelse`` is an ``elif`` (a one-statement body holding an ``If`` with ``is_elif``), a block, or empty."""

    __slots__ = ("body", "is_elif", "orelse", "test")
    kind = "if"

    def __init__(
        self, line: int, col: int, end_line: int, test: Expr, body: Body, orelse: Body, is_elif: bool = False
    ) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.test = test
        self.body = body
        self.orelse = orelse

    def children(self) -> tuple[Node, ...]:
        return (self.test, *self.body, *self.orelse)


class Handler(Node):
    __slots__ = ("body", "name", "type")
    kind = "handler"

    def __init__(self, line: int, col: int, end_line: int, type: Expr | None, name: Expr | None, body: Body) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.expr = expr
        self.asname = asname

    def children(self) -> tuple[Node, ...]:
        return (self.expr,) + ((self.asname,) if self.asname is not None else ())


class With(Stmt):
    __slots__ = ("body", "items")
    kind = "with"

    def __init__(self, line: int, col: int, end_line: int, items: tuple[WithItem, ...], body: Body) -> None:
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
        self.name = name
        self.decorators = decorators
        self.params = params
        self.returns = returns
        self.body = body

    def children(self) -> tuple[Node, ...]:
        tail: tuple[Node, ...] = (self.returns,) if self.returns is not None else ()
        return (*self.decorators, *self.params, *tail, *self.body)

    def lines(self) -> tuple[int, int]:
        """Its first line (of its decorators, if any) and its last."""
        return min((self.line, *(d.line for d in self.decorators))), self.end_line


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
        self.line, self.col, self.end_line = line, col, end_line
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
        self.line, self.col, self.end_line = line, col, end_line
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
