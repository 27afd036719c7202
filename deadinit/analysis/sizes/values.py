"""Integer values of the expressions sizes are made of: folded where the project fixes them,
named otherwise.

``Values.value`` reads an ``Expr`` (``deadinit.semantics.exprs``) in a ``Context`` (the
module, the parameters of the ``__init__`` it sits in, bound to values, and the
``self`` attributes assigned before it) and gives a ``Poly``: a number, or an
expression over names such as ``hidden_size``.  None: not an integer anyone can name
(a call, a string).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deadinit.analysis.sizes.symbolic import Poly
from deadinit.index.dependencies import Recorded, paused
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import ExprTag, NameKind, ParamKind
from deadinit.model.summary import Expr, MethodSummary, Param

DTYPE_BYTES = {
    "uint8": 1,
    "int8": 1,
    "bool": 1,
    "float8_e4m3fn": 1,
    "float8_e5m2": 1,
    "float8_e4m3fnuz": 1,
    "float16": 2,
    "half": 2,
    "bfloat16": 2,
    "int16": 2,
    "short": 2,
    "float32": 4,
    "float": 4,
    "int32": 4,
    "int": 4,
    "uint32": 4,
    "float64": 8,
    "double": 8,
    "int64": 8,
    "long": 8,
    "uint64": 8,
    "complex64": 8,
}

MAX_DEPTH = 20
INT_CALLS = frozenset({"int", "math.ceil", "math.floor", "round"})


@dataclass
class Context:
    module: str
    env: dict[str, Poly | None]  # parameters bound to values (None: passed, value unknown)
    folded: dict[str, Expr] = field(default_factory=dict)  # what the chain folded them to (literals)
    params: dict[str, Param] = field(default_factory=dict)  # the enclosing ``__init__``'s parameters
    self_values: dict[str, tuple[Expr, Context]] = field(default_factory=dict)  # self.a -> (value, where)


class Values:
    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        env_defaults: dict[str, Expr] = {}
        with paused():
            for s in index.modules.values():
                for k, v in s.env_defaults.items():
                    env_defaults.setdefault(k, v)
        self.env_defaults = Recorded("env", env_defaults)

    def number(self, e: Expr | None, ctx: Context) -> int | None:
        v = self.value(e, ctx)
        return v.number if v is not None else None

    def value(self, e: Expr | None, ctx: Context, depth: int = 0) -> Poly | None:
        if e is None or depth > MAX_DEPTH:
            return None
        d = depth + 1
        k = e[0]
        if k == ExprTag.CONST:
            return Poly.const(e[1]) if isinstance(e[1], int) and not isinstance(e[1], bool) else None
        if k == ExprTag.NAME:
            return self._name(e[1], ctx, d)
        if k == ExprTag.SELF:
            held = ctx.self_values.get(e[1])
            if held is not None:
                v = self.value(held[0], held[1], d)
                if v is not None:
                    return v
            return Poly.symbol(e[1])
        if k == ExprTag.DOTTED:
            return self._dotted(e[1], ctx, d)
        if k == ExprTag.CALL:
            return self._call(e, ctx, d)
        if k == ExprTag.BIN:
            return self._binary(e[1], self.value(e[2], ctx, d), self.value(e[3], ctx, d))
        if k == ExprTag.IFEXP:
            a, b = self.value(e[2], ctx, d), self.value(e[3], ctx, d)
            if a is not None and a == b:
                return a
            test = e[1]
            if test[0] == ExprTag.CALL and test[1].endswith(".is_set"):
                return b  # an environment override that is not set by default
        return None

    def _name(self, name: str, ctx: Context, depth: int) -> Poly | None:
        if name in ctx.env:
            v = ctx.env[name]
            return v if v is not None else Poly.symbol(name)
        folded = ctx.folded.get(name)
        if folded is not None and folded[0] == ExprTag.CONST:
            return self.value(folded, ctx, depth)
        if name in ctx.params:
            return Poly.symbol(name)
        c = self._constant(ctx.module, name, depth)
        return c if c is not None else Poly.symbol(name)

    def _dotted(self, name: str, ctx: Context, depth: int) -> Poly | None:
        head, _, last = name.rpartition(".")
        mod = self.index.resolve_any(ctx.module, head) if head and head.split(".")[0] not in ctx.params else None
        if mod and mod.kind is NameKind.MODULE:
            return self._constant(mod.name, last, depth)
        root, _, rest = name.partition(".")
        if "." not in rest and root in ctx.params:
            default = self._config_default(ctx.params[root], ctx.module, rest, depth)
            if default is not None:
                return default
        return Poly.symbol(last)

    def _config_default(self, param: Param, module: str, field_name: str, depth: int) -> Poly | None:
        """``config.x`` where ``config: C`` and C is a project class: C's default for ``x``."""
        if param.annotation is None:
            return None
        qn = self.index.resolve(module, param.annotation)
        if qn is None:
            return None
        mro = self.index.mro(qn) or [qn]
        found = self.index.resolve_method(mro, "__init__")
        cmod = self.index.class_module[qn]
        if found is not None:
            for p in found[1].params:
                if p.name == field_name and p.default is not None:
                    return self._folded_only(p.default, Context(self.index.class_module[found[0]], {}), depth)
        value = self.index.class_values(mro).get(field_name)
        return self._folded_only(value, Context(cmod, {}), depth) if value is not None else None

    def _folded_only(self, e: Expr, ctx: Context, depth: int) -> Poly | None:
        v = self.value(e, ctx, depth + 1)
        return v if v is not None and v.number is not None else None

    def _call(self, e: Expr, ctx: Context, depth: int) -> Poly | None:
        func, args = e[1], e[2]
        if func.endswith(".get") and not args:
            name = func[:-4].split(".")[-1]
            if name in self.env_defaults:
                return self.value(self.env_defaults[name], Context(ctx.module, {}), depth)
            return None
        if func in INT_CALLS and len(args) == 1:
            return self.value(args[0], ctx, depth)
        if func in ("max", "min") and len(args) == 2:
            a, b = self.value(args[0], ctx, depth), self.value(args[1], ctx, depth)
            if a is not None and b is not None and a.number is not None and b.number is not None:
                return Poly.const(max(a.number, b.number) if func == "max" else min(a.number, b.number))
            return None
        named = (
            len(args) >= 2
            and args[0][0] == ExprTag.NAME
            and args[1][0] == ExprTag.CONST
            and isinstance(args[1][1], str)
        )
        if func == "getattr" and named:
            return self._dotted(f"{args[0][1]}.{args[1][1]}", ctx, depth)
        return None

    @staticmethod
    def _binary(op: str, a: Poly | None, b: Poly | None) -> Poly | None:
        if a is None or b is None:
            return None
        x, y = a.number, b.number
        if x is not None and y is not None:
            return _fold(op, x, y)
        if op == "+":
            return a.add(b)
        if op == "-":
            return a.sub(b)
        if op == "*":
            return a.mul(b)
        if op in ("//", "/") and y is not None:
            q = a.divide(y)
            if q is not None:
                return q
        if op in ("//", "/"):
            return Poly.symbol(f"({_atom(a)} / {_atom(b)})")
        return None

    def _constant(self, module: str, name: str, depth: int) -> Poly | None:
        if depth > MAX_DEPTH:
            return None
        if module not in self.index.paths:
            return None
        constant = self.index.constant_of(module, name)
        if constant is not None:
            v = self.value(constant, Context(module, {}), depth + 1)
            return v if v is not None and v.number is not None else None
        r = self.index.import_of(module, name)
        if r is not None and r.name is not None:
            src = self.index._abs_module(module, r)
            if src in self.index.paths and src != module:
                return self._constant(src, r.name, depth + 1)
        return None


