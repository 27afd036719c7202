"""Reads, writes, fills, escapes, dynamic access and ``__init__`` calls: the one place that decides them.

Every producer of facts asks these functions: the summary builder (``check``), the
init-flow flattener, both fix strategies' models of an ``__init__`` body and the
reuse measure.  They read ``deadinit.semantics.syntax`` trees only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted, is_name, self_attr

# ``self.x.m(...)`` with one of these methods puts something into ``self.x``
FILL_METHODS = frozenset({"append", "extend", "insert", "update", "setdefault", "__setitem__", "add"})
# calls that take ``self`` without letting it escape into another object
_NOT_ESCAPES = frozenset({"getattr", "hasattr", "isinstance", "setattr", "super"})


@dataclass
class Reads:
    """What an expression or statement reads, in source order."""

    attrs: list[str] = field(default_factory=list)  # self attributes loaded (``getattr(self, "x")`` included)
    names: set[str] = field(default_factory=set)  # names it mentions (locals it may read)
    passes_self: list[str] = field(default_factory=list)  # dotted callees that receive ``self``


def reads_of(node: sx.Node | None, self_name: str | None, out: Reads | None = None) -> Reads:
    r = out if out is not None else Reads()
    if node is not None:
        _collect(node, self_name, r)
    return r


def _collect(node: sx.Node, self_name: str | None, r: Reads) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Attribute):
            if self_name is not None and isinstance(n.value, sx.Name) and n.value.id == self_name:
                r.attrs.append(n.attr)
                continue
        elif isinstance(n, sx.Name):
            r.names.add(n.id)
            continue
        elif isinstance(n, sx.Call):
            fn = dotted(n.func)
            literal = literal_attr_of_self(n, self_name, ("getattr", "hasattr"))
            if literal is not None:
                r.attrs.append(literal)
            for a in n.args:
                if fn is not None and fn not in _NOT_ESCAPES and is_name(a.value, self_name):
                    r.passes_self.append(fn)
        stack.extend(reversed(n.children()))


def literal_attr_of_self(call: sx.Call, self_name: str | None, functions: tuple[str, ...]) -> str | None:
    """``x`` for ``getattr(self, "x")`` (one of ``functions``) with a literal name."""
    if dotted(call.func) in functions and len(call.args) >= 2 and is_name(call.args[0].value, self_name):
        second = call.args[1].value
        if isinstance(second, sx.Const) and isinstance(second.value, str):
            return second.value
    return None


def target_names(t: sx.Node) -> list[str]:
    """Local names a target binds."""
    if isinstance(t, sx.Name):
        return [t.id]
    if isinstance(t, sx.Sequence):
        return [n for el in t.elts for n in target_names(el)]
    if isinstance(t, sx.Starred):
        return target_names(t.value)
    return []


def self_targets(t: sx.Node, self_name: str | None) -> list[str]:
    """Self attributes a target assigns (through tuples and starred targets)."""
    attr = self_attr(t, self_name)
    if attr is not None:
        return [attr]
    if isinstance(t, sx.Sequence):
        return [a for el in t.elts for a in self_targets(el, self_name)]
    if isinstance(t, sx.Starred):
        return self_targets(t.value, self_name)
    return []


def store_nodes(t: sx.Node) -> Iterator[sx.Node]:
    """The attribute and name nodes a target stores into (not what they are attributes of)."""
    if isinstance(t, sx.Sequence):
        for el in t.elts:
            yield from store_nodes(el)
    elif isinstance(t, sx.Starred):
        yield from store_nodes(t.value)
    elif isinstance(t, (sx.Attribute, sx.Name)):
        yield t


def filled_attr(call: sx.Call, self_name: str | None) -> str | None:
    """``x`` for ``self.x.append(...)`` and the other filling methods."""
    func = call.func
    if isinstance(func, sx.Attribute) and func.attr in FILL_METHODS:
        return self_attr(func.value, self_name)
    return None


@dataclass(frozen=True)
class InitCall:
    """A call of an ``__init__`` on the instance: ``super().__init__(...)`` (``target`` "super"),
    ``super(C, self).__init__(...)`` (``target`` "super", ``start`` "C") or
    ``Base.__init__(self, ...)`` (``target`` "Base"); ``args`` without the explicit ``self``."""

    target: str
    args: tuple[sx.Arg, ...]
    start: str | None = None


def init_call(call: sx.Call, self_name: str | None) -> InitCall | None:
    func = call.func
    if not (isinstance(func, sx.Attribute) and func.attr == "__init__"):
        return None
    if isinstance(func.value, sx.Call) and dotted(func.value.func) == "super":
        sargs = func.value.args
        start = dotted(sargs[0].value) if len(sargs) == 2 and is_name(sargs[1].value, self_name) else None
        return InitCall("super", call.args, start)
    d = dotted(func.value)
    if d and call.args and is_name(call.args[0].value, self_name):
        return InitCall(d, call.args[1:])
    return None


def super_attribute(node: sx.Attribute) -> bool:
    """``super().m`` / ``super(C, self).m``."""
    return isinstance(node.value, sx.Call) and dotted(node.value.func) == "super"


def dynamic_access(call: sx.Call, self_name: str | None) -> str | None:
    """Why a call makes the attributes of ``self`` unknowable, or None."""
    fn = dotted(call.func)
    args = call.args
    if not args or not is_name(args[0].value, self_name):
        return None
    if fn in ("getattr", "hasattr") and len(args) >= 2:
        return None if literal_attr_of_self(call, self_name, (fn,)) is not None else f"{fn}(self, <computed>)"
    if fn in ("setattr", "delattr"):
        second = args[1].value if len(args) > 1 else None
        if not (isinstance(second, sx.Const) and isinstance(second.value, str)):
            return f"{fn}(self, <computed>)"
        return None
    if fn == "vars":
        return "vars(self)"
    return None
