"""Access to ``self``'s attributes by name: what it reads, and which names it could reach.

``getattr(self, "x")``, ``self.__dict__["x"]``, ``self.__dict__.get("x")``,
``self._modules.pop("x")`` (how ``nn.Module`` stores submodules), ``vars(self)["x"]``
read ``x``.  With a computed name they reach the names a ``Pattern`` describes:

* ``(PatternTag.NAMES, (n, ...))``: a name taken from a literal tuple or list (``for n in ("a", "b")``);
* ``(PatternTag.AFFIX, prefix, suffix)``: a name built with a literal prefix or suffix (``f"{k}_buffer"``);
* ``(PatternTag.CLASS_NAMES, attr)``: a name taken from a class attribute that lists names
  (``for n in self._buffer_names``), settled once the class is known;
* ``ANY``: anything (``self.__dict__`` handed over or iterated, ``vars(self)`` as a whole).

``hasattr`` with a computed name only tests for presence, and ``setattr``/``delattr``
only write: none of them reads a value, so none makes a finding unsure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from deadinit.model.kinds import ExprTag, PatternTag
from deadinit.model.summary import AllocInfo, Expr, Pattern
from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted, is_name, self_attr, to_expr

ANY: Pattern = (PatternTag.ANY,)
STORAGE = frozenset({"__dict__", "_modules", "_parameters", "_buffers"})  # self.<storage>[k] is attribute k
_KEYED_METHODS = frozenset({"get", "pop", "setdefault", "__getitem__", "__contains__"})
_LITERAL_READERS = frozenset({"getattr", "hasattr"})
NameLookup = Callable[[str], Pattern | None]  # a local name -> the names it may hold


def _no_names(_: str) -> Pattern | None:
    return None


def storage_of(node: sx.Node | None, self_name: str | None) -> sx.Node | None:
    """The node that stands for ``self``'s attribute storage (``self.__dict__``, ``vars(self)``...)."""
    attr = self_attr(node, self_name)
    if attr in STORAGE:
        return node
    if (
        isinstance(node, sx.Call)
        and len(node.args) == 1
        and is_name(node.args[0].value, self_name)
        and dotted(node.func) == "vars"
    ):
        return node
    return None


def keyed_access(node: sx.Node, self_name: str | None) -> tuple[sx.Node, sx.Expr] | None:
    """(storage node, key expression) for ``<storage>[k]``, ``<storage>.get(k)``, ``getattr(self, k)``..."""
    if isinstance(node, sx.Subscript) and node.items:
        store = storage_of(node.value, self_name)
        if store is not None:
            return store, node.items[0]
    if isinstance(node, sx.Call) and node.args:
        func = node.func
        if isinstance(func, sx.Attribute) and func.attr in _KEYED_METHODS:
            store = storage_of(func.value, self_name)
            if store is not None:
                return store, node.args[0].value
        if len(node.args) >= 2 and is_name(node.args[0].value, self_name) and dotted(func) == "getattr":
            return node.args[0].value, node.args[1].value
    return None


def name_pattern(key: sx.Expr, names: NameLookup = _no_names) -> Pattern:
    """The attribute names an expression used as a name may hold."""
    if isinstance(key, sx.Const) and isinstance(key.value, str):
        return (PatternTag.NAMES, (key.value,))
    if isinstance(key, sx.Name):
        found = names(key.id)
        return found if found is not None else ANY
    prefix, suffix = _affix(key)
    if prefix or suffix:
        return (PatternTag.AFFIX, prefix, suffix)
    return ANY


def _affix(key: sx.Expr) -> tuple[str, str]:
    if isinstance(key, sx.BinOp) and key.op == "+":
        left = key.left.value if isinstance(key.left, sx.Const) and isinstance(key.left.value, str) else ""
        right = key.right.value if isinstance(key.right, sx.Const) and isinstance(key.right.value, str) else ""
        return left, right
    if isinstance(key, sx.FString):
        return key.prefix, key.suffix
    return "", ""


