"""Reads, writes, fills, escapes, dynamic access and ``__init__`` calls: the one place that decides them.

Every producer of facts asks these functions: the summary builder (``check``), the
init-flow flattener, both fix strategies' models of an ``__init__`` body and the
reuse measure.  They read ``deadinit.semantics.syntax`` trees only.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field

from deadinit.model.summary import Pattern
from deadinit.semantics import syntax as sx
from deadinit.semantics.dynamic import ANY, KeyedRead, NameLookup, access_of, wholesale_use
from deadinit.semantics.exprs import dotted, is_name, self_attr

# ``self.x.m(...)`` with one of these methods puts something into ``self.x``
FILL_METHODS = frozenset({"append", "extend", "insert", "update", "setdefault", "__setitem__", "add"})
# calls that take ``self`` without letting it escape into another object
_NOT_ESCAPES = frozenset({"getattr", "hasattr", "isinstance", "setattr", "delattr", "super", "vars"})


@dataclass
class Reads:
    """What an expression or statement reads, in source order."""

    attrs: list[str] = field(default_factory=list)  # self attributes loaded (``getattr(self, "x")`` included)
    names: set[str] = field(default_factory=set)  # names it mentions (locals it may read)
    passes_self: list[str] = field(default_factory=list)  # dotted callees that receive ``self``
    dynamic: list[tuple[str, Pattern]] = field(default_factory=list)  # reads of computed names: (reason, pattern)


def reads_of(
    node: sx.Node | None, self_name: str | None, names: NameLookup | None = None, aliases: Collection[str] = ()
) -> Reads:
    """What ``node`` reads of ``self`` (``names``: what a local name used as an attribute name may hold;
    ``aliases``: locals that may hold ``self``, or an object holding it, such as ``me = self``: ``me.x``
    reads ``x``, ``f(me)`` lets ``self`` escape)."""
    r = Reads()
    if node is not None:
        selves = (self_name, *aliases) if self_name is not None else ()
        _collect(node, selves, r, names)
    return r


def holds_self(node: sx.Node, selves: Collection[str]) -> bool:
    """``node``'s value may be, or hold, the object one of ``selves`` names: ``self``, ``[self]``,
    ``(x := self)``, ``f(self)`` (which may give it back), ``lambda: self``; not ``self.x`` nor
    ``getattr(self, "x")`` and the other calls that take it without keeping it."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Name):
            if n.id in selves:
                return True
        elif isinstance(n, sx.Attribute) and isinstance(n.value, sx.Name):
            continue  # ``self.x``: what the attribute holds, not ``self``
        elif isinstance(n, sx.Call) and dotted(n.func) in _NOT_ESCAPES:
            stack.extend(a.value for a in n.args if not isinstance(a.value, sx.Name))
        else:
            stack.extend(n.children())
    return False


def _collect(node: sx.Node, selves: tuple[str, ...], r: Reads, names: NameLookup | None) -> None:
    stack = [node]
    keyed: set[int] = set()  # storage nodes used with a key, not wholesale
    while stack:
        n = stack.pop()
        if isinstance(n, (sx.Subscript, sx.Call)):
            _keyed(n, selves, r, names, keyed)
        if isinstance(n, sx.Attribute):
            if isinstance(n.value, sx.Name) and n.value.id in selves:
                r.attrs.append(n.attr)
                why = wholesale_use(n, n.value.id)
                if why is not None and id(n) not in keyed:
                    r.dynamic.append((why, ANY))
                continue
        elif isinstance(n, sx.Name):
            r.names.add(n.id)
            continue
        elif isinstance(n, sx.Call):
            _call(n, selves, r, keyed)
        stack.extend(reversed(n.children()))


def _keyed(
    n: sx.Subscript | sx.Call, selves: tuple[str, ...], r: Reads, names: NameLookup | None, keyed: set[int]
) -> None:
    """``getattr(self, k)``, ``self.__dict__[k]``...: a read of ``k``, or a dynamic read when ``k`` is computed."""
    for self_name in selves:
        got = access_of(n, self_name, names) if names is not None else access_of(n, self_name)
        if got is not None:
            event = got.event
            keyed.add(id(got.store))
            if isinstance(event, KeyedRead):
                r.attrs.append(event.attr)
            else:
                r.dynamic.append((event.reason, event.pattern))
            return