def _atom(p: Poly) -> str:
    return p.text()


def _fold(op: str, a: int, b: int) -> Poly | None:
    v: int | None = None
    if op == "+":
        v = a + b
    elif op == "-":
        v = a - b
    elif op == "*":
        v = a * b
    elif op == "//" and b:
        v = a // b
    elif op == "<<" and 0 <= b < 64:
        v = a << b
    elif op == "**" and 0 <= b < 64:
        v = a**b
    elif op == "%" and b:
        v = a % b
    elif op == "/" and b and a % b == 0:
        v = a // b
    return Poly.const(v) if v is not None else None


def bind_call(
    values: Values,
    method: MethodSummary,
    args: tuple[Expr, ...],
    kwargs: tuple[tuple[str, Expr], ...],
    ctx: Context,
    spread: frozenset[str] = frozenset(),
) -> dict[str, Poly | None]:
    """``method``'s parameters bound to the values of a call's arguments; a parameter left
    to its default gets the default's value in the callee's terms (None when unknown), unless it is
    one of ``spread``, those the call's ``*args`` / ``**kwargs`` may fill."""
    return bind_params(values, tuple(method.params), args, kwargs, ctx, spread=spread)


def bind_params(
    values: Values,
    params: tuple[Param, ...],
    args: tuple[Expr, ...],
    kwargs: tuple[tuple[str, Expr], ...],
    ctx: Context,
    defaults: bool = True,
    spread: frozenset[str] = frozenset(),
) -> dict[str, Poly | None]:
    """``params`` bound to the values of a call's arguments (read in the caller's ``ctx``); with ``defaults``,
    a parameter the call leaves out gets its literal default (not one of ``spread``, which the call's
    ``*args`` / ``**kwargs`` may bind)."""
    env: dict[str, Poly | None] = {}
    positional = [p for p in params if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL)]
    for p, a in zip(positional, args, strict=False):
        env[p.name] = values.value(a, ctx)
    by_name = {p.name for p in params if p.kind in (ParamKind.NORMAL, ParamKind.KWONLY)}
    for name, a in kwargs:
        if name in by_name:
            env[name] = values.value(a, ctx)
    for p in params:
        if p.name in env or p.name in spread:
            continue
        if defaults and p.default is not None and p.default[0] == ExprTag.CONST:
            env[p.name] = values.value(p.default, ctx)
    return env


def truth(e: Expr | None) -> bool | None:
    """A literal's truth (``bias=False``), else None."""
    if e is None or e[0] != ExprTag.CONST:
        return None
    return bool(e[1])
