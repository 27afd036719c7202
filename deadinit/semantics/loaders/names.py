"""The expressions of a weight loader's loop, for ``deadinit.semantics.loaders.skips``: which locals carry the
weight's name, whether evaluating an expression may fail because that name is unknown, and which names a test
proves to be keys of the parameter table."""

from __future__ import annotations

from dataclasses import dataclass, field

from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted, is_name

STR_METHODS = frozenset(
    {
        "replace",
        "startswith",
        "endswith",
        "split",
        "rsplit",
        "partition",
        "rpartition",
        "removeprefix",
        "removesuffix",
        "strip",
        "lstrip",
        "rstrip",
        "lower",
        "upper",
        "format",
        "join",
        "count",
        "find",
        "rfind",
        "isdigit",
    }
)
TABLE_READERS = frozenset({"get", "keys", "items", "values"})
SAFE_BUILTINS = frozenset({"len", "str", "repr", "print", "any", "all"})
LOG_ROOTS = frozenset({"logger", "logging", "log", "warnings"})
MAX_PASSES = 4


@dataclass(frozen=True)
class State:
    tainted: frozenset[str] = frozenset()  # locals that carry the weight's name (or a lookup of it)
    known: frozenset[str] = frozenset()  # tainted locals proven to name a parameter

    @property
    def proven(self) -> bool:
        return bool(self.known)


def merge(a: State | None, b: State | None) -> State | None:
    if a is None:
        return b
    if b is None:
        return a
    return State(a.tainted | b.tainted, a.known & b.known)


class Failed(Exception):
    """The loader may fail, or stop, on a name it does not know."""


@dataclass
class NameFlow:
    table: str  # the local holding ``dict(self.named_parameters())``
    guards: list[int] = field(default_factory=list)  # lines of the tests that made the name known
    seen: set[str] = field(default_factory=set)  # every local that carried the name somewhere in the loop

    # -- expressions -------------------------------------------------------------
    def carries(self, e: sx.Node | None, st: State) -> bool:
        """The value of ``e`` is, or is built from, the weight's name (or a table lookup of it)."""
        if isinstance(e, sx.Name):
            return e.id in st.tainted
        if isinstance(e, sx.Call):
            f = e.func
            if isinstance(f, sx.Attribute) and (is_name(f.value, self.table) or f.attr in STR_METHODS):
                return self.carries(f.value, st) or any(self.carries(a.value, st) for a in e.args)
            return False
        if isinstance(e, sx.BinOp | sx.FString | sx.IfExp | sx.Sequence | sx.Starred | sx.Subscript):
            return any(self.carries(c, st) for c in e.children() if not isinstance(c, sx.Compare))
        return False

    def ok(self, e: sx.Node | None, st: State, carrier: bool = False) -> None:
        """Raise ``Failed`` when evaluating ``e`` may fail because the name is unknown; ``carrier``: the
        context may receive the name's value (a comparison, an assignment to a local)."""
        if e is None:
            return
        if not carrier and not st.proven and self.carries(e, st):
            raise Failed
        if isinstance(e, sx.Name):
            if e.id == self.table:
                raise Failed  # the table itself handed on (a callee may look names up)
        elif isinstance(e, sx.Compare):
            self._compare(e, st)
        elif isinstance(e, sx.Call):
            self._call(e, st)
        elif isinstance(e, sx.Subscript):
            self._subscript(e, st)
        elif isinstance(e, sx.BinOp | sx.FString | sx.IfExp | sx.Sequence | sx.Starred | sx.BoolOp | sx.UnaryOp):
            for c in e.children():
                self.ok(c, st, carrier=True)
        elif isinstance(e, sx.Other) and e.stores:
            raise Failed  # a walrus binds a local the check would not follow
        elif isinstance(e, sx.Lambda):
            raise Failed
        else:
            for c in e.children():
                self.ok(c.value if isinstance(c, sx.Arg) else c, st)

    def _subscript(self, e: sx.Subscript, st: State) -> None:
        """``table[k]`` only for a ``k`` known to name a parameter; any other subscript by its parts."""
        if is_name(e.value, self.table):
            key = e.items[0] if len(e.items) == 1 else None
            if not (isinstance(key, sx.Name) and key.id in st.known):
                raise Failed
        else:
            self.ok(e.value, st)
            for i in e.items:
                self.ok(i, st)

    def _compare(self, e: sx.Compare, st: State) -> None:
        self.ok(e.left, st, carrier=True)
        for op, comp in zip(e.ops, e.comparators, strict=True):
            if op in ("in", "not in") and self._is_table(comp):
                continue
            self.ok(comp, st, carrier=True)

    def _is_table(self, e: sx.Node) -> bool:
        if is_name(e, self.table):
            return True
        return (
            isinstance(e, sx.Call)
            and not e.args
            and isinstance(e.func, sx.Attribute)
            and e.func.attr == "keys"
            and is_name(e.func.value, self.table)
        )

    def _call(self, e: sx.Call, st: State) -> None:
        f = e.func
        args = [a.value for a in e.args]
        if isinstance(f, sx.Attribute) and is_name(f.value, self.table):
            if f.attr not in TABLE_READERS:
                raise Failed
            free = True
        elif isinstance(f, sx.Attribute) and f.attr in STR_METHODS:
            receiver = f.value
            if not (self.carries(receiver, st) or isinstance(receiver, sx.Const)):
                self.ok(receiver, st)
                free = False
            else:
                self.ok(receiver, st, carrier=True)
                free = True
        else:
            name = dotted(f) or ""
            free = name in SAFE_BUILTINS or name.split(".", 1)[0] in LOG_ROOTS
            self.ok(f, st)
        for a in args:
            self.ok(a, st, carrier=free)

    # -- what a test proves ----------------------------------------------------------
    def facts(self, test: sx.Node, truth: bool, st: State) -> frozenset[str]:
        """Tainted locals proven to name a parameter when ``test`` has the value ``truth``."""
        if isinstance(test, sx.UnaryOp) and test.op == "not":
            return self.facts(test.operand, not truth, st)
        if isinstance(test, sx.BoolOp):
            if (test.op == "and") == truth:
                return self.facts(test.left, truth, st) | self.facts(test.right, truth, st)
            return frozenset()
        if not (isinstance(test, sx.Compare) and len(test.ops) == 1 and isinstance(test.left, sx.Name)):
            return frozenset()
        local, op, right = test.left.id, test.ops[0], test.comparators[0]
        if local not in st.tainted:
            return frozenset()
        if op in ("in", "not in") and self._is_table(right) and (op == "in") == truth:
            return frozenset({local})
        if op in ("is", "is not") and is_name(right, "None") and (op == "is not") == truth:
            return frozenset({local})
        return frozenset()