def loop_names(iterable: sx.Expr, self_name: str | None) -> Pattern | None:
    """What ``for n in <iterable>`` binds ``n`` to: names from a literal sequence or a class attribute."""
    if isinstance(iterable, sx.Sequence) and iterable.elts:
        if all(isinstance(e, sx.Const) and isinstance(e.value, str) for e in iterable.elts):
            return (PatternTag.NAMES, tuple(e.value for e in iterable.elts))  # type: ignore[attr-defined]
        return None
    attr = self_attr(iterable, self_name)
    if attr is not None:
        return (PatternTag.CLASS_NAMES, attr)
    return None


class Registered(NamedTuple):
    """What one ``self.add_module(name, m)`` (``register_buffer``...) registers (``AllocClassifier.registration``)."""

    names: tuple[str, ...]  # one literal name, or one per value of a range loop (``f"norm{i}"``)
    alloc: AllocInfo | None  # None when the value is no allocation
    value: sx.Expr
    loop_var: str | None = None  # the range loop's variable the names come from
    affix: tuple[str, str] = ("", "")  # ``f"norm{i}"``: the literal prefix and suffix around the variable


def registered_names(
    node: sx.Expr | None,
    self_name: str,
    self_literal: Callable[[str], str | None],
    loop_values: Callable[[str], tuple[int, ...] | None],
) -> tuple[tuple[str, ...], str | None, tuple[str, str]]:
    """The names a registration's name expression stands for, the loop variable of ``f"norm{i}"`` (a
    literal prefix) and its affix; no names when no literal decides them (the variable and affix are
    still given for ``f"norm{i}"``: a range the chain decides may name them)."""
    if isinstance(node, sx.Const) and isinstance(node.value, str):
        return (node.value,), None, ("", "")
    held = self_attr(node, self_name) if node is not None else None
    if held is not None:
        literal = self_literal(held)
        return ((literal,) if literal is not None else ()), None, ("", "")
    if isinstance(node, sx.FString) and node.prefix and len(node.exprs) == 1 and isinstance(node.exprs[0], sx.Name):
        var = node.exprs[0].id
        values = loop_values(var) or ()
        return tuple(f"{node.prefix}{v}{node.suffix}" for v in values), var, (node.prefix, node.suffix)
    return (), None, ("", "")


RANGE_LIMIT = 64  # a longer literal range is not expanded into names


class RangeLoop(NamedTuple):
    """``for i in range(<start>, <stop>)`` whose body runs once for every value (no early exit)."""

    start: Expr
    stop: Expr
    in_loop: bool  # the loop's own context
    values: tuple[int, ...] | None  # when literals decide the range (``range_values``)


def range_bounds(iterable: sx.Expr, self_name: str | None) -> tuple[Expr, Expr] | None:
    """``(start, stop)`` of ``range(stop)`` / ``range(start, stop)`` as expressions; None for any other
    iterable or a range with a step."""
    if not (isinstance(iterable, sx.Call) and dotted(iterable.func) == "range"):
        return None
    if any(a.keyword is not None or a.star for a in iterable.args) or len(iterable.args) not in (1, 2):
        return None
    bounds = [to_expr(a.value, self_name) for a in iterable.args]
    return ((ExprTag.CONST, 0), bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])


def range_values(iterable: sx.Expr) -> tuple[int, ...] | None:
    """The values ``for i in range(<literal ints>)`` binds ``i`` to, in order; None for any other
    iterable, a step or a range of more than ``RANGE_LIMIT`` values."""
    if not (isinstance(iterable, sx.Call) and dotted(iterable.func) == "range"):
        return None
    bounds = [a.value for a in iterable.args]
    if any(a.keyword is not None or a.star for a in iterable.args) or len(bounds) not in (1, 2):
        return None
    if not all(isinstance(b, sx.Const) and type(b.value) is int for b in bounds):
        return None
    ints = [b.value for b in bounds]  # type: ignore[attr-defined]
    start, stop = (0, ints[0]) if len(ints) == 1 else (ints[0], ints[1])
    if stop - start > RANGE_LIMIT:
        return None
    return tuple(range(start, stop))