def _call(n: sx.Call, selves: tuple[str, ...], r: Reads, keyed: set[int]) -> None:
    """``hasattr(self, "x")`` reads ``x``; ``vars(self)`` reads everything; ``f(..., self, ...)``, with
    ``self`` anywhere in an argument (``f([self])``, ``f(x := self)``), lets ``self`` escape into ``f``."""
    fn = dotted(n.func)
    for self_name in selves:
        literal = literal_attr_of_self(n, self_name, ("hasattr",))
        if literal is not None:
            r.attrs.append(literal)
        why = wholesale_use(n, self_name)
        if why is not None and id(n) not in keyed:
            r.dynamic.append((why, ANY))
    if fn is not None and fn not in _NOT_ESCAPES and any(holds_self(a.value, selves) for a in n.args):
        r.passes_self.append(fn)


def literal_attr_of_self(call: sx.Call, self_name: str | None, functions: tuple[str, ...]) -> str | None:
    """``x`` for ``getattr(self, "x")`` (one of ``functions``) with a literal name."""
    if len(call.args) >= 2 and is_name(call.args[0].value, self_name) and dotted(call.func) in functions:
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


def super_on_self(node: sx.Node, self_name: str | None) -> tuple[bool, str | None]:
    """(True, None) for ``super()``, (True, "C") for ``super(C, self)``; (False, None) for anything
    else (``super(C, other)`` binds another object; ``super(type(self), self)`` starts nowhere we know)."""
    if not (isinstance(node, sx.Call) and dotted(node.func) == "super"):
        return False, None
    if not node.args:
        return True, None
    if len(node.args) == 2 and is_name(node.args[1].value, self_name) and not any(a.star for a in node.args):
        start = dotted(node.args[0].value)
        return (True, start) if start is not None else (False, None)
    return False, None


def init_call(call: sx.Call, self_name: str | None) -> InitCall | None:
    func = call.func
    if not (isinstance(func, sx.Attribute) and func.attr == "__init__"):
        return None
    on_self, start = super_on_self(func.value, self_name)
    if on_self:
        return InitCall("super", call.args, start)
    if isinstance(func.value, sx.Call):
        return None
    d = dotted(func.value)
    if d and call.args and is_name(call.args[0].value, self_name) and not call.args[0].star:
        return InitCall(d, call.args[1:])
    return None


def super_method_call(call: sx.Call, self_name: str | None) -> tuple[str, InitCall] | None:
    """``super().m(...)`` / ``super(C, self).m(...)`` of a method other than ``__init__``: (m, the call)."""
    func = call.func
    if not isinstance(func, sx.Attribute) or func.attr == "__init__":
        return None
    on_self, start = super_on_self(func.value, self_name)
    return (func.attr, InitCall("super", call.args, start)) if on_self else None


def super_attribute(node: sx.Attribute, self_name: str | None) -> tuple[bool, str | None]:
    """``super().m`` / ``super(C, self).m``: (True, start class as written or None)."""
    return super_on_self(node.value, self_name)


# calls that set one field of the object they are given: ``setattr(obj, "f", v)``
FIELD_SETTERS = frozenset({"setattr", "object.__setattr__"})
# calls that return a copy of an object with the fields their keywords name replaced (canonical names)
FIELD_COPIES = frozenset({"dataclasses.replace", "copy.replace"})


@dataclass(frozen=True)
class FieldWrite:
    """A value given to one field of an object held by a name other than ``self``: what a guard on
    ``obj.field`` in a parent's ``__init__`` may read once ``obj`` is passed up."""

    obj: str
    field: str
    value: sx.Expr


def field_write(call: sx.Call, self_name: str | None) -> FieldWrite | None:
    """``setattr(obj, "f", v)`` / ``object.__setattr__(obj, "f", v)`` with a literal field, on a name that
    is not ``self``."""
    if dotted(call.func) not in FIELD_SETTERS or len(call.args) != 3 or any(a.star or a.keyword for a in call.args):
        return None
    obj, name, value = (a.value for a in call.args)
    if not isinstance(obj, sx.Name) or obj.id == self_name:
        return None
    if not (isinstance(name, sx.Const) and isinstance(name.value, str)):
        return None
    return FieldWrite(obj.id, name.value, value)


def copied_fields(value: sx.Expr, target: str, canon: Callable[[str], str]) -> tuple[FieldWrite, ...]:
    """``target = dataclasses.replace(obj, f=v, ...)`` (``canon``: a callee's name through the module's
    imports): the new object ``target`` holds has ``f`` set to ``v``, whatever ``obj`` held."""
    if not isinstance(value, sx.Call):
        return ()
    fn = dotted(value.func)
    if fn is None or canon(fn) not in FIELD_COPIES:
        return ()
    return tuple(FieldWrite(target, a.keyword, a.value) for a in value.args if a.keyword is not None and not a.star)