def describe(pattern: Pattern) -> str:
    if pattern[0] == PatternTag.NAMES:
        return "one of " + ", ".join(pattern[1])
    if pattern[0] == PatternTag.AFFIX:
        parts = ([f"starting with {pattern[1]!r}"] if pattern[1] else []) + (
            [f"ending with {pattern[2]!r}"] if pattern[2] else []
        )
        return "a name " + " and ".join(parts)
    if pattern[0] == PatternTag.CLASS_NAMES:
        return f"a name listed in self.{pattern[1]}"
    return "any name"


def matches(pattern: Pattern, attr: str, class_names: Callable[[str], tuple[str, ...] | None]) -> bool:
    """Whether a dynamic access with ``pattern`` could reach ``attr`` (``class_names`` resolves
    a class attribute to the literal names it lists, or None)."""
    kind = pattern[0]
    if kind == PatternTag.NAMES:
        return attr in pattern[1]
    if kind == PatternTag.AFFIX:
        return attr.startswith(pattern[1]) and attr.endswith(pattern[2])
    if kind == PatternTag.CLASS_NAMES:
        listed = class_names(pattern[1])
        return True if listed is None else attr in listed
    return True


class KeyedRead(NamedTuple):
    """``getattr(self, "x")``, ``self.__dict__["x"]``...: the attribute named by a literal."""

    attr: str


class KeyedDynamic(NamedTuple):
    """``getattr(self, k)``... with a computed ``k``: why it is dynamic, and the names it may reach."""

    reason: str
    pattern: Pattern


class KeyedAccess(NamedTuple):
    """What a subscript or call does to ``self``'s attributes by name (``access_of``), and the
    storage node it keys into."""

    event: KeyedRead | KeyedDynamic
    store: sx.Node


def access_of(node: sx.Node, self_name: str | None, names: NameLookup = _no_names) -> KeyedAccess | None:
    """What a subscript or call does to ``self``'s attributes by name: a ``KeyedRead`` for a
    literal name, a ``KeyedDynamic`` for a computed one, else None.  The storage node it keys into
    is given too, so that its bare use is not taken for a wholesale access."""
    ka = keyed_access(node, self_name)
    if ka is None:
        return None
    store, key = ka
    if isinstance(key, sx.Const) and isinstance(key.value, str):
        return KeyedAccess(KeyedRead(key.value), store)
    pattern = name_pattern(key, names)
    return KeyedAccess(KeyedDynamic(f"{_written(node, store, self_name)} with {describe(pattern)}", pattern), store)


def wholesale_use(node: sx.Node, self_name: str | None) -> str | None:
    """The reason when ``node`` hands over or walks ``self``'s whole attribute storage."""
    attr = self_attr(node, self_name)
    if attr in STORAGE:
        return f"self.{attr}"
    if storage_of(node, self_name) is not None:
        return "vars(self)"
    return None


def _written(node: sx.Node, store: sx.Node, self_name: str | None) -> str:
    if isinstance(node, sx.Call) and dotted(node.func) == "getattr":
        return "getattr(self, <computed>)"
    where = wholesale_use(store, self_name) or "self.__dict__"
    if isinstance(node, sx.Subscript):
        return f"{where}[<computed>]"
    return f"{where}.{node.func.attr}(<computed>)"  # type: ignore[attr-defined]


def literal_attr_of(node: sx.Call, self_name: str | None) -> tuple[sx.Expr, str] | None:
    """(receiver, ``x``) for ``getattr(obj, "x")`` (with a default or not) or ``hasattr(obj, "x")``
    whose receiver is not ``self_name``: a read of ``obj.x``, as written out; a ``hasattr`` counts
    too (what it answers changes with the attribute there or not)."""
    if len(node.args) < 2 or dotted(node.func) not in _LITERAL_READERS or is_name(node.args[0].value, self_name):
        return None
    if any(a.keyword is not None or a.star for a in node.args[:2]):
        return None
    name = node.args[1].value
    if isinstance(name, sx.Const) and isinstance(name.value, str) and name.value.isidentifier():
        return node.args[0].value, name.value
    return None
